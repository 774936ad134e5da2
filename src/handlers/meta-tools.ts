import type { CallToolResult } from '@modelcontextprotocol/server';
import { findTool, sumTokens, type CatalogGroup, type CatalogTool } from '../catalog/catalog.js';
import { describeToolsArgs, executeToolArgs, listToolGroupsArgs, readArgs, searchToolsArgs } from '../catalog/own-args.js';
import { echoName, UnknownNameError } from '../util/errors.js';
import { clientHints } from '../util/closest.js';
import { DESCRIBE_TOOLS, EXECUTE_TOOL, LIST_TOOL_GROUPS, OWN_TOOL_NAMES, SEARCH_TOOLS } from '../catalog/own-tools.js';
import { boundaryAllowsMode, groupToolsWithin, mayEnable, modeAllows, modeNamed, modesWith, offerFilter, visibleToolNames, withinBoundary } from '../focus/policy.js';
import { modeFit } from '../focus/fit.js';
import { toolError } from '../protocol/errors.js';
import { rankBeyondList, rankWithHeldBack, type BeyondList } from '../search/held-back.js';
import { interleaved, searchSlots, type Passes } from '../search/passes.js';
import type { SearchOptions } from '../search/engine.js';
import type { SearchMemo } from '../search/memo.js';
import { correctionsNote, queryCorrections } from '../search/text.js';
import { correctionsWithin } from '../search/spelling.js';
import { own } from '../util/own.js';
import { clipText } from '../util/bounds.js';
import { jsonResult } from './results.js';
import { callCatalogTool, ruleOfMode } from './call.js';
import type { CallContext, Caller } from './caller.js';
import { argumentProblems } from './validate.js';
import { fitLines, fitting, jsonBytes, PAGE_MAX_BYTES } from './paging.js';
import { exampleArguments } from './examples.js';
import { GROUPS_INDEX } from './resources.js';

const META = new Set([SEARCH_TOOLS, DESCRIBE_TOOLS, EXECUTE_TOOL, LIST_TOOL_GROUPS]);

/** Unknown names of one describe_tools call that get "closest" hints (the rest get none): bounded work per call. */
const HINTED_NAMES = 10;

/** True for the discovery tools this module runs (search_tools, describe_tools, execute_tool, list_tool_groups); focus_mode is not one. */
export function isMetaTool(name: string): boolean {
  return META.has(name);
}

/** Runs one of the discovery meta-tools; bad arguments are `isError` results naming the field (catalog/own-args). */
export async function handleMetaTool(session: Caller, name: string, raw: unknown, call: CallContext): Promise<CallToolResult> {
  switch (name) {
    case SEARCH_TOOLS:
      return searchTools(session, raw, call);
    case DESCRIBE_TOOLS:
      return describeTools(session, raw);
    case EXECUTE_TOOL:
      return executeTool(session, raw, call);
    default:
      return listToolGroups(session, raw);
  }
}

/**
 * search_tools. Its searches run interleaved (search/passes.ts): other requests are served between
 * their passes, and a cancelled request stops it there. They share one memo: each pass once.
 */
