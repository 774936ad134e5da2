import { createHash } from 'node:crypto';
import type { Catalog, CatalogTool } from '../catalog/catalog.js';
import { NameTable, toolGroupName } from '../groups/names.js';
import type { GetGroupResult, Group } from '../groups/wire.js';
import { counted } from '../util/plural.js';

/**
 * lazytools' groups and modes as the draft MCP extension `io.modelcontextprotocol/groups`
 * ("Progressive Disclosure via Groups", 2026-09-28) sees them, for one client view. Pure: the
 * same catalog, top-level list and policy give the same groups, names and order.
 *
 * - Top level: the tools the view lists (the mode's shown tools; `tools/list`).
 * - Scoped: every other tool the view may call, each in exactly ONE group (the draft allows a
 *   tool in several; one home keeps every `groups/get` smaller and registers nothing twice): its
 *   most specific lazytools group, the one with the fewest tools in the catalog (ties: config
 *   order), among the groups the rc names when one holds it; catch-all groups (`all`) give no
 *   signal and are skipped. A tool in no other group goes to its server's `<server>-other` group.
 * - Large groups nest: a group with more than `maxLeaf` scoped tools from several servers lists
 *   one child group per server (`issues` -> `issues-github`, `issues-linear`); a group still
 *   larger from one server is cut into parts (`-1`, `-2`...). So is a leaf whose tools' listed
 *   definitions pass a byte bound (`size`: the page bound of `tools/list`): an upstream's huge
 *   schemas must not make one `groups/get` answer bigger than a client takes (the SDK's stdio
 *   client drops the connection past 10 MiB); a single bigger tool is a part alone. `groups/list`
 *   holds only the parents; the tree is at most three levels deep and has no cycles (names are
 *   unique).
 * - Tools the view may not call (read-only modes, token boundaries, `hiddenTools: reject`) are in
 *   no group: groups disclose what the caller can use, while `tools/call` stays the only gate.
 */

/** Above this many tools a group gets child groups: about where models start to choose worse. */
export const MAX_LEAF = 40;

/** One group of a view: its wire object, its scoped tools (leaves) or children (parents). */
export interface GroupEntry {
  readonly group: Group;
  readonly tools: readonly CatalogTool[];
  readonly children: readonly Group[];
}

/** Every group of one client view. */
export interface GroupView {
  /** `groups/list`, by name. */
  readonly top: readonly Group[];
  /** Every group, top-level or nested, by wire name (`groups/get` resolves any of them). */
  readonly groups: ReadonlyMap<string, GroupEntry>;
  /** The group each scoped tool is in, by tool id. */
  readonly home: ReadonlyMap<string, string>;
}

/** What a view is built from. */
interface ViewInput {
  catalog: Catalog;
  /** The tools listed at top level in this view (`tools/list`), own tools aside. */
  top: readonly CatalogTool[];
  /** True when the view may call the tool (focus/policy); others are in no group. */
  callable: (tool: CatalogTool) => boolean;
  /** Bounds one leaf's answer: bytes of a tool's listed definition, and the most a leaf may carry. */
  size?: { bytes: (tool: CatalogTool) => number; max: number };
}

