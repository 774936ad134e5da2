import type { ServerResponse } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { Hub } from '../callers/hub.js';
import { ModernRequest } from '../callers/request.js';
import { VARIANT_META } from '../callers/variants.js';
import { clipText } from '../util/bounds.js';
import { viewDigest } from '../focus/group-view.js';
import { resolveScope, type Route } from '../focus/scope.js';
import { GROUPS_EXTENSION } from '../groups/wire.js';
import { declaresGroups, groupsOf } from '../handlers/groups.js';
import { AnnouncedList } from '../handlers/list-changes.js';
import { isRequest, sseMessage, type RawNotification, type RequestId } from '../protocol/jsonrpc.js';

/**
 * `notifications/groups/list_changed` on 2026-07-28 `subscriptions/listen` streams. The SDK's
 * listen routers carry only the four core change types, so lazytools adds this one itself: a
 * listen request whose `_meta` client capabilities declare io.modelcontextprotocol/groups and
 * whose filter asks for `toolsListChanged` (groups place tools; the draft defines no filter key of
 * its own) hears it, stamped with its subscription id, whenever the groups of its view (its mode:
 * endpoint, token, variant) changed after an rc reload or an upstream's list change.
 */

/** What a groups listen stream keeps of its request: its id and the variant it asked for, never the request itself (its `_meta` may be megabytes). */
export interface GroupsListen {
  id: RequestId;
  variant: unknown;
}

/** Characters of a variant a stream keeps (mode names are shorter; a longer one names no mode). */
const MAX_VARIANT = 256;

/** The subscription a listen request opens for groups, or undefined when it does not ask for them. */
export function groupsSubscription(message: unknown): GroupsListen | undefined {
  if (!isRequest(message) || message.method !== 'subscriptions/listen') return undefined;
  const params = message.params ?? {};
  const meta = params._meta as Record<string, unknown> | undefined;
  const filter = params.notifications as { toolsListChanged?: unknown } | undefined;
  if (filter?.toolsListChanged !== true || !declaresGroups(meta?.[CLIENT_CAPABILITIES_META_KEY])) return undefined;
  const asked = meta?.[VARIANT_META];
  // A variant is a mode name: anything else is refused the same way, however long it is.
  const variant = typeof asked === 'string' ? clipText(asked, MAX_VARIANT + 1) : asked === undefined ? asked : null;
  return { id: message.id, variant };
}

/** Views whose group digests are kept per catalog and config (the oldest is evicted past it). */
const MAX_VIEW_DIGESTS = 256;

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
 * What a view's groups depend on besides the catalog and config: its mode, whether it is bound,
 * its boundary and strategy. The client's capabilities are not part of it: every listen that
 * hears groups declared the extension, and nothing else of them changes the groups (a key that
 * held them let each request with new capabilities add an entry, 1 MB each).
 */
const GROUPS_DECLARED = { extensions: { [GROUPS_EXTENSION]: {} } };

/**
 * Watches the groups of one listen stream's view and calls `send` with the stamped notification
 * when they change. Returns the function that stops watching.
 */
export function watchGroups(gateway: Hub, route: Route, listen: GroupsListen, send: (notification: RawNotification) => void): () => void {
  const { id, variant } = listen;
  const digest = (): string => {
    const scope = resolveScope(gateway.config, route, { era: 'modern', variant });
    if ('refusal' in scope) return scope.refusal;
    const strategy = route.strategy ?? gateway.config.strategy;
    // Streams of one view share one digest per catalog: a change costs one view build per view,
    // not one per open stream.
    const key = JSON.stringify([scope.mode, scope.fixedMode, scope.boundary, strategy]);
    const cached = viewDigests(gateway);
    let found = cached.get(key);
    if (found === undefined) {
      found = viewDigest(groupsOf(new ModernRequest(gateway, route, scope, GROUPS_DECLARED)));
      if (cached.size >= MAX_VIEW_DIGESTS) cached.delete(cached.keys().next().value as string);
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

/**
 * Writes group changes into the SSE response of an HTTP listen request, while it stays open. The
 * watch starts only once the SDK accepted the stream (its 200 event-stream head): a refused listen
 * never costs a watch.
 */
export function groupsOnHttpStream(gateway: Hub, route: Route, body: unknown, res: ServerResponse): void {
  const listen = groupsSubscription(body);
  if (listen !== undefined) watchOnceStreaming(res, () => {
    const stop = watchGroups(gateway, route, listen, (notification) => {
      // Only into the open event stream, in whole frames as the SDK writes them.
      if (!res.writableEnded) res.write(sseMessage(JSON.stringify(notification)));
    });
    res.once('close', stop);
  });
}

/** Runs `start` once `res` is answered with a 200 event stream (never for a refusal). */
function watchOnceStreaming(res: ServerResponse, start: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    const written = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (args[0] === 200 && isEventStream(args[1]) && !res.destroyed) start();
    return written;
  } as typeof res.writeHead;
}

/** True when headers given to writeHead (an object or a flat array) declare an event stream. */
function isEventStream(headers: unknown): boolean {
  if (typeof headers !== 'object' || headers === null) return false;
  const pairs: Array<[unknown, unknown]> = Array.isArray(headers) ? headers.flatMap((_, i) => (i % 2 === 0 ? [[headers[i], headers[i + 1]] as [unknown, unknown]] : [])) : Object.entries(headers);
  return pairs.some(([name, value]) => String(name).toLowerCase() === 'content-type' && String(value).startsWith('text/event-stream'));
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
    const listen = groupsSubscription(message);
    if (listen !== undefined) {
      this.open.get(listen.id)?.();
      this.open.set(listen.id, watchGroups(this.gateway, this.route, listen, this.send));
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
