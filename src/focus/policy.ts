import { idMatcher, type Catalog, type CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig, ResolvedMode } from '../config/resolve.js';
import { echoName, UnknownNameError } from '../util/errors.js';
import { listSome } from '../util/plural.js';
import { own } from '../util/own.js';
import { setOf } from '../util/lookup.js';

/**
 * The mode rules in one place. Every path that shows, enables or runs a tool asks here: the
 * list (visibleTools), direct calls and execute_tool (callRefusal), search_tools' enable
 * (mayEnable), focus_mode (switchRefusal), the modes served (servedRefusal, unknownServedMode),
 * fixed endpoints after reloads (fixedModeGone).
 *
 * - read-only: a read-only mode shows and runs only tools annotated `readOnlyHint: true`;
 * - fixed mode: a session pinned to one mode (`serve --mode`, `/mcp/<mode>`) never leaves it,
 *   and nothing it does adds tools outside that mode;
 * - hiddenTools "reject": tools outside the session's visible set are not run, and search may
 *   show them but not add them; a mode switch (where allowed) is the way to reach them.
 * - stateless (2026-07-28) requests: the mode comes from the request (endpoint, bearer token,
 *   server variant, else the default; focus/scope.ts), the list never varies with what the client
 *   did, so search adds nothing and focus_mode answers with the mode's tools;
 * - a bearer token's modes are a boundary: no endpoint or variant widens them, and tools outside
 *   the mode are refused whatever hiddenTools says.
 */

/** What the rules need to know about a session. */
export interface PolicySubject {
  /** The session's current mode. */
  mode: string;
  /** Set when the session is pinned to one mode. */
  fixedMode: string | undefined;
  /** True when the tool is in the session's visible set (mode groups, overrides, discovered). */
  inMode(tool: CatalogTool): boolean;
  /** True for a 2026-07-28 request: its list may not vary with anything the client did. */
  readonly stateless?: boolean | undefined;
  /** Who the caller is allowed to be (scope.ts boundaryOf): a bearer token's modes bound everything it does. */
  readonly boundary?: Boundary | undefined;
}

/**
 * The one boundary of a request (2026-07-28) or a session (2025), computed once from what the
 * transport knows: the fixed mode (`/mcp/<mode>`, `serve --mode`) and the bearer token's modes.
 * Every path asks it: lists, calls by any name, execute_tool, search, describe, groups, focus_mode,
 * prompts, resources and completion. A token's boundary hides what lies outside its modes (tools,
 * their schemas, other modes' names, the servers no mode of it reaches); a fixed mode without a
 * token only keeps the session in that mode.
 */
export interface Boundary {
  /** The modes the caller may be in; undefined when every mode is open to it. */
  readonly modes: readonly string[] | undefined;
  /** True when a bearer token mapped to modes drew the boundary. */
  readonly token: boolean;
  /** The token's label (for messages; never the token). */
  readonly label?: string | undefined;
}

/** The boundary's modes when a token drew it (what it hides lies outside them), else undefined. */
function tokenModesOf(boundary: Boundary | undefined): readonly string[] | undefined {
  return boundary?.token ? (boundary.modes ?? []) : undefined;
}

/** True when the caller may be in that mode. */
export function boundaryAllowsMode(boundary: Boundary | undefined, mode: string): boolean {
  return boundary?.modes === undefined || boundary.modes.includes(mode);
}

/** The names of the modes the caller may see (for intents, messages and the variants it is offered). */
export function visibleModeNames(config: Pick<ResolvedConfig, 'modes'>, boundary: Boundary | undefined): string[] {
  const names = Object.keys(config.modes);
  const allowed = tokenModesOf(boundary);
  return allowed === undefined ? names : names.filter((name) => allowed.includes(name));
}

const globMatchers = new WeakMap<readonly string[], (id: string) => boolean>();

/** One matcher per glob list (`alwaysVisible`, a mode's `pin`), kept while the config lives. */
export function globMatcher(globs: readonly string[]): (id: string) => boolean {
  let matcher = globMatchers.get(globs);
  if (!matcher) globMatchers.set(globs, (matcher = idMatcher(globs)));
  return matcher;
}

