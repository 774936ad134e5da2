import type { ResolvedConfig } from '../config/resolve.js';
import type { GroupConfig } from '../config/schema.js';
import { compactDefinition } from './compact.js';
import { compareStrings as compare } from '../util/compare.js';
import { compiledGroups, confirmsPlacements, groupPlacement, toolGlobs, type CompiledGroup, type GroupCandidate } from './groups.js';
import { closestGroups } from './closest-groups.js';
import { OWN_TOOL_NAMES } from './own-tools.js';
import { OWN, plannedNames } from './names.js';
import { flatString } from '../util/flat.js';
import { placedTopics } from './placement.js';
import { serverProfiles, type ServerProfileMatch } from './profiles.js';
import { confirmedGroupPlacements, groupsDigest, hasCachedGroupPlacements, placementOf } from './placement-cache.js';
import { groupText, summarize, toolTitle } from './text.js';
import { own } from '../util/own.js';
import { didYouMean } from '../util/closest.js';
import { firstLines, listSome } from '../util/plural.js';
import { quotedName, shownEntry, shownName } from '../config/secrets.js';
import { echoName } from '../util/errors.js';
import type { BuiltCatalog, Catalog, CatalogGroup, CatalogTool, GroupPlacement, ServerTools, ToolDefinition } from './types.js';
import { definitionTokens, verbatimTokens } from './totals.js';

export { sumTokens } from './totals.js';

export type { BuiltCatalog, Catalog, CatalogGroup, CatalogTool, GroupPlacement, ServerProfile, ServerTools, ToolDefinition } from './types.js';

/**
 * Builds the catalog from server tool lists: ids, exposed names (prefixed only on collisions,
 * or always with `prefix: "always"`), summaries, groups and lazy token counts. Tools are ordered
 * by server, then name, so every list lazytools serves is deterministic. A definition object is
 * read as never changing (its placement, group text, compact form and token count are kept per
 * object: placement-cache.ts, totals.ts), as is `config`: a changed tool comes as a new object.
 *
 * @example
 * const { catalog, warnings } = buildCatalog([{ server: 'memory', tools }], resolveConfig({}));
 */