/** Builds the groups of one view (see the module comment for the rules). */
export function buildGroupView(input: ViewInput, maxLeaf = MAX_LEAF): GroupView {
  const { catalog } = input;
  const bytes = input.size?.bytes ?? (() => 0);
  const maxBytes = input.size?.max ?? Infinity;
  const topIds = new Set(input.top.map((tool) => tool.id));
  // Buckets in a fixed order: lazytools groups in config order, then servers' leftovers.
  const buckets = new Map<string, { base: string; description: string; tools: CatalogTool[] }>();
  for (const group of catalog.groups.values()) if (!group.catchAll) buckets.set(`group:${group.name}`, { base: group.name, description: group.description, tools: [] });
  for (const server of catalog.servers) buckets.set(`server:${server}`, { base: `${server}-other`, description: `Tools of server "${server}" that no other group takes`, tools: [] });
  for (const tool of catalog.tools) {
    if (topIds.has(tool.id) || !input.callable(tool)) continue;
    const home = homeGroup(catalog, tool);
    buckets.get(home === undefined ? `server:${tool.server}` : `group:${home}`)?.tools.push(tool);
  }
  const names = new NameTable(toolGroupName);
  const groups = new Map<string, GroupEntry>();
  const home = new Map<string, string>();
  const place = (base: string, description: string, tools: CatalogTool[]): Group => {
    const name = names.claim(base);
    if (tools.length <= 1 || (tools.length <= maxLeaf && listedBytes(tools, bytes) <= maxBytes)) {
      const group = { name, description: `${description} (${counted(tools.length, 'tool')})` };
      groups.set(name, { group, tools, children: [] });
      for (const tool of tools) home.set(tool.id, name);
      return group;
    }
    const servers = [...new Set(tools.map((tool) => tool.server))];
    const parts =
      servers.length > 1
        ? servers.map((server) => ({ base: `${name}-${server}`, description: `${description}, server "${server}"`, tools: tools.filter((tool) => tool.server === server) }))
        : chunks(tools, maxLeaf, bytes, maxBytes).map((part, i, all) => ({ base: `${name}-${i + 1}`, description: `${description} (part ${i + 1} of ${all.length})`, tools: part }));
    const group = { name, description: `${description} (${counted(tools.length, 'tool')} in ${parts.length} groups)` };
    const entry = { group, tools: [] as CatalogTool[], children: [] as Group[] };
    groups.set(name, entry);
    for (const part of parts) entry.children.push(place(part.base, part.description, part.tools));
    return group;
  };
  const top: Group[] = [];
  for (const bucket of buckets.values()) if (bucket.tools.length > 0) top.push(place(bucket.base, bucket.description, bucket.tools));
  top.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { top, groups, home };
}

/** The `groups/get` answer for a group of the view, or undefined for an unknown name. */
export function groupResult(view: GroupView, name: string): GetGroupResult | undefined {
  const entry = view.groups.get(name);
  if (!entry) return undefined;
  if (entry.children.length > 0) return { contents: { groups: [...entry.children] } };
  return { contents: { tools: entry.tools.map((tool) => tool.listed) } };
}

/**
 * A digest of what a client of the extension can see change: the top-level groups and every
 * group's members. Equal digests: no `notifications/groups/list_changed` to send.
 */
export function viewDigest(view: GroupView): string {
  const hash = createHash('sha1').update(JSON.stringify(view.top));
  for (const [name, entry] of view.groups) hash.update(`${name}:${entry.children.map((c) => c.name).join(',')}:${entry.tools.map((t) => t.exposedName).join(',')}\n`);
  return hash.digest('base64');
}

/**
 * The tool's most specific group: fewest catalog tools, ties in config order; catch-alls never.
 * Groups the rc names come first: a user's `notes` group of the memory server's tools is where
 * they go, under the user's name and description, not the preset `memory` that matches them too.
 */
function homeGroup(catalog: Catalog, tool: CatalogTool): string | undefined {
  let best: { name: string; fromRc: boolean; size: number } | undefined;
  for (const name of tool.groups) {
    const group = catalog.groups.get(name);
    if (!group || group.catchAll) continue;
    const better = !best || (group.fromRc && !best.fromRc) || (group.fromRc === best.fromRc && group.tools.length < best.size);
    if (better) best = { name, fromRc: group.fromRc, size: group.tools.length };
  }
  return best?.name;
}

/** Runs of at most `size` items whose bytes take at most `maxBytes` (a bigger item alone): a leaf's tools, a mode's groups. */
export function chunks<T>(items: readonly T[], size: number, bytesOf: (item: T) => number, maxBytes: number): T[][] {
  const out: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const next = bytesOf(item);
    if (part.length > 0 && (part.length >= size || bytes + next > maxBytes)) {
      out.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += next;
  }
  if (part.length > 0) out.push(part);
  return out;
}

/** Bytes of the tools' listed definitions: what their leaf's groups/get answer carries. */
function listedBytes(tools: readonly CatalogTool[], bytesOf: (tool: CatalogTool) => number): number {
  let bytes = 0;
  for (const tool of tools) bytes += bytesOf(tool);
  return bytes;
}