/**
 * True when the mode shows the tool before any session change: its groups, its `pin` or
 * `alwaysVisible`, under its read-only rule (the members fitting ranks, focus/fit.ts).
 */
export function modeShows(config: Pick<ResolvedConfig, 'alwaysVisible'>, mode: ResolvedMode, tool: CatalogTool): boolean {
  if (!modeAllows(mode, tool)) return false;
  const groups = setOf(mode.groups);
  if (tool.groups.some((group) => groups.has(group))) return true;
  return globMatcher(config.alwaysVisible)(tool.id) || globMatcher(mode.pin)(tool.id);
}

/**
 * May the caller see the tool at all (list, search, describe, groups, resources) and run it?
 * Under a token: only when one of the token's modes shows it. Otherwise always (the mode's own
 * rules are callRefusal's).
 */
export function withinBoundary(config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, boundary: Boundary | undefined, tool: CatalogTool): boolean {
  const allowed = tokenModesOf(boundary);
  if (allowed === undefined) return true;
  return allowed.some((name) => {
    const mode = modeNamed(config, name);
    return mode !== undefined && modeShows(config, mode, tool);
  });
}

/**
 * What search may offer a caller in `mode`: only read-only tools in a read-only mode, only tools
 * inside a bearer token's modes. Undefined when anything may be offered. search_tools and
 * focus_mode's tools for a task both ask it, so neither ever proposes what the mode would refuse.
 */
export function offerFilter(config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, mode: ResolvedMode | undefined, boundary: Boundary | undefined): ((tool: CatalogTool) => boolean) | undefined {
  const token = boundary?.token ? boundary : undefined;
  if (!mode?.readOnly && !token) return undefined;
  return (tool) => modeAllows(mode, tool) && withinBoundary(config, token, tool);
}

/** The exposed names of the tools the caller may see (for "did you mean" hints). */
export function visibleToolNames(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, boundary: Boundary | undefined): Iterable<string> {
  if (!boundary?.token) return catalog.byName.keys();
  return catalog.tools.filter((tool) => withinBoundary(config, boundary, tool)).map((tool) => tool.exposedName);
}

/** The group's tools the caller may see (all of them unless a token bounds it). */
export function groupToolsWithin(config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, boundary: Boundary | undefined, group: { readonly tools: readonly CatalogTool[] }): readonly CatalogTool[] {
  if (!boundary?.token) return group.tools;
  return group.tools.filter((tool) => withinBoundary(config, boundary, tool));
}

/**
 * The servers whose prompts, resources and completions the caller may use: under a token, those
 * with a tool in one of its modes; undefined when every server is open.
 */
export function boundaryServers(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, boundary: Boundary | undefined): ReadonlySet<string> | undefined {
  if (!boundary?.token) return undefined;
  const servers = new Set<string>();
  for (const tool of catalog.tools) if (!servers.has(tool.server) && withinBoundary(config, boundary, tool)) servers.add(tool.server);
  return servers;
}

type PolicyConfig = Pick<ResolvedConfig, 'modes' | 'hiddenTools' | 'alwaysVisible' | 'maxDiscovered'>;

/** Modes a refusal names at most; the rest are counted (an rc may define thousands, and one tool may be in all of them). */
const MODES_NAMED = 20;

/** Mode names as a refusal lists them: the first MODES_NAMED, then how many more (the text the model or client reads stays bounded). */
export function someModes(names: readonly string[]): string {
  return listSome(names, MODES_NAMED);
}

/** The resolved mode of that name (own names only: "toString" is not a mode unless defined). */
export function modeNamed(config: Pick<ResolvedConfig, 'modes'>, name: string): ResolvedMode | undefined {
  return own(config.modes, name);
}

/** The mode, or an UnknownNameError with the closest names. */
export function requireMode(config: Pick<ResolvedConfig, 'modes'>, name: string): ResolvedMode {
  const mode = modeNamed(config, name);
  if (!mode) throw new UnknownNameError('mode', name, Object.keys(config.modes));
  return mode;
}