async function searchTools(session: Caller, raw: unknown, call: CallContext): Promise<CallToolResult> {
  const signal = call.signal;
  const read = readArgs(searchToolsArgs, SEARCH_TOOLS, raw);
  if ('problem' in read) return toolError(read.problem);
  const { limit = 5, group, detail = 'summary', enable } = read.args;
  const queries = [read.args.query, ...(read.args.queries ?? [])].filter((q): q is string => q !== undefined && q.trim() !== '');
  const hub = session.hub;
  if (group !== undefined && !visibleGroup(session, group)) return toolError(new UnknownNameError('group', group, visibleGroupNames(session)).message);
  // The answer echoes the queries bounded: a pasted task may be kilobytes long (cut at a whole character).
  const query = clipText(queries.join('; '), QUERY_ECHO);
  // One of the process's search slots while the memo lives (passes.ts MAX_SEARCHES: its memory).
  // A 2026-07-28 request has no session: one bearer token's requests share a holder's share. Turns
  // go by bearer token (its sessions and requests are one party), else by session.
  const token = session.route.tokenLabel === undefined ? undefined : `token ${session.route.tokenLabel}`;
  const holder = session.stateless && token !== undefined ? token : session;
  // Meaning from an embeddings endpoint, when one is set up (words alone if it is slow or down),
  // asked before the search slot: a stalled endpoint must not hold the slots other clients'
  // searches need. Its requests take turns of their own (embedding-search.ts), by the same holders.
  const dense = await hub.embeddings?.lookup(queries, holder, token ?? holder);
  const release = await searchSlots.acquire(holder, signal, token ?? holder);
  let found: BeyondList;
  let none: string | undefined;
  try {
    // Read after the waits: a reload or another call's focus_mode may have changed mode and rules.
    // Search never offers what the mode's rules forbid (in a read-only mode: read-only tools only),
    // nor what lies outside a token's modes.
    const config = hub.config;
    const filter = offerFilter(config, modeNamed(config, session.mode), session.boundary);
    // The mode's tools the model cannot see rank first: held back (left out of its list to fit the
    // budget), and under proxy, whose list carries only lazytools' own tools, the shown ones too.
    const fitted = modeFit(hub.catalog, config, session.mode);
    const unlisted = session.strategy === 'proxy' ? fitted?.shownIds : undefined;
    const listed = session.listedTools();
    const heldBack = fitted ? notListed(fitted.heldBackIds, listed) : new Set<string>();
    // The places go to tools the model lacks; those it has that match are named apart (held-back.ts).
    // Detail "schema" asks for definitions, which a compact list carries cut: listed tools count there.
    const beyond = new Set(detail === 'schema' ? [] : listed.map((tool) => tool.id));
    const memo: SearchMemo = new Map();
    found = await interleaved(rankBeyondList(hub.search, queries, { limit, group, filter, dense }, heldBack, unlisted ?? new Set(), beyond, memo), signal);
    if (found.hits.length === 0) none = await interleaved(noMatch(session, queries, query, found.inList.length > 0, { limit, group, dense }, memo), signal);
  } finally {
    release();
  }
  const { hits, inList } = found;
  const canEnable = mayEnable(hub.config, session, session.strategy);
  const enabling = canEnable && (enable ?? session.strategy === 'notify');
  // Past the awaits above, so the request is named again: its list_changed rides this call's stream.
  if (enabling && hits.length > 0) session.whileHandling(call.requestId, () => session.focusEvent({ type: 'DISCOVER', tools: hits.map((hit) => hit.tool.id) }));
  session.noteSearched(hits.map((hit) => hit.tool));
  // Text and structuredContent both carry the hits: half the page bound each.
  const { kept: tools, omitted } = fitting(hits.map(({ tool }) => describeHit(tool, detail, session)), PAGE_MAX_BYTES / 2);
  const how = enabling ? 'added to your tool list' : notAddedNote(session, canEnable);
  // A corrected word is said: "county" read as "country" is the corrector's kind of slip.
  const corrections = queryCorrections(queries, (word) => hub.search.correction(word));
  // Only words the caller's own tools (or the vocabulary) say: outside a token's modes no tool exists for it.
  const boundary = session.boundary?.token ? session.boundary : undefined;
  const corrected = correctionsNote(boundary ? correctionsWithin(corrections, hub.search.tools, hub.config, JSON.stringify([boundary.label, boundary.modes]), (tool) => withinBoundary(hub.config, boundary, tool)) : corrections);
  const cut = omitted > 0 ? `; ${omitted} more left out to keep this answer under 1 MiB: lower "limit" or use detail "summary"` : '';
  const have = inList.map((hit) => clipText(hit.tool.exposedName, 64));
  const also = have.length > 0 ? `; in your list already: ${have.join(', ')}` : '';
  const text =
    hits.length > 0 ? `${JSON.stringify(tools)}\n(${how}${also}${cut}${corrected && `; ${corrected}`})`
    : `${have.length > 0 ? `Only tools already in your list match "${query}": ${have.join(', ')}.${none ? ` ${none}` : ''}` : (none ?? '')}${corrected && ` (Search ${corrected}.)`}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { tools, enabled: enabling, ...(have.length > 0 ? { inList: have } : {}) },
  };
}

/**
 * The held-back tools the caller's list does not carry: one search added (or an enabled group
 * brought) is in the list now, and the lift is for what the model cannot see (held-back.ts).
 * The same set when none is listed (the usual case: no copy of a 10,000-tool mode's ids).
 */
function notListed(heldBack: ReadonlySet<string>, listed: readonly CatalogTool[]): ReadonlySet<string> {
  const shown = listed.filter((tool) => heldBack.has(tool.id));
  if (shown.length === 0) return heldBack;
  const out = new Set(heldBack);
  for (const tool of shown) out.delete(tool.id);
  return out;
}

/** Characters of the queries a search_tools answer echoes. */
const QUERY_ECHO = 200;

/** Writers named when a read-only mode's search finds only them, and modes named with them: bounded. */
const WRITERS_NAMED = 3;

/**
 * What to say when search offers nothing beyond the caller's list. In a read-only mode the tools
 * that match best may be writers, which the mode never offers: "No tools match" (or naming only
 * the listed readers a word of the query matched) would tell the model the tool does not exist,
 * so name them (within the caller's token) and where they run. `listed`: tools of the caller's
 * list matched, and are named by the caller; then only writers that rank above every tool the
 * mode offers are named, and nothing else is said (undefined) when there are none.
 */
function* noMatch(session: Caller, queries: readonly string[], query: string, listed: boolean, options: { limit: number; group?: string; dense?: SearchOptions['dense'] }, memo: SearchMemo): Passes<string | undefined> {
  const config = session.hub.config;
  const nothing = listed ? undefined : `No tools match "${query}".`;
  const mode = modeNamed(config, session.mode);
  if (!mode?.readOnly) return nothing;
  const ranked = yield* rankWithHeldBack(session.hub.search, queries, { ...options, filter: offerFilter(config, undefined, session.boundary) }, new Set<string>(), new Set<string>(), memo);
  const offered = ranked.findIndex((hit) => modeAllows(mode, hit.tool));
  const writers = ranked.slice(0, offered < 0 ? ranked.length : offered).map((hit) => hit.tool);
  if (writers.length === 0) return nothing;
  const names = writers.slice(0, WRITERS_NAMED).map((tool) => clipText(tool.exposedName, 64)).join(', ');
  const more = writers.length > WRITERS_NAMED ? ', …' : '';
  const lines = [
    listed
      ? `Mode "${mode.name}" is read-only, and tools that may write match better (${names}${more}).`
      : `No tool mode "${mode.name}" offers matches "${query}": the mode is read-only, and the tools that match may write (${names}${more}).`,
  ];
  const modes = [...new Set(writers.flatMap((tool) => modesWith(config, tool)))].filter((name) => name !== 'all' && boundaryAllowsMode(session.boundary, name));
  const some = modes.length > WRITERS_NAMED ? `${modes.slice(0, WRITERS_NAMED).join(', ')}, …` : modes.join(', ');
  if (session.fixedMode !== undefined) lines.push(`This endpoint serves only mode "${session.fixedMode}".`);
  else if (modes.length > 0) lines.push(session.stateless ? `Ask focus_mode how to reach a mode that includes them (${some}).` : `Switch with focus_mode to a mode that includes them (${some}).`);
  return lines.join(' ');
}

/**
 * Why hits were not added, and how to reach them with the tools this session has (notify has no
 * execute_tool; a fixed mode or reject policy has no way round).
 */
function notAddedNote(session: Caller, canEnable: boolean): string {
  if (session.stateless && session.ownDefinitions().some((tool) => tool.name === EXECUTE_TOOL))
    return session.boundary?.token ? `call with execute_tool (this token runs only tools of mode "${session.mode}")` : 'call with execute_tool';
  // A fixed endpoint's list never changes; whether a tool outside its mode runs is the policy's
  // (hiddenTools), so say what is true here rather than "cannot be called".
  if (session.fixedMode !== undefined && session.hub.config.hiddenTools === 'reject')
    return `this endpoint serves only mode "${session.fixedMode}": tools outside it cannot be added or called here`;
  if (session.fixedMode !== undefined)
    return `not added: this endpoint's list (mode "${session.fixedMode}") does not change; ${session.ownDefinitions().some((tool) => tool.name === EXECUTE_TOOL) ? 'call one with execute_tool' : 'call one by its name'}`;
  if (session.hub.config.hiddenTools === 'reject') return 'not added: this gateway rejects tools outside the mode; switch with focus_mode to a mode that includes them';
  if (session.ownDefinitions().some((tool) => tool.name === EXECUTE_TOOL)) return 'call with execute_tool';
  if (canEnable) return 'not added to your list: call one by its name, or search again with "enable": true to add them';
  return 'call one by its name';
}

