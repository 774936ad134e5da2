import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import { LIST_TOOL_GROUPS } from '../catalog/own-tools.js';
import { buildGroupView, groupResult, viewDigest, type GroupView } from '../focus/group-view.js';
import { GROUPS_EXTENSION } from '../groups/wire.js';
import type { RequestId } from '../util/jsonrpc.js';
import { ErrorCode, rpcError } from '../protocol/errors.js';
import type { Catalog } from '../catalog/catalog.js';
import { jsonBytes, listPage, PAGE_MAX_BYTES } from './paging.js';
import { AnnouncedList } from './list-changes.js';

/**
 * The wire side of the draft extension `io.modelcontextprotocol/groups` (model: focus/group-view.ts),
 * for both eras: the capability, `groups/list` (paged, by name) and `groups/get` (-32002 for an
 * unknown group, no state touched), `notifications/groups/list_changed`, and the one difference
 * in `tools/list` for clients that declared it. A client that did not declare the extension
 * (2025: in `initialize`; 2026-07-28: in each request's `_meta` client capabilities) gets
 * method-not-found for `groups/*` and today's list, so the view is decided per request.
 */

/** What a view of the groups needs from whoever serves it: a 2025 session or a 2026-07-28 request. */
export interface GroupsSubject {
  readonly gateway: { readonly catalog: Catalog; readonly config?: object };
  /** The catalog tools its `tools/list` carries. */
  listedTools(): CatalogTool[];
  /** Why it may not call the tool (focus/policy), or undefined. */
  refusal(tool: CatalogTool): string | undefined;
  /**
   * What its groups depend on besides the catalog and config, as a cache key (groupsOf): subjects
   * with the same key see the same groups. Undefined: built every time.
   */
  groupsKey?(): unknown;
}

/** The settings object lazytools advertises: it announces group changes (see groupsChanged). */
export const GROUPS_SETTINGS = { listChanged: true } as const;

/** `extensions` entries for a server's capabilities. */
export function groupsExtensions(): Record<string, typeof GROUPS_SETTINGS> {
  return { [GROUPS_EXTENSION]: GROUPS_SETTINGS };
}

/** True when client capabilities (initialize's, or a request's `_meta` ones) declare the extension. */
export function declaresGroups(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null || !Object.prototype.hasOwnProperty.call(extensions, GROUPS_EXTENSION)) return false;
  const settings = (extensions as Record<string, unknown>)[GROUPS_EXTENSION];
  return typeof settings === 'object' && settings !== null;
}

/**
 * What a view shows at top level: its `tools/list` catalog tools. Everything else it may call is
 * scoped, so tools a mode holds back (budget-fitted modes) land in groups by themselves.
 */
export function topLevelTools(subject: GroupsSubject): CatalogTool[] {
  return subject.listedTools();
}

/** Group views kept per catalog and config, at most this many (the oldest goes). */
export const MAX_GROUP_VIEWS = 64;
const views = new WeakMap<object, { config: object | undefined; byKey: Map<unknown, GroupView> }>();

/**
 * The groups of a subject's view, kept by its `groupsKey` until the catalog or the config changes:
 * a view costs a walk over the catalog (49-113 ms at 10,000 tools), which `groups/list` and
 * `groups/get` once paid on every request.
 */
export function groupsOf(subject: GroupsSubject): GroupView {
  const key = subject.groupsKey?.();
  if (key === undefined) return buildGroups(subject);
  const { catalog, config } = subject.gateway;
  let entry = views.get(catalog);
  if (!entry || entry.config !== config) {
    entry = { config, byKey: new Map() };
    views.set(catalog, entry);
  }
  let view = entry.byKey.get(key);
  if (view === undefined) {
    view = buildGroups(subject);
    if (entry.byKey.size >= MAX_GROUP_VIEWS) entry.byKey.delete(entry.byKey.keys().next().value);
    entry.byKey.set(key, view);
  }
  return view;
}

function buildGroups(subject: GroupsSubject): GroupView {
  return buildGroupView({
    catalog: subject.gateway.catalog,
    top: topLevelTools(subject),
    callable: (tool) => subject.refusal(tool) === undefined,
    // One groups/get answer stays within a tools/list page, whatever the upstream's schemas.
    size: { bytes: (tool) => jsonBytes(tool.listed), max: PAGE_MAX_BYTES },
  });
}

/**
 * lazytools' own tools in `tools/list`, for this client's capabilities: `groups/list` and
 * `groups/get` do what `list_tool_groups` does, so a client of the extension does not pay for it
 * (it stays callable). Any cache of the list must be keyed on this flag.
 */