/** The read-only rule: may this mode show and run the tool at all? */
export function modeAllows(mode: Pick<ResolvedMode, 'readOnly'> | undefined, tool: Pick<CatalogTool, 'readOnly'>): boolean {
  return !mode?.readOnly || tool.readOnly;
}

/**
 * Decayed calls (usage.jsonl, half-life 14 days) that make a tool a member of a mode its groups
 * leave out: called there once today, or twice in the last fortnight.
 */
const USED_MEMBER = 0.9;

/**
 * True when the session's calls made the tool part of the mode: it was called in that mode lately
 * (through execute_tool after search_tools found it, or by name) and the mode's read-only rule lets
 * it in. Budget fitting ranks it with the mode's own tools and policy counts it in the mode; a
 * bearer token's boundary still follows the modes' groups (modeShows), never usage. Under
 * `hiddenTools: "reject"` a mode is what the rc and placement make it: a session's calls of tools
 * it enabled there must not make the mode's fixed endpoint run them for every later client, so
 * calls rank a mode's tools but add none.
 */
export function usedInMode(config: Pick<ResolvedConfig, 'usageWeights' | 'hiddenTools'>, mode: ResolvedMode, tool: CatalogTool): boolean {
  if (config.hiddenTools === 'reject') return false;
  return (config.usageWeights?.get(mode.name)?.get(tool.id) ?? 0) >= USED_MEMBER && modeAllows(mode, tool);
}

/** True when the mode is read-only. */
export function isReadOnly(config: Pick<ResolvedConfig, 'modes'>, name: string): boolean {
  return modeNamed(config, name)?.readOnly ?? false;
}

/** Why the session may not run the tool now (direct call or execute_tool), or undefined. */
export function callRefusal(config: PolicyConfig, subject: PolicySubject, tool: CatalogTool): string | undefined {
  const mode = modeNamed(config, subject.mode);
  if (!mode) return `Mode "${subject.mode}" no longer exists; "${tool.exposedName}" is not available.`;
  // Outside a token's modes a tool does not exist for the caller: the answer names nothing else.
  if (!withinBoundary(config, subject.boundary, tool)) return `Unknown tool "${tool.exposedName}". Use search_tools to find tools.`;
  if (!modeAllows(mode, tool))
    return `Mode "${mode.name}" is read-only and "${tool.exposedName}" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads). ${whereElse(config, subject, tool)}`;
  if (subject.boundary?.token && !subject.inMode(tool))
    return `"${tool.exposedName}" is not part of mode "${mode.name}", the only tools this bearer token may run there.${(subject.boundary.modes?.length ?? 0) > 1 && subject.fixedMode === undefined ? ' Switch with focus_mode to another mode of this token that includes it.' : ''}`;
  if (config.hiddenTools === 'reject' && !subject.inMode(tool))
    return `"${tool.exposedName}" is not part of mode "${mode.name}" and this gateway rejects hidden tools. ${whereElse(config, subject, tool)}`;
  return undefined;
}

/**
 * May search add its hits to the session's list? Never on a fixed mode or for a stateless
 * (2026-07-28) request (their list does not vary), never under hiddenTools "reject" (search shows,
 * a mode switch reaches), never under proxy (no list to add to), never when rc
 * `discovery.maxEnabled` is 0 (the list keeps none).
 */
export function mayEnable(config: PolicyConfig, subject: PolicySubject, strategy: string): boolean {
  return strategy !== 'proxy' && subject.fixedMode === undefined && !subject.stateless && config.hiddenTools !== 'reject' && config.maxDiscovered > 0;
}

/**
 * Why the caller may not change its mode or groups (focus_mode), or undefined when it may: a
 * fixed mode never changes. A token's caller may, among its modes only (handlers/focus-mode.ts
 * readFocusArgs names and accepts only those).
 */