/**
 * The answer to a meta-tool this session's strategy does not list: what to use instead here,
 * and which strategy lists it.
 */
export function unlistedMetaTool(session: Caller, name: string): CallToolResult {
  const instead: Record<string, string> = {
    [DESCRIBE_TOOLS]: 'search_tools with "detail": "schema" returns full descriptions and input schemas',
    [LIST_TOOL_GROUPS]: `read the resource ${GROUPS_INDEX} for the group index (focus_mode {"status": true} shows the active groups)`,
    [EXECUTE_TOOL]: 'call tools by their name; search_tools adds the tools it finds to your list',
  };
  const lists = name === EXECUTE_TOOL ? 'hybrid and proxy list it' : 'the proxy strategy lists it';
  return toolError(
    `"${name}" is not offered under the ${session.strategy} strategy (${lists}; serve --strategy proxy, or ?strategy=proxy on the HTTP initialize request). Here, ${instead[name] ?? 'use search_tools'}.`,
  );
}

function describeHit(tool: CatalogTool, detail: 'name' | 'summary' | 'schema', session: Caller): Record<string, unknown> {
  if (detail === 'name') return { name: tool.exposedName };
  const base = { name: tool.exposedName, server: tool.server, summary: tool.summary, inMode: session.inMode(tool) };
  // The upstream's full description and schema: under compact definitions the list carries a cut.
  return detail === 'schema' ? { ...base, description: tool.definition.description, inputSchema: tool.definition.inputSchema } : base;
}

