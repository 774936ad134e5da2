import type { Catalog, CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig, ResolvedMode } from '../config/resolve.js';
import { modeGroupName, NameTable, wireName } from '../groups/names.js';
import type { Group } from '../groups/wire.js';
import { chunks, MAX_LEAF, type GroupEntry, type GroupView } from './group-view.js';
import { boundaryAllowsMode, modeShows, usedInMode, type PolicySubject } from './policy.js';
import { clipText } from '../util/bounds.js';

/**
 * Modes as navigation groups of the draft extension `io.modelcontextprotocol/groups`: each mode
 * the caller may switch to is a group whose `contents.groups` are the tool groups (group-view.ts)
 * holding the mode's tools this view scopes, so one `groups/get` of a mode shows a host the way to
 * its tools, and a nested load of it gives them. The draft's nesting is navigation only, and a
 * group is top-level or nested, never both: a tool group a mode lists leaves `groups/list`, which
 * holds the modes (then the groups of tools no offered mode holds). With the preset `all` that is
 * every group: `groups/list` is the modes, and `mode-all` leads to every group.
 *
 * - Which modes: a fixed mode offers only itself; otherwise every mode the boundary allows (a
 *   token's modes), as focus_mode would switch to them, in config order.
 * - Names: `mode-` and the mode's wire name (`security_review` -> `mode-security-review`); tool
 *   groups never start with `mode-` (groups/names toolGroupName), so the two cannot collide;
 *   modes are named in config order over every mode, so a name does not change with the view.
 * - Contents: the fewest tool groups that hold the mode's own tools this view scopes (its groups,
 *   pins, `alwaysVisible` and tools used in it lately; see memberIds): a parent when each of its
 *   children holds one, else those children (a group holds other tools too: groups are shared
 *   navigation, one home per tool). A mode listing more than MAX_LEAF groups, or more than the
 *   byte bound, lists parts (`mode-all-1`, ...) of at most that many: one `groups/get` stays small.
 * - A mode none of whose tools this view scopes (all in `tools/list`, or none callable) has no
 *   group: there is nothing to navigate to (the draft: no empty answers). The mode the caller is
 *   in usually has none (hybrid lists its tools), unless its budget holds some back.
 * - Its description says what the mode is for and where its tools are, in one bounded line.
 */

/** What the modes offered depend on: the caller's fixed mode and boundary (focus/scope.ts). */
export type ModeOffer = Pick<PolicySubject, 'fixedMode' | 'boundary'>;

/** The modes a caller may switch to, in config order: its fixed mode only, else the boundary's. */
export function offeredModes(config: Pick<ResolvedConfig, 'modes'>, offer: ModeOffer): ResolvedMode[] {
  return Object.values(config.modes).filter((mode) => (offer.fixedMode !== undefined ? mode.name === offer.fixedMode : boundaryAllowsMode(offer.boundary, mode.name)));
}

/** What the mode groups of one view are built from. */
interface ModeGroupsInput {
  catalog: Catalog;
  config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible' | 'usageWeights' | 'hiddenTools'>;
  /** The modes to offer (offeredModes). */
  modes: readonly ResolvedMode[];
  /** The tools the view lists at top level (`tools/list`), own tools aside. */
  top: readonly CatalogTool[];
  /** Bytes one mode's (or part's) list of groups may take; past it, parts. Default: unbounded. */
  maxBytes?: number;
}

/** Characters of a mode's rc description a group description carries (a model reads it). */
const DESCRIPTION_MAX = 200;

/** Characters of a mode's name a description or instruction carries. */
const NAME_MAX = 64;