export function switchRefusal(subject: Pick<PolicySubject, 'fixedMode'>): string | undefined {
  if (subject.fixedMode === undefined) return undefined;
  return `This endpoint serves the fixed mode "${subject.fixedMode}" only; modes and groups cannot be changed here.`;
}

/**
 * Is `mode` served here? Undefined when it is, else why not, with one message per failure
 * wherever it is asked (HTTP endpoints, stateless requests): outside the modes `serve --mode`
 * serves, or unknown to the config. `listed` are the modes the message may name (the caller's;
 * undefined: every mode of the config).
 */
export function servedRefusal(config: Pick<ResolvedConfig, 'modes'>, mode: string, served: readonly string[] | undefined, listed: readonly string[] | undefined): string | undefined {
  // `mode` may come from a request (an HTTP path): echoed cut, on one line.
  if (served !== undefined && !served.includes(mode)) return `This gateway serves only mode(s) ${someModes(served)}; "${echoName(mode)}" is not one of them.`;
  // The names are listed only on a refusal: a scope is resolved per request, and a config may hold thousands of modes.
  if (!modeNamed(config, mode)) return `Unknown mode "${echoName(mode)}". Modes: ${someModes((listed ?? Object.keys(config.modes)).filter((name) => modeNamed(config, name)))}.`;
  return undefined;
}

/** The first of the `serve --mode` modes the config does not define, as an UnknownNameError message; undefined when all exist. */
export function unknownServedMode(config: Pick<ResolvedConfig, 'modes'>, modes: readonly string[] | undefined): string | undefined {
  const unknown = modes?.find((mode) => !modeNamed(config, mode));
  return unknown === undefined ? undefined : new UnknownNameError('mode', unknown, Object.keys(config.modes)).message;
}

/**
 * Why a connection pinned to fixed modes (a fixed-mode session, a `serve --mode` stdio
 * connection) can no longer be served by this config, or undefined: it never falls back to
 * another mode, it is closed.
 */
export function fixedModeGone(config: Pick<ResolvedConfig, 'modes'>, fixed: readonly string[] | undefined): string | undefined {
  const gone = fixed?.find((name) => !modeNamed(config, name));
  return gone === undefined ? undefined : `mode "${gone}" is no longer in the config; this connection served only that mode and was closed`;
}

const modesWithCache = new WeakMap<object, WeakMap<CatalogTool, readonly string[]>>();

/**
 * The modes whose groups include the tool and whose rules allow it, once per config's modes and
 * tool: every refusal names them (whereElse), and a groups view or status asks whether each tool
 * is callable in each mode, so 300 read-only modes over 3,000 writers read every mode's groups
 * for every tool in every mode (`status` took 46 s).
 */
export function modesWith(config: Pick<ResolvedConfig, 'modes'>, tool: CatalogTool): readonly string[] {
  let byTool = modesWithCache.get(config.modes);
  if (!byTool) modesWithCache.set(config.modes, (byTool = new WeakMap()));
  let names = byTool.get(tool);
  if (!names) {
    const groups = new Set(tool.groups);
    names = Object.values(config.modes)
      .filter((mode) => modeAllows(mode, tool) && mode.groups.some((group) => groups.has(group)))
      .map((mode) => mode.name);
    byTool.set(tool, names);
  }
  return names;
}

/**
 * Where else the tool is reachable: nowhere for a fixed mode; else the other modes the caller may
 * use, which a session switches to with focus_mode and a stateless request reaches another way
 * (focus_mode tells it how).
 */
function whereElse(config: PolicyConfig, subject: PolicySubject, tool: CatalogTool): string {
  if (subject.fixedMode !== undefined) return `This endpoint serves only mode "${subject.fixedMode}".`;
  const including = modesWith(config, tool);
  const modes = subject.boundary?.modes === undefined ? including : including.filter((name) => boundaryAllowsMode(subject.boundary, name));
  if (modes.length === 0) return 'No mode includes it.';
  return `Modes that include it: ${someModes(modes)} (${subject.stateless ? 'ask focus_mode how to reach one' : 'switch with focus_mode'}).`;
}