/**
 * describe_tools: each name's definition, group peers and examples, described one by one until
 * three quarters of the answer bound (PAGE_MAX_BYTES) are used, so the work and the answer stay
 * bounded however many names come (60,000 unknown names answered 4.46 MB); the names left out
 * follow in `notDescribed`, as many as the last quarter holds, and the note counts the rest.
 */
function describeTools(session: Caller, raw: unknown): CallToolResult {
  const read = readArgs(describeToolsArgs, DESCRIBE_TOOLS, raw);
  if ('problem' in read) return toolError(read.problem);
  const { names } = read.args;
  const catalog = session.hub.catalog;
  const config = session.hub.config;
  let hinted = 0;
  const describe = (name: string) => {
    const found = findTool(catalog, name);
    // Outside a token's modes a tool is unknown: neither its schema nor its name is told.
    const tool = found && withinBoundary(config, session.boundary, found) ? found : undefined;
    // Closest names for the first few unknown names only: each is a walk over every visible name.
    if (!tool) return { name: echoName(name), error: 'unknown tool', closest: hinted++ < HINTED_NAMES ? clientHints.closest(name, () => visibleToolNames(catalog, config, session.boundary)) : [] };
    const related = relatedNames(session, tool);
    const examples = own(config.tools, tool.id)?.examples ?? [exampleArguments(tool.definition.inputSchema)];
    return { ...tool.definition, server: tool.server, groups: tool.groups, inMode: session.inMode(tool), examples, related };
  };
  const tools: object[] = [];
  let bytes = 0;
  for (const name of names) {
    const entry = describe(name);
    const size = jsonBytes(entry) + 1;
    if (tools.length > 0 && bytes + size > (PAGE_MAX_BYTES * 3) / 4) break;
    tools.push(entry);
    bytes += size;
  }
  if (tools.length === names.length) return jsonResult({ tools });
  const left = names.slice(tools.length);
  const { kept: notDescribed, omitted } = fittingNames(left.map(echoName), PAGE_MAX_BYTES / 4 - 512);
  const after = omitted > 0 ? ` (and the ${omitted} names after them: this answer holds at most ${notDescribed.length})` : '';
  return jsonResult({ tools, notDescribed, note: `${left.length} tools left out to keep this answer under 1 MiB: call describe_tools again with "notDescribed"${after}.` });
}

/** Peers of a tool describe_tools names. */
const RELATED_NAMES = 8;

/**
 * The first RELATED_NAMES tools sharing a (non-catch-all) group with `tool` that the caller may
 * see, in group order. Reads only until it has them: a group may hold thousands of tools, and a
 * describe_tools call names many tools (one name 20,000 times took 2 to 4 s of the event loop).
 */