export function buildCatalog(sources: readonly ServerTools[], config: ResolvedConfig): BuiltCatalog {
  let compiled: CompiledGroup[] | undefined;
  let digest: string | undefined;
  const groupsOf: Groups = {
    compiled: () => (compiled ??= compiledGroups(config.groups)),
    digest: () => (digest ??= groupsDigest(config)),
  };
  const sorted = [...sources].sort((a, b) => compare(a.server, b.server));
  const profiles = serverProfiles(sorted);
  const warnings: string[] = [];
  const repeated: string[] = [];
  const { planned, ids } = plannedNames(sorted, config, repeated);
  const taken = new Map<string, string>();
  const tools: CatalogTool[] = [];
  for (const { server, tool, exposedName, readsLike } of planned) {
    // A prefixed name can be one of lazytools' own (server "focus", tool "mode"), or drawn like one:
    // listed twice, and a 2025 session's calls of the own tool went to the upstream's.
    if (readsLike === OWN || OWN_TOOL_NAMES.has(exposedName)) {
      repeated.push(`tool "${shownEntry(server, tool.name)}" left out: its exposed name "${echoName(exposedName)}" ${OWN_TOOL_NAMES.has(exposedName) ? 'is' : 'reads like'} one of lazytools' own tools; rename server "${shownName(server)}" in the rc to list it`);
      continue;
    }
    if (readsLike !== undefined) {
      repeated.push(`tool "${shownEntry(server, tool.name)}" left out: its exposed name "${echoName(exposedName)}" reads like server "${shownName(readsLike.server)}"'s tool "${shownEntry(readsLike.server, readsLike.tool.name)}"; rename server "${shownName(server)}" in the rc to list it`);
      continue;
    }
    const holder = taken.get(exposedName);
    if (holder !== undefined || ids.has(exposedName)) {
      repeated.push(`tool "${shownEntry(server, tool.name)}" left out: its exposed name "${echoName(exposedName)}" is ${holder === undefined ? `the id of tool "${echoName(exposedName)}"` : `already tool "${holder}"'s name`}`);
      continue;
    }
    taken.set(exposedName, shownEntry(server, tool.name));
    tools.push(makeTool(server, tool, exposedName, groupsOf, config, profiles.get(server)));
  }
  // One line per repeat, bounded: a hand-edited lock may repeat one tool 100,000 times.
  const leftOut = firstLines(repeated, MAX_HINTED, 'tools listed twice or named like another tool');

  const groups = new Map<string, CatalogGroup>();
  const rcGroups = new Set(config.rcGroups);
  for (const [name, group] of Object.entries(config.groups)) groups.set(name, { name, description: group.description ?? name, tools: [], catchAll: isCatchAll(group), fromRc: rcGroups.has(name) });
  for (const tool of tools) for (const name of tool.groups) groups.get(name)?.tools.push(tool);

  const orphans = tools.filter((tool) => tool.groups.every((name) => groups.get(name)?.catchAll));
  if (orphans.length > 0) {
    const closest = closestGroups(Object.entries(config.groups).map(([name, group]) => ({ name, config: group })));
    const described = orphans.map((tool) => {
      const near = closest(tool);
      return near.length > 0 ? `${tool.id} (closest: ${near.join(', ')})` : tool.id;
    });
    warnings.push(`${orphans.length} tool(s) match no group, so no mode's groups show them (only "all" modes, and fill where a mode's work is close): ${listSome(described)}; search_tools finds them in every mode (\`lazytools groups --unplaced\` says why each is left out and which modes fill shows it in)`);
  }
  // Tools in groups that no mode uses (an rc group the user has not added to a mode yet) show
  // only in catch-all modes too: say so, with the groups to add.
  const inModes = new Set(Object.values(config.modes).flatMap((mode) => mode.groups));
  const orphaned = new Set(orphans);
  const idle = tools.filter((tool) => !orphaned.has(tool) && tool.groups.every((name) => groups.get(name)?.catchAll || !inModes.has(name)));
  if (idle.length > 0) {
    const unused = [...new Set(idle.flatMap((tool) => tool.groups.filter((name) => !groups.get(name)?.catchAll)))];
    warnings.push(`${idle.length} tool(s) are only in groups no mode uses (${listSome(unused)}) and show only in "all" modes: ${listSome(idle.map((tool) => tool.id), 5)}; add a group to a mode's "groups" to show its tools (\`lazytools groups --unplaced\` says why each is left out)`);
  }
  // A group of rc servers that list nothing here (disabled, or not in the lock: `check` names
  // those) is expected to be empty; one whose filters match nothing is worth a word.
  const listing = new Set(sorted.filter((source) => source.tools.length > 0).map((source) => source.server));
  const idleServers = (group: GroupConfig | undefined) => (group?.servers?.length ?? 0) > 0 && (group?.servers ?? []).every((name) => own(config.servers, name) !== undefined && !listing.has(name));
  const empty = [...groups.values()].filter((group) => group.tools.length === 0 && rcGroups.has(group.name) && tools.length > 0 && !idleServers(own(config.groups, group.name)));
  if (empty.length > 0) warnings.push(`group(s) matching no tool: ${listSome(empty.map((g) => g.name))}`);
  warnings.push(...unknownToolKeys(config, tools, listing), ...unmatchedPins(config, tools, listing));

  let totalTokens: number | undefined;
  const catalog: Catalog = {
    tools,
    byName: new Map(tools.map((tool) => [tool.exposedName, tool])),
    byId: new Map(tools.map((tool) => [tool.id, tool])),
    groups,
    servers: sorted.map((source) => source.server),
    get totalTokens() {
      totalTokens ??= verbatimTokens(tools, config.tokenizer);
      return totalTokens;
    },
    tokenizer: config.tokenizer,
  };
  return { catalog, warnings, leftOut };
}

/**
 * `alwaysVisible` and mode `pin` globs that match no tool: a typo (`get_projet`) would otherwise
 * show or pin nothing while `check` passes. A glob naming an rc server that listed nothing here
 * (not started yet, or missing from the lock) is not judged.
 */
function unmatchedPins(config: ResolvedConfig, tools: readonly CatalogTool[], listed: ReadonlySet<string>): string[] {
  if (tools.length === 0) return [];
  const ids = tools.map((tool) => tool.id);
  const lists: Array<[string, readonly string[], string, string | undefined]> = [
    ['alwaysVisible', config.alwaysVisible, 'shows', undefined],
    ...Object.entries(config.modes).map(([name, mode]): [string, readonly string[], string, string | undefined] => [`modes.${name}.pin`, mode.pin, 'pins', mode.readOnly ? name : undefined]),
  ];
  // A glob without wildcards (most, in a long list) is a lookup of its id, in any case, not a test of every tool (indexed on first use).
  let byId: Map<string, CatalogTool[]> | undefined;
  const withId = (glob: string): CatalogTool[] => {
    if (!byId) {
      byId = new Map();
      for (const tool of tools) byId.set(tool.id.toLowerCase(), [...(byId.get(tool.id.toLowerCase()) ?? []), tool]);
    }
    return byId.get(glob.toLowerCase()) ?? [];
  };
  const out: string[] = [];
  // A wildcard glob is tested against every tool: past PIN_CHECK_TESTS in all the rest are counted, not judged.
  let tests = 0;
  let unjudged = 0;
  for (const [key, globs, verb, readOnlyMode] of lists) {
    for (const glob of globs) {
      const server = glob.includes(':') ? glob.slice(0, glob.indexOf(':')) : undefined;
      if (server !== undefined && !listed.has(server) && Object.prototype.hasOwnProperty.call(config.servers, server)) continue;
      const wildcard = server === undefined || /[*?]/.test(glob);
      if (wildcard && (tests += tools.length) > PIN_CHECK_TESTS) {
        unjudged++;
        continue;
      }
      const matches = wildcard ? idMatcher([glob]) : undefined;
      const matched = matches ? tools.filter((tool) => matches(tool.id)) : withId(glob);
      // Hints only for the first few: each compares the glob with every tool id.
      if (matched.length === 0) out.push(`${key} ${quotedName(glob)} matches no tool, so it ${verb} nothing.${out.length < MAX_HINTED ? didYouMean(glob, ids) : ''}`);
      // A read-only mode shows only readers, pinned or not: a pin of writers alone would be silently void.
      else if (readOnlyMode !== undefined && matched.every((tool) => !tool.readOnly))
        out.push(`${key} ${quotedName(glob)} matches only tools that may write (${listSome(matched.map((tool) => tool.id), 3)}) and mode "${readOnlyMode}" is read-only, so it pins nothing: pin them in a mode that may write, or drop the mode's "readOnly".`);
    }
  }
  const lines = firstLines(out, MAX_HINTED, 'alwaysVisible or pin globs that show or pin nothing');
  if (unjudged > 0) lines.push(`${unjudged} alwaysVisible or pin glob(s) with wildcards not checked for matching no tool: past ${PIN_CHECK_TESTS.toLocaleString('en-US')} glob-by-tool tests`);
  return lines;
}

/**
 * Glob-by-tool tests the idle-glob warning spends (each wildcard glob costs one per tool): 220,000
 * `alwaysVisible` globs of a 3 MB rc over 117 tools took `check` 9 s, and every catalog build (each
 * upstream start in serve) as long again; over 10,000 tools, minutes. Honest lists stay far below.
 */
const PIN_CHECK_TESTS = 2_000_000;

/**
 * Unknown `tools.<id>` keys and idle globs warned about one line each (with their "did you mean"
 * hints); more are counted in one line. A hint compares a name with every tool id: 2,000 unknown
 * keys over 1,000 tools took 8 s of a catalog build (every upstream start rebuilds it) and 1.6 MB
 * of warnings.
 */
const MAX_HINTED = 20;

/**
 * A catalog tool by the name a client uses: its exposed name, else its `server:tool` id (which
 * stays valid when a collision prefixes the exposed name).
 */
export function findTool(catalog: Catalog, name: string): CatalogTool | undefined {
  return catalog.byName.get(name) ?? catalog.byId.get(name);
}

/**
 * `tools.<id>` keys that name no tool: a typo or a wrong server name would otherwise drop the
 * summary and examples silently. Servers that listed no tools (not started yet) are not judged.
 */
function unknownToolKeys(config: ResolvedConfig, tools: readonly CatalogTool[], listed: ReadonlySet<string>): string[] {
  const ids = new Set(tools.map((tool) => tool.id));
  const out: string[] = [];
  for (const id of Object.keys(config.tools)) {
    if (ids.has(id)) continue;
    const server = id.includes(':') ? id.slice(0, id.indexOf(':')) : undefined;
    if (server !== undefined && !listed.has(server) && Object.prototype.hasOwnProperty.call(config.servers, server)) continue;
    if (out.length >= MAX_HINTED) {
      out.push(id);
      continue;
    }
    const hint = didYouMean(id, ids);
    const form = server === undefined ? ' Keys are "server:tool" ids.' : '';
    out.push(`tools.${quotedName(id)} names no tool in the catalog, so its summary and examples are unused.${form}${hint}${hint ? '' : ` Servers: ${listSome([...listed]) || '(none)'}.`}`);
  }
  return firstLines(out, MAX_HINTED, '"tools" keys that name no tool in the catalog');
}

/**
 * Compiles `alwaysVisible` and similar id globs into a predicate, indexed (util/glob globList): 50,000
 * `alwaysVisible` ids were 50,000 tests per tool at each fit or list (`check` on 3,000 tools: 193 s).
 */
export function idMatcher(globs: readonly string[]): (id: string) => boolean {
  if (globs.length === 0) return () => false;
  const list = toolGlobs(globs);
  return (id) => list.first(id) >= 0;
}

/** The catalog's groups, compiled on first use: with a lock's cached placements no tool needs them. */
interface Groups {
  compiled(): CompiledGroup[];
  /** Digest of the groups (see placement-cache.ts), computed on first use. */
  digest(): string;
}

function makeTool(server: string, tool: ToolDefinition, exposedName: string, groups: Groups, config: ResolvedConfig, profile: ServerProfileMatch | undefined): CatalogTool {
  const id = `${server}:${tool.name}`;
  const title = toolTitle(tool);
  // A copy of its own: a summary cut from a description kept the whole tidied description alive (1.5 MB at 10,000 tools).
  const summary = own(config.tools, id)?.summary ?? flatString(summarize(tool.description, title ?? tool.name));
  const input = { server, name: tool.name, title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema };
  const { write, topics } = placementOf(tool, input);
  const readOnly = write.readOnly;
  const definition = exposedName === tool.name ? tool : renamed(tool, exposedName);
  // What group filters see, made only when a group is tested (a stamped lock's placements need none).
  let candidate: GroupCandidate | undefined;
  const candidateOf = (): GroupCandidate =>
    (candidate ??= { id, server, name: tool.name, profile, readOnly, text: groupText(tool, summary), topics: new Map(placedTopics(topics).map((score) => [score.topic, score])) });
  let placements = hasCachedGroupPlacements(tool) ? confirmedGroupPlacements(tool, server, groups.digest(), summary, (cached) => confirmsPlacements(cached, groups.compiled(), candidateOf())) : undefined;
  if (!placements) {
    const matched: GroupPlacement[] = [];
    for (const group of groups.compiled()) {
      const match = group.explain(candidateOf());
      if (match) matched.push(groupPlacement(group, match));
    }
    // Copied to its length: kept per tool, an array grown by push holds room for 17.
    placements = matched.slice();
  }
  return new CatalogEntry(id, server, tool.name, exposedName, definition, summary, readOnly, write, placements, topics, config);
}

/**
 * A catalog tool. One class, so every tool shares one shape and the lazy `listed` and `tokens`
 * getters live on the prototype: an object literal with its own getters went to dictionary mode
 * and kept its builder's scope (the group candidate with its words and topic map) alive through
 * the getters' closures, about 15 MB at 10,000 tools.
 */
class CatalogEntry implements CatalogTool {
  readonly groups: readonly string[];
  #listed: ToolDefinition | undefined;
  #tokens: number | undefined;
  readonly #config: Pick<ResolvedConfig, 'definitions' | 'tokenizer'>;

  constructor(
    readonly id: string,
    readonly server: string,
    readonly name: string,
    readonly exposedName: string,
    readonly definition: ToolDefinition,
    readonly summary: string,
    readonly readOnly: boolean,
    readonly write: CatalogTool['write'],
    readonly placements: CatalogTool['placements'],
    readonly topics: CatalogTool['topics'],
    config: Pick<ResolvedConfig, 'definitions' | 'tokenizer'>,
  ) {
    this.groups = placements.map((placement) => placement.group);
    this.#config = config;
  }

  get listed(): ToolDefinition {
    return (this.#listed ??= this.#config.definitions === 'compact' ? compacted(this.definition) : this.definition);
  }

  get tokens(): number {
    return (this.#tokens ??= definitionTokens(this.listed, this.#config.tokenizer));
  }
}

const compactCache = new WeakMap<ToolDefinition, ToolDefinition>();

/** The compact definition, the same object on every rebuild (see sameToolList in handlers/list-changes.ts) and computed once per definition object. */
function compacted(definition: ToolDefinition): ToolDefinition {
  let out = compactCache.get(definition);
  if (!out) compactCache.set(definition, (out = compactDefinition(definition)));
  return out;
}

const renamedCache = new WeakMap<ToolDefinition, Map<string, ToolDefinition>>();

/** The definition under its exposed name, the same object on every rebuild (see sameToolList in handlers/list-changes.ts). */
function renamed(tool: ToolDefinition, exposedName: string): ToolDefinition {
  let byName = renamedCache.get(tool);
  if (!byName) renamedCache.set(tool, (byName = new Map()));
  let definition = byName.get(exposedName);
  if (!definition) byName.set(exposedName, (definition = { ...tool, name: exposedName }));
  return definition;
}

function isCatchAll(group: GroupConfig): boolean {
  const { servers, tools, keywords, topics } = group;
  return servers === undefined && tools === undefined && keywords === undefined && topics === undefined;
}