export function listedOwnTools(tools: ToolDefinition[], groupsDeclared: boolean): ToolDefinition[] {
  return groupsDeclared ? tools.filter((tool) => tool.name !== LIST_TOOL_GROUPS) : tools;
}

/** Characters of an unknown group name echoed back at most (wire names have at most 64). */
const MAX_ECHO = 80;

const listParams = z.looseObject({ cursor: z.string().optional() }).optional();
const getParams = z.looseObject({ name: z.string() });

/**
 * Registers `groups/list` and `groups/get` on a front server. `subjectOf` gives the request's
 * view, or undefined when the client did not declare the extension (method not found, as for
 * any server without it); `extra` adds result fields (2026-07-28: `ttlMs`, `cacheScope`);
 * `seen` is told the view a client was shown (a session compares later views with it).
 */
export function registerGroups(
  server: Server,
  subjectOf: (ctx: ServerContext) => GroupsSubject | undefined,
  extra: () => Record<string, unknown> = () => ({}),
  seen?: (subject: GroupsSubject, view: GroupView) => void,
): void {
  const viewFor = (ctx: ServerContext): { subject: GroupsSubject; view: GroupView } => {
    const subject = subjectOf(ctx);
    if (!subject) throw rpcError(ErrorCode.MethodNotFound, 'Method not found');
    const view = groupsOf(subject);
    seen?.(subject, view);
    return { subject, view };
  };
  server.setRequestHandler('groups/list', { params: listParams }, (params, ctx) => {
    const { view } = viewFor(ctx);
    return { ...listPage(view.top, params?.cursor, (group) => group.name, 'groups'), ...extra() } as never;
  });
  server.setRequestHandler('groups/get', { params: getParams }, (params, ctx) => {
    const { view } = viewFor(ctx);
    const result = groupResult(view, params.name);
    if (result) return result as never;
    keepNotFoundCode(server, ctx.mcpReq.id, ctx.mcpReq.signal);
    // The name is the client's: echoed bounded (a 1 MB name came back twice, in message and data).
    const name = params.name.length > MAX_ECHO ? `${params.name.slice(0, MAX_ECHO)}…` : params.name;
    throw rpcError(ErrorCode.GroupNotFound, `Unknown group ${JSON.stringify(name)}: groups/list names the groups (a group's own groups/get names its children).`, { name });
  });
}

/** Request ids whose error must leave as -32002, per transport. */
const notFound = new WeakMap<object, Set<RequestId>>();

/**
 * The draft answers an unknown group with -32002, but the SDK rewrites -32002 to -32602 on the way
 * out in both eras (2026-07-28 moved `resources/read`'s not-found there). So the answer to this
 * request gets its code back at the transport; every other message passes untouched (a cancelled
 * request's id is dropped: it gets no answer, and a later request may reuse the id).
 */
function keepNotFoundCode(server: Server, id: RequestId, signal: AbortSignal): void {
  const transport = server.transport;
  // A cancelled request gets no answer: its id must not wait for one (a later request may reuse it).
  if (!transport || signal.aborted) return;
  let ids = notFound.get(transport);
  if (!ids) {
    const pending = (ids = new Set());
    notFound.set(transport, pending);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const error = (message as { id?: RequestId; error?: { code: number } }).error;
      const answered = (message as { id?: RequestId }).id;
      if (error && answered !== undefined && pending.delete(answered)) return send({ ...message, error: { ...error, code: ErrorCode.GroupNotFound } } as never, options);
      return send(message, options);
    };
  }
  ids.add(id);
  const pending = ids;
  signal.addEventListener('abort', () => pending.delete(id), { once: true });
}

/** The groups each 2025 session was last shown (by session object), as view digests. */
const shown = new WeakMap<object, AnnouncedList<string>>();

/** Remembers the view a session's client was shown, so groupsChanged can compare. */
export function rememberShown(subject: GroupsSubject, view: GroupView): void {
  let groups = shown.get(subject);
  if (!groups) shown.set(subject, (groups = new AnnouncedList(() => viewDigest(groupsOf(subject)))));
  groups.remember(viewDigest(view));
}

/**
 * After a session's list check (focus change, catalog rebuild, rc reload): sends
 * `notifications/groups/list_changed` when the client declared the extension, has listed or
 * fetched groups, and its view's groups now differ.
 */
export function groupsChanged(session: GroupsSubject & { clientCapabilities(): unknown; notify(method: string, params: undefined, related?: RequestId): void }, related: RequestId | undefined): void {
  const groups = shown.get(session);
  if (groups === undefined || !declaresGroups(session.clientCapabilities()) || !groups.changed()) return;
  session.notify('notifications/groups/list_changed', undefined, related);
}
