import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import { LIST_TOOL_GROUPS } from '../catalog/own-tools.js';
import { buildGroupView, groupResult, viewDigest, type GroupView } from '../focus/group-view.js';
import { offeredModes, withModeGroups } from '../focus/mode-groups.js';
import { GROUPS_EXTENSION } from '../groups/wire.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import { methodNotFound, unknownGroup } from '../protocol/errors.js';
import type { Caller, CallerFront, SessionLink } from './caller.js';
import { jsonBytes, listPage, PAGE_MAX_BYTES } from './paging.js';
import { AnnouncedList } from './list-changes.js';
import { KeptPerOwner } from '../util/kept.js';

/**
 * The wire side of the draft extension `io.modelcontextprotocol/groups` (model: focus/group-view.ts),
 * for both eras: the capability, `groups/list` (paged, by name) and `groups/get` (-32002 for an
 * unknown group, no state touched), `notifications/groups/list_changed`, and the one difference
 * in `tools/list` for clients that declared it. A client that did not declare the extension
 * (2025: in `initialize`; 2026-07-28: in each request's `_meta` client capabilities) gets
 * method-not-found for `groups/*` and today's list, so the view is decided per request.
 */

/**
 * What a view of the groups reads of a caller (a 2025 session or a 2026-07-28 request); its
 * `groupsKey` is what its groups depend on besides the catalog and config (the cache key of groupsOf).
 */
export type GroupsSubject = Pick<Caller, 'hub' | 'listedTools' | 'refusal' | 'fixedMode' | 'boundary'> & Partial<Pick<Caller, 'groupsKey'>>;

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
const views = new KeptPerOwner<GroupView, unknown>(MAX_GROUP_VIEWS);

/**
 * The groups of a subject's view, kept by its `groupsKey` until the catalog or the config changes:
 * a view costs a walk over the catalog (49-113 ms at 10,000 tools), which `groups/list` and
 * `groups/get` once paid on every request.
 */
export function groupsOf(subject: GroupsSubject): GroupView {
  const key = subject.groupsKey?.();
  if (key === undefined) return buildGroups(subject);
  return views.get(subject.hub.catalog, subject.hub.config, key, () => buildGroups(subject));
}

function buildGroups(subject: GroupsSubject): GroupView {
  const { catalog, config } = subject.hub;
  const top = topLevelTools(subject);
  const tools = buildGroupView({
    catalog,
    top,
    callable: (tool) => subject.refusal(tool) === undefined,
    // One groups/get answer stays within a tools/list page, whatever the upstream's schemas.
    size: { bytes: (tool) => jsonBytes(tool.listed), max: PAGE_MAX_BYTES },
  });
  // The modes it may switch to lead to their tools' groups (focus/mode-groups.ts).
  return withModeGroups(tools, { catalog, config, modes: offeredModes(config, subject), top, maxBytes: PAGE_MAX_BYTES });
}

/**
 * lazytools' own tools in `tools/list`, for this client's capabilities: `groups/list` and
 * `groups/get` do what `list_tool_groups` does, so a client of the extension does not pay for it
 * (it stays callable). Any cache of the list must be keyed on this flag.
 */
export function listedOwnTools(tools: ToolDefinition[], groupsDeclared: boolean): ToolDefinition[] {
  return groupsDeclared ? tools.filter((tool) => tool.name !== LIST_TOOL_GROUPS) : tools;
}

const listParams = z.looseObject({ cursor: z.string().optional() }).optional();
const getParams = z.looseObject({ name: z.string() });

/**
 * Registers `groups/list` and `groups/get` on a front server, for both eras. A caller whose
 * client did not declare the extension gets method-not-found, as from any server without it;
 * list results carry the front's extras (2026-07-28: `ttlMs`, `cacheScope`); a 2025 session
 * remembers the view its client was shown, to announce when it changes (groupsChanged).
 */
export function registerGroups<C extends Caller>(server: Server, front: CallerFront<C>): void {
  const viewFor = (ctx: ServerContext): GroupView => {
    const caller = front.callerOf(ctx);
    if (!declaresGroups(caller.clientCapabilities())) throw methodNotFound();
    const view = groupsOf(caller);
    if (front.era === 'legacy') rememberShown(caller, view);
    return view;
  };
  server.setRequestHandler('groups/list', { params: listParams }, (params, ctx) => {
    const view = viewFor(ctx);
    return { ...listPage(view.top, params?.cursor, (group) => group.name, 'groups'), ...front.listExtras?.() } as never;
  });
  server.setRequestHandler('groups/get', { params: getParams }, (params, ctx) => {
    const view = viewFor(ctx);
    const result = groupResult(view, params.name);
    if (result) return result as never;
    throw unknownGroup(params.name, { server, id: ctx.mcpReq.id, signal: ctx.mcpReq.signal });
  });
}

/** The groups each 2025 session was last shown (by session object), as view digests. */
const shown = new WeakMap<object, AnnouncedList<string>>();

/** Remembers the view a session's client was shown, so groupsChanged can compare. */
function rememberShown(subject: GroupsSubject, view: GroupView): void {
  let groups = shown.get(subject);
  if (!groups) shown.set(subject, (groups = new AnnouncedList(() => viewDigest(groupsOf(subject)))));
  groups.remember(viewDigest(view));
}

/**
 * After a session's list check (focus change, catalog rebuild, rc reload): sends
 * `notifications/groups/list_changed` when the client declared the extension, has listed or
 * fetched groups, and its view's groups now differ.
 */
export function groupsChanged(session: GroupsSubject & Pick<SessionLink, 'clientCapabilities' | 'notify'>, related: RequestId | undefined): void {
  const groups = shown.get(session);
  if (groups === undefined || !declaresGroups(session.clientCapabilities()) || !groups.changed()) return;
  session.notify('notifications/groups/list_changed', undefined, related);
}
