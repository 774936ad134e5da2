import type { ServerResponse } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { Hub } from '../callers/hub.js';
import { ModernRequest } from '../callers/request.js';
import { VARIANT_META } from '../callers/variants.js';
import { viewDigest } from '../focus/group-view.js';
import { resolveScope, type Route } from '../focus/scope.js';
import { declaresGroups, groupsOf } from '../handlers/groups.js';
import { AnnouncedList } from '../handlers/list-changes.js';
import { isRequest, type RawNotification, type RequestId } from '../protocol/jsonrpc.js';

/**
 * `notifications/groups/list_changed` on 2026-07-28 `subscriptions/listen` streams. The SDK's
 * listen routers carry only the four core change types, so lazytools adds this one itself: a
 * listen request whose `_meta` client capabilities declare io.modelcontextprotocol/groups and
 * whose filter asks for `toolsListChanged` (groups place tools; the draft defines no filter key of
 * its own) hears it, stamped with its subscription id, whenever the groups of its view (its mode:
 * endpoint, token, variant) changed after an rc reload or an upstream's list change.
 */

/** The subscription a listen request opens for groups, or undefined when it does not ask for them. */
export function groupsSubscription(message: unknown): RequestId | undefined {
  if (!isRequest(message) || message.method !== 'subscriptions/listen') return undefined;
  const params = message.params ?? {};
  const meta = params._meta as Record<string, unknown> | undefined;
  const filter = params.notifications as { toolsListChanged?: unknown } | undefined;
  return filter?.toolsListChanged === true && declaresGroups(meta?.[CLIENT_CAPABILITIES_META_KEY]) ? message.id : undefined;
}

/** Group digests per view key, for one catalog and config (a rebuild or reload makes new ones). */
const digestsByCatalog = new WeakMap<object, { config: object; digests: Map<string, string> }>();

function viewDigests(gateway: Hub): Map<string, string> {
  let entry = digestsByCatalog.get(gateway.catalog);
  if (entry?.config !== gateway.config) {
    entry = { config: gateway.config, digests: new Map() };
    digestsByCatalog.set(gateway.catalog, entry);
  }
  return entry.digests;
}

/**
 * Watches the groups of one listen request's view and calls `send` with the stamped notification
 * when they change. Returns the function that stops watching.
 */
export function watchGroups(gateway: Hub, route: Route, message: unknown, send: (notification: RawNotification) => void): () => void {
  const id = (message as { id: RequestId }).id;
  const meta = ((message as { params?: { _meta?: Record<string, unknown> } }).params?._meta ?? {}) as Record<string, unknown>;
  const digest = (): string => {
    const scope = resolveScope(gateway.config, route, { era: 'modern', variant: meta[VARIANT_META] });
    if ('refusal' in scope) return scope.refusal;
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown>;
    const strategy = route.strategy ?? gateway.config.strategy;
    // Streams of one view share one digest per catalog: a change costs one view build per view,
    // not one per open stream.
    const key = JSON.stringify([scope.mode, scope.fixedMode, scope.boundary, strategy, capabilities]);
    const cached = viewDigests(gateway);
    let found = cached.get(key);
    if (found === undefined) {
      found = viewDigest(groupsOf(new ModernRequest(gateway, route, scope, capabilities)));
      cached.set(key, found);
    }
    return found;
  };
  const groups = new AnnouncedList(digest);
  groups.mark();
  const listener = (kind: string) => {
    if (kind !== 'tools' || !groups.changed()) return;
    send({ jsonrpc: '2.0', method: 'notifications/groups/list_changed', params: { _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } });
  };
  gateway.listChangeListeners.add(listener);
  return () => gateway.listChangeListeners.delete(listener);
}

/** Writes group changes into the SSE response of an HTTP listen request, while it stays open. */
export function groupsOnHttpStream(gateway: Hub, route: Route, body: unknown, res: ServerResponse): void {
  if (groupsSubscription(body) === undefined) return;
  const stop = watchGroups(gateway, route, body, (notification) => {
    // Only into the open event stream the SDK answered with, in whole frames as the SDK writes
    // them. A refused listen is a small JSON body the adapter writes and ends within one task, so
    // an open 200 response here is the stream (headers given to writeHead are not readable back).
    if (!res.headersSent || res.writableEnded || res.statusCode !== 200) return;
    res.write(`event: message\ndata: ${JSON.stringify(notification)}\n\n`);
  });
  res.once('close', stop);
}

/** The listen subscriptions of one stdio connection that hear group changes. */
export class StdioGroupsListens {
  private readonly open = new Map<RequestId, () => void>();

  constructor(
    private readonly gateway: Hub,
    private readonly route: Route,
    private readonly send: (notification: RawNotification) => void,
  ) {}

  /** A client message: a listen request for groups starts watching, its cancellation stops. */
  inbound(message: unknown): void {
    const id = groupsSubscription(message);
    if (id !== undefined) {
      this.open.get(id)?.();
      this.open.set(id, watchGroups(this.gateway, this.route, message, this.send));
      return;
    }
    const cancelled = message as { method?: unknown; params?: { requestId?: RequestId } };
    if (cancelled.method === 'notifications/cancelled' && cancelled.params?.requestId !== undefined) this.stop(cancelled.params.requestId);
  }

  /** A server message: the final answer to a listen request ends its subscription. */
  outbound(message: unknown): void {
    const answer = message as { id?: RequestId; method?: unknown };
    if (answer.id !== undefined && answer.method === undefined) this.stop(answer.id);
  }

  close(): void {
    for (const stop of this.open.values()) stop();
    this.open.clear();
  }

  private stop(id: RequestId): void {
    this.open.get(id)?.();
    this.open.delete(id);
  }
}