/** The view with its modes added as navigation groups (see the module comment). Pure. */
export function withModeGroups(view: GroupView, input: ModeGroupsInput, maxChildren = MAX_LEAF): GroupView {
  const { catalog, config } = input;
  const maxBytes = input.maxBytes ?? Infinity;
  const topIds = new Set(input.top.map((tool) => tool.id));
  const names = new NameTable(wireName);
  const wire = new Map(Object.keys(config.modes).map((mode) => [mode, names.claim(modeGroupName(mode))]));
  const groups = new Map<string, GroupEntry>(view.groups);
  const modeTop: Group[] = [];
  const listed = new Set<string>();
  for (const mode of input.modes) {
    const members = memberIds(catalog, config, mode);
    const needed = new Set<string>();
    let scoped = 0;
    let shown = 0;
    for (const id of members) {
      const home = view.home.get(id);
      if (home !== undefined) {
        needed.add(home);
        scoped++;
      } else if (topIds.has(id)) shown++;
    }
    // Nothing of the mode to disclose here (its tools are all in tools/list, or none may be called): no group.
    if (scoped === 0) continue;
    const cover = view.top.flatMap((root) => coverOf(view, root, needed).groups);
    const name = wire.get(mode.name) as string;
    const group = { name, description: modeDescription(mode, scoped, cover.length, shown) };
    modeTop.push(group);
    for (const child of cover) listed.add(child.name);
    const parts = chunks(cover, maxChildren, groupBytes, maxBytes);
    if (parts.length === 1) {
      groups.set(name, { group, tools: [], children: cover });
      continue;
    }
    const children = parts.map((part, i) => {
      const child = { name: names.claim(`${name}-${i + 1}`), description: `Mode ${shortName(mode)}, part ${i + 1} of ${parts.length}: groups ${part[0]?.name} to ${part.at(-1)?.name}` };
      groups.set(child.name, { group: child, tools: [], children: part });
      return child;
    });
    groups.set(name, { group, tools: [], children });
  }
  return { top: [...modeTop, ...view.top.filter((group) => !listed.has(group.name))], groups, home: view.home };
}

/**
 * The fewest groups under `root` that hold every needed leaf: the group itself when all its
 * leaves are needed (`full`), else the covers of its children.
 */
function coverOf(view: GroupView, root: Group, needed: ReadonlySet<string>): { groups: Group[]; full: boolean } {
  const entry = view.groups.get(root.name);
  if (!entry || entry.children.length === 0) return needed.has(root.name) ? { groups: [root], full: true } : { groups: [], full: false };
  const covers = entry.children.map((child) => coverOf(view, child, needed));
  if (covers.every((cover) => cover.full)) return { groups: [root], full: true };
  return { groups: covers.flatMap((cover) => cover.groups), full: false };
}

/** "Mode security_review (read-only): … Its tools here: 12 in 3 groups, 5 in tools/list." (one line, bounded) */
function modeDescription(mode: ResolvedMode, scoped: number, groups: number, shown: number): string {
  const said = mode.description.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  const text = clipText(said, DESCRIPTION_MAX);
  const where = `${scoped} in ${groups === 1 ? '1 group' : `${groups} groups`}${shown > 0 ? `, ${shown} in tools/list` : ''}`;
  return `Mode ${shortName(mode)}${mode.readOnly ? ' (read-only)' : ''}${text === '' ? '' : `: ${text}`}. Its tools here: ${where}.`;
}

/** A mode's name as a model reads it in a description (an rc may name a mode at any length). */
function shortName(mode: ResolvedMode): string {
  return clipText(mode.name, NAME_MAX);
}

function groupBytes(group: Group): number {
  return Buffer.byteLength(JSON.stringify(group));
}

/** Member ids per mode, kept per catalog and config: a view of every mode walks the catalog once per mode, not once per view. */
const members = new WeakMap<Catalog, { config: object; byMode: Map<string, ReadonlySet<string>> }>();

/**
 * The ids of the mode's own tools: what it shows before any session change or fitting (its groups,
 * `pin`, `alwaysVisible`, under its read-only rule: policy modeShows) and the tools called in it
 * lately (usedInMode). Not the tools its `fill` ranks in from outside its groups: finding those
 * fits the mode to its budget (at 10,000 real-shaped tools about 30 ms a mode warm, over 100 ms
 * cold), which every catalog change would then cost each groups view (and each groups listen
 * stream) for every mode.
 */
function memberIds(catalog: Catalog, config: ModeGroupsInput['config'], mode: ResolvedMode): ReadonlySet<string> {
  let entry = members.get(catalog);
  if (entry?.config !== config) members.set(catalog, (entry = { config, byMode: new Map() }));
  let ids = entry.byMode.get(mode.name);
  if (ids === undefined) {
    ids = new Set(catalog.tools.filter((tool) => modeShows(config, mode, tool) || usedInMode(config, mode, tool)).map((tool) => tool.id));
    entry.byMode.set(mode.name, ids);
  }
  return ids;
}
