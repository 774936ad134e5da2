import { tooManySubscriptions } from '../protocol/errors.js';
import type { Upstream } from '../upstream/upstream.js';
import type { SubscriptionTable } from './caller.js';

/** Subscriptions one session may hold (a bound on the gateway's memory, far above real use). */
export const MAX_SUBSCRIPTIONS = 1_000;

/**
 * Who is subscribed to which upstream URI. The upstream hears one subscribe when the first session
 * subscribes and one unsubscribe when the last leaves; resources/updated reaches only subscribers.
 * A URI is registered as soon as its subscribe is sent, not when the upstream answers: a session
 * subscribing meanwhile waits on that one request, and an unsubscribe meanwhile counts (it was a
 * no-op, and the session stayed subscribed once the answer came).
 */
export class Subscriptions implements SubscriptionTable {
  private readonly byKey = new Map<string, { server: string; uri: string; sessions: Set<object>; ready: Promise<unknown> }>();
  private readonly counts = new WeakMap<object, number>();

  constructor(private readonly max = MAX_SUBSCRIPTIONS) {}

  async subscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    let entry = this.byKey.get(key);
    if (!entry?.sessions.has(session)) {
      const count = this.counts.get(session) ?? 0;
      if (count >= this.max) throw tooManySubscriptions(this.max);
      this.counts.set(session, count + 1);
      if (!entry) this.byKey.set(key, (entry = { server: upstream.name, uri, sessions: new Set(), ready: upstream.request('resources/subscribe', { uri }, origin) }));
      entry.sessions.add(session);
    }
    try {
      await entry.ready;
    } catch (error) {
      // The upstream refused: no session holds it (each waiting one hears the failure).
      if (entry.sessions.delete(session)) this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
      if (this.byKey.get(key) === entry) this.byKey.delete(key);
      throw error;
    }
  }

  async unsubscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    const entry = this.byKey.get(key);
    if (!entry?.sessions.delete(session)) return;
    this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
    if (entry.sessions.size > 0) return;
    this.byKey.delete(key);
    await upstream.request('resources/unsubscribe', { uri }, origin);
  }

  /** True while a session holds a subscription on the server (its process must keep running). */
  holds(server: string): boolean {
    for (const entry of this.byKey.values()) if (entry.server === server) return true;
    return false;
  }

  /** Sessions subscribed to a URI of a server. */
  subscribers(server: string, uri: string): ReadonlySet<object> {
    return this.byKey.get(`${server}\n${uri}`)?.sessions ?? new Set();
  }

  /** Drops a closed session's subscriptions (unsubscribing upstream where it was the last). */
  drop(session: object, upstreams: ReadonlyMap<string, Upstream>): void {
    for (const [key, entry] of this.byKey) {
      if (!entry.sessions.delete(session) || entry.sessions.size > 0) continue;
      this.byKey.delete(key);
      const upstream = upstreams.get(entry.server);
      if (upstream?.status === 'ready') void upstream.request('resources/unsubscribe', { uri: entry.uri }).catch(() => {});
    }
  }

  /** Subscribes again after an upstream (re)started: a new process knows no subscriptions. */
  renew(upstream: Upstream): void {
    for (const entry of this.byKey.values())
      if (entry.server === upstream.name) void upstream.request('resources/subscribe', { uri: entry.uri }).catch(() => {});
  }
}
