import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * What a front does with a notification for a client that is behind (more than its bound unread:
 * a stdio client's stdout, an HTTP session's streams), one rule for both fronts. Writes queue in
 * memory whatever the client reads, so past the bound notifications are dropped until it reads
 * (an upstream logging 900 KB lines took the gateway past 1.4 GB in a minute). Kept:
 * - answers and requests (their number is bounded by the calls in flight): not notifications;
 * - list changes (`…/list_changed`: a few bytes, paced by the flood gate): one dropped leaves the
 *   client's list stale until the next change;
 * - resources/updated, held by URI until the client has caught up (HeldUpdates): one dropped
 *   leaves a subscriber's copy stale until that resource changes again.
 */
export type Behind = 'send' | 'drop' | 'hold';

/** How a notification for a client that is behind is handled (see Behind). */
export function whenBehind(message: JSONRPCMessage): Behind {
  if (!('method' in message) || 'id' in message || message.method.endsWith('/list_changed')) return 'send';
  return message.method === 'notifications/resources/updated' ? 'hold' : 'drop';
}

/** Resources whose update a client that is behind may wait for (each a URI and a few bytes). */
export const MAX_HELD_UPDATES = 1_024;

/**
 * resources/updated met while a client is behind, by URI (one per URI, in the order last met),
 * at most MAX_HELD_UPDATES URIs, each as its URI alone: the rest of an upstream's params (up to
 * the 1 MiB a notification may hold) is not kept, and the URI is one the client subscribed to
 * (subscriptions.ts). The front sends what `take` gives once the client has caught up.
 */
export class HeldUpdates {
  private readonly held = new Map<string, JSONRPCMessage>();

  /** Holds `message` (a resources/updated); false when it could not (no URI, or the bound is full). */
  hold(message: JSONRPCMessage & { params?: { uri?: unknown } }): boolean {
    const uri = message.params?.uri;
    if (typeof uri !== 'string' || (!this.held.has(uri) && this.held.size >= MAX_HELD_UPDATES)) return false;
    // Last held last: the client hears the updates in the order of their latest change.
    this.held.delete(uri);
    this.held.set(uri, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    return true;
  }

  get size(): number {
    return this.held.size;
  }

  /** The held updates, in the order last held, and none left. */
  take(): JSONRPCMessage[] {
    const all = [...this.held.values()];
    this.held.clear();
    return all;
  }
}