function relatedNames(session: Caller, tool: CatalogTool): string[] {
  const { catalog, config } = session.hub;
  const related = new Set<string>();
  for (const name of tool.groups) {
    const group = catalog.groups.get(name);
    if (!group || group.catchAll) continue;
    for (const peer of group.tools) {
      if (peer === tool || related.has(peer.exposedName) || !withinBoundary(config, session.boundary, peer)) continue;
      related.add(peer.exposedName);
      if (related.size === RELATED_NAMES) return [...related];
    }
  }
  return [...related];
}

/** The longest prefix of `names` whose JSON fits in `maxBytes`, and how many were left out. */
function fittingNames(names: readonly string[], maxBytes: number): { kept: string[]; omitted: number } {
  let bytes = 0;
  let end = 0;
  for (; end < names.length; end++) {
    bytes += Buffer.byteLength(JSON.stringify(names[end])) + 1;
    if (bytes > maxBytes) break;
  }
  return { kept: names.slice(0, end), omitted: names.length - end };
}

async function executeTool(session: Caller, raw: unknown, call: CallContext): Promise<CallToolResult> {
  const read = readArgs(executeToolArgs, EXECUTE_TOOL, raw);
  if ('problem' in read) return toolError(read.problem);
  const { name, arguments: toolArgs = {}, mode } = read.args;
  if (OWN_TOOL_NAMES.has(name)) return toolError(`execute_tool: call "${name}" directly.`);
  const rule = mode === undefined || mode === session.mode ? undefined : ruleOfMode(session, mode);
  if (rule && 'refused' in rule) return toolError(`execute_tool: ${rule.refused}`);
  const tool = findTool(session.hub.catalog, name);
  // Validation would describe the schema: not for a tool outside a token's modes (refused below).
  if (tool && withinBoundary(session.hub.config, session.boundary, tool)) {
    const problems = await argumentProblems(tool.definition, toolArgs);
    if (problems.length > 0) return toolError(`Invalid arguments for "${tool.exposedName}":\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  return callCatalogTool(session, name, toolArgs, call, 'execute_tool', rule);
}

function listToolGroups(session: Caller, raw: unknown): CallToolResult {
  const read = readArgs(listToolGroupsArgs, LIST_TOOL_GROUPS, raw);
  if ('problem' in read) return toolError(read.problem);
  const { group } = read.args;
  if (group !== undefined) {
    const found = visibleGroup(session, group);
    if (!found) return toolError(new UnknownNameError('group', group, visibleGroupNames(session)).message);
    const lines = groupToolsWithin(session.hub.config, session.boundary, found).map((t) => `${t.exposedName}: ${t.summary}`);
    const more = (omitted: number) => `… and ${omitted} more tools (answer bound 1 MiB): find one with search_tools {"group": "${found.name}", "query": …}.`;
    return { content: [{ type: 'text', text: `${found.name}: ${found.description}\n${fitLines(lines, more)}` }] };
  }
  return { content: [{ type: 'text', text: groupIndex(session) }] };
}

/** One line per non-empty group: name, tool count, tokens, description (the catch-all `all` left out). */
function groupIndex(session: Caller): string {
  const catalog = session.hub.catalog;
  const active = new Set(modeNamed(session.hub.config, session.mode)?.groups ?? []);
  const lines = [...catalog.groups.values()]
    .filter((group) => !group.catchAll)
    .map((group) => ({ group, tools: groupToolsWithin(session.hub.config, session.boundary, group) }))
    .filter(({ tools }) => tools.length > 0)
    .map(({ group, tools }) => `${group.name}${active.has(group.name) ? '*' : ''} (${tools.length}, ${sumTokens(tools)}t): ${group.description}`);
  // No "held back" line: only the proxy strategy lists this tool, and under proxy no mode tool is
  // listed, so nothing is held back (every tool is one execute_tool away).
  return `groups (* in mode; tools, tokens):\n${fitLines(lines, (omitted) => `… and ${omitted} more groups (answer bound 1 MiB).`)}`;
}

/** The group of that name when the caller may see some of its tools (every group unless a token bounds it). */
export function visibleGroup(session: Caller, name: string): CatalogGroup | undefined {
  const group = session.hub.catalog.groups.get(name);
  if (!group || !session.boundary?.token) return group;
  return groupToolsWithin(session.hub.config, session.boundary, group).length > 0 ? group : undefined;
}

/** The names of the groups the caller may see (visibleGroup), for "did you mean" hints. */
export function visibleGroupNames(session: Caller): string[] {
  return [...session.hub.catalog.groups.keys()].filter((name) => visibleGroup(session, name) !== undefined);
}
