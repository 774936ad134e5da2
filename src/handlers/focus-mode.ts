import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../catalog/catalog.js';
import { focusModeArgs, readArgs } from '../catalog/own-args.js';
import { isReadOnly, mayEnable, modeNamed, visibleModeNames, withinBoundary } from '../focus/policy.js';
import { taskTools } from '../focus/task-tools.js';
import { activeGroups, visibleTools } from '../focus/visible.js';
import { modeFit } from '../focus/fit.js';
import { toolError } from '../protocol/errors.js';
import { hasOwn } from '../util/own.js';
import { KeptPerOwner } from '../util/kept.js';
import { unclearIntentText } from '../search/intent.js';
import { resolveIntentIn } from '../focus/intent-catalog.js';
import { listStatus, reduction, tokenChange } from '../tokens/report.js';
import { verbatimTokens } from '../catalog/totals.js';
import { echoName, UnknownNameError } from '../util/errors.js';
import { outsideText } from '../util/redact.js';
import { shownName } from '../config/secrets.js';
import { clipText } from '../util/bounds.js';
import { listSome } from '../util/plural.js';
import { textResult } from './results.js';
import { ruleOfMode } from './call.js';
import { callableTools } from './callable.js';
import { reachOf, reachText } from './reach.js';
import { visibleGroup, visibleGroupNames } from './meta-tools.js';
import type { Caller } from './caller.js';

/** focus_mode's arguments as parsed (the enum its definition offers is not asked here: intent picks among every mode). */
const FOCUS_ARGS = focusModeArgs();
const FOCUS_KEYS = Object.keys(FOCUS_ARGS.shape);

/** The first argument name focus_mode does not take, if any. */
function strayKey(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  for (const key in raw) if (hasOwn(raw, key) && !FOCUS_KEYS.includes(key)) return key;
  return undefined;
}

/**
 * The focus_mode tool, one handler for both eras: switch mode (by name or by intent), enable or
 * disable a group, or report status. Arguments are read the same way in both (readFocusArgs); a
 * bad one changes nothing. A 2025 session switches; where its list changes the reply is terse.
 * Where a list cannot change (the proxy strategy, a 2026-07-28 request) the switch reaches the
 * model through the reply: the mode's tools in callable form (callable.ts).
 */
export function focusMode(caller: Caller, raw: unknown): CallToolResult {
  return caller.era === 'modern' ? reachMode(caller, raw) : switchMode(caller, raw);
}

/**
 * A 2025 session's switch. The reply is terse and bounded (FOCUS_REPLY_MAX characters at any
 * catalog size): mode, counts, tokens, the cut, how many tools came and went with a handful of
 * their names; the full list is tools/list (or `lazytools status`).
 */
function switchMode(session: Caller, raw: unknown): CallToolResult {
  // A fixed session never gets here (tools.ts refuses focus_mode there, focus/policy switchRefusal)
  // and a token's target is one of its modes (readFocusArgs): nothing left to refuse.
  const read = readFocusArgs(session, raw, 'switch');
  if ('answer' in read) return read.answer;
  const { target, enable, disable, task } = read;
  const config = session.hub.config;
  const changing = target !== undefined || enable !== undefined || disable !== undefined;

  const before = new Map(session.listedTools().map((tool) => [tool.id, tool.exposedName]));
  if (target !== undefined && target !== session.focus.mode) session.focusEvent({ type: 'FOCUS', mode: target });
  if (enable !== undefined) session.focusEvent({ type: 'ENABLE_GROUP', group: enable });
  if (disable !== undefined) session.focusEvent({ type: 'DISABLE_GROUP', group: disable });
  // The task the intent states gets its tools too, where search may add to this list.
  const adding = task !== undefined && mayEnable(config, session, session.strategy);
  // Under proxy the list never changes: the task's tools runnable in the mode lead the reply's callable list instead.
  const proxied = session.strategy === 'proxy' && changing;
  const forTask = adding ? modeTaskTools(session, task) : proxied ? callableTaskTools(session, task, session.focus.mode) : [];
  const visible = adding && forTask.length > 0 ? new Set(visibleTools(session.hub.catalog, config, session.focus)) : undefined;
  const missing = adding ? forTask.filter((tool) => !visible?.has(tool)).map((tool) => tool.id) : [];
  if (missing.length > 0) session.focusEvent({ type: 'DISCOVER', tools: missing });
  session.flushListCheck();
  const after = new Map(session.listedTools().map((tool) => [tool.id, tool.exposedName]));
  const added = [...after].filter(([id]) => !before.has(id)).map(([, name]) => name);
  const removed = [...before].filter(([id]) => !after.has(id)).map(([, name]) => name);

  const report = status(session);
  // Held back and not in the list: one a search added (or an enabled group brought) is the model's now.
  const held = modeFit(session.hub.catalog, config, report.mode)?.heldBack.filter((entry) => !after.has(entry.id)).length ?? 0;
  const lines = [
    `Mode: ${report.mode}${isReadOnly(config, report.mode) ? ' (read-only)' : ''}: ${clipText(modeNamed(config, report.mode)?.description ?? '', DESCRIPTION_QUOTED)}`,
    `Groups: ${listSome(report.groups, 8) || '(none)'}`,
    `Visible: ${report.visibleTools} of ${report.totalTools} tools, ${report.tokens} of ${report.totalTokens} tokens (${tokenChange(report.tokens, report.totalTokens)})`,
  ];
  // Counted in the list as it is now: rc discovery.maxEnabled may keep fewer than were added.
  const kept = missing.filter((id) => after.has(id)).length;
  lines.push(...forTaskLine(forTask, proxied ? 'first below' : kept > 0 ? `${kept} added to your list` : undefined));
  if (held > 0 && session.strategy !== 'proxy') lines.push(`Held back by the budget: ${held} tools of this mode; search_tools finds them first.`);
  if (added.length > 0 || removed.length > 0) lines.push(`Changed: +${added.length}, -${removed.length}${changeNames(added, removed)}`);
  // Failed initial starts (errors, timeouts) and crashed servers; each reason cut short (bounded reply).
  // Only those the caller may reach: a token's modes never name another server (nor its stderr).
  const reached = session.routing.upstreams;
  const down = session.hub.serverStates().filter((s) => (s.state === 'down' || s.state === 'failed') && reached.has(s.name));
  if (down.length > 0) lines.push(`Servers down: ${listSome(down.map((s) => `${shownName(s.name)} (${outsideText(s.reason ?? 'unavailable', 160)})`), 3)}`);
  if (added.length + removed.length > NAMES_SHOWN) lines.push('Full lists: tools/list, or `lazytools status --explain`.');
  const structured = { ...report, heldBack: held, taskTools: forTask.map((tool) => tool.exposedName), added: added.slice(0, NAMES_SHOWN), removed: removed.slice(0, NAMES_SHOWN), addedCount: added.length, removedCount: removed.length };
  // Under proxy the list never changes: the reply carries the mode's tools (bounded by its budget, not by FOCUS_REPLY_MAX).
  if (!proxied) return textResult(boundedReply(lines), structured);
  const callable = callableTools(session, report.mode, forTask);
  return textResult([boundedReply(lines), ...callableSection(report.mode, callable, false)].join('\n'), { ...structured, tools: callable.tools, toolsOmitted: callable.omitted });
}

/**
 * The part of a reply that carries a mode's tools where the caller's list cannot change: how to
 * call them, one line each, and how to find the ones the budget left out. `withMode`: a
 * 2026-07-28 request names the mode in each call (its own mode is another).
 */
function callableSection(mode: string, callable: ReturnType<typeof callableTools>, withMode: boolean): string[] {
  const how = `execute_tool {"name": "<tool>", "arguments": {…}${withMode ? `, "mode": "${mode}"` : ''}}`;
  const lines = [`Tools of mode ${mode}, callable now with ${how} (? marks an optional argument):`, ...callable.lines];
  if (callable.omitted > 0) lines.push(`… and ${callable.omitted} more tools of mode ${mode}: search_tools {"query": …} finds them.`);
  return lines;
}

/**
 * A 2026-07-28 request's focus_mode. Under that revision a tool list must not change as a side
 * effect of a call, so this never switches anything: it resolves the mode (by name or intent) and
 * answers with that mode's tools, callable at once through execute_tool with `mode`, and how to
 * work in it throughout (server variant, endpoint URL, `serve --mode`). Groups are per mode
 * here: enable_group/disable_group are refused.
 */
function reachMode(caller: Caller, raw: unknown): CallToolResult {
  // Policy refuses focus_mode on a fixed endpoint before this runs (handlers/tools, switchRefusal).
  const read = readFocusArgs(caller, raw, 'refuse');
  if ('answer' in read) return read.answer;
  const { target, task } = read;
  const config = caller.hub.config;
  const current = status(caller);
  const lines = [`This request runs in mode ${caller.mode}: ${current.visibleTools} of ${current.totalTools} tools, ${current.tokens} of ${current.totalTokens} tokens.`];
  if (target === undefined || target === caller.mode) {
    if (target === undefined) return textResult(boundedReply(lines), { ...current });
    lines.push(`Already in mode "${target}".`);
    if (caller.strategy !== 'proxy') return textResult(boundedReply(lines), { ...current });
    // A proxy list holds none of the mode's tools: the reply names them.
    const first = callableTaskTools(caller, task, target);
    const own = callableTools(caller, target, first);
    return textResult([boundedReply([...lines, ...forTaskLine(first, 'first below')]), ...callableSection(target, own, false)].join('\n'), { ...current, taskTools: first.map((tool) => tool.exposedName), tools: own.tools, toolsOmitted: own.omitted });
  }
  const reach = reachOf(config, caller.route, target);
  lines.push(`Mode ${target}: ${clipText(modeNamed(config, target)?.description ?? '', DESCRIPTION_QUOTED)}`, `This tool list does not change (MCP 2026-07-28): ${reachText(target, reach)}`);
  // The switch reaches the model through the reply: the mode's tools, callable at once.
  const first = callableTaskTools(caller, task, target);
  const callable = callableTools(caller, target, first);
  return textResult([boundedReply([...lines, ...forTaskLine(first, 'first below')]), ...callableSection(target, callable, true)].join('\n'), { ...current, target, reach: { ...reach }, taskTools: first.map((tool) => tool.exposedName), tools: callable.tools, toolsOmitted: callable.omitted });
}

/**
 * The reply's line naming the task's tools, with what became of them: added to the list, or, where
 * the list cannot change, leading the callable list below.
 */
function forTaskLine(tools: readonly CatalogTool[], note: string | undefined): string[] {
  return tools.length > 0 ? [`For this task: ${tools.map((tool) => clipText(tool.exposedName, 64)).join(', ')}${note ? ` (${note})` : ''}`] : [];
}

/**
 * focus_mode's arguments, read the same way for both eras: parsed by their zod schema, the mode
 * named or resolved from the intent among the modes the caller may use (a token's only), groups
 * checked. Returns the answer when the call ends here (a bad argument: isError; an unclear
 * intent: the candidates), else what to do. `refuse`: groups cannot change per request (2026-07-28).
 */
function readFocusArgs(
  caller: Caller,
  raw: unknown,
  groups: 'switch' | 'refuse',
): { answer: CallToolResult } | { target: string | undefined; enable: string | undefined; disable: string | undefined; task: string | undefined } {
  const read = readArgs(FOCUS_ARGS, 'focus_mode', raw);
  if ('problem' in read) return { answer: toolError(read.problem) };
  const { mode, intent, enable_group: enable, disable_group: disable } = read.args;
  // A call of none of its arguments but others ({ focus: "security_review" }) meant to change something: status would read as done.
  const stray = Object.values(read.args).every((value) => value === undefined) ? strayKey(raw) : undefined;
  if (stray !== undefined) return { answer: toolError(`focus_mode: no argument "${echoName(stray)}"; nothing changed. Pass ${FOCUS_KEYS.join(', ')}.`) };
  if (groups === 'refuse' && (enable !== undefined || disable !== undefined))
    return { answer: toolError('focus_mode: groups cannot be enabled or disabled per request under MCP 2026-07-28 (a tool list may not change with a call); pick a mode that includes them.') };
  const config = caller.hub.config;
  const modes = visibleModeNames(config, caller.boundary);
  // A set: the candidates were filtered with includes() per mode, O(M²) on an rc of 10,000 modes.
  const allowed = new Set(modes);
  let target = mode;
  if (target !== undefined && (!modeNamed(config, target) || !allowed.has(target))) return { answer: toolError(new UnknownNameError('mode', target, modes).message) };
  if (target === undefined && intent !== undefined) {
    const candidates = Object.values(config.modes).filter((entry) => allowed.has(entry.name));
    const match = resolveIntentIn(intent, candidates, caller.hub.catalog, config, caller.hub.search);
    if (match.mode === null) {
      // The modes listed take what the reply's bound leaves after its last line, which says what to do.
      const text = boundedReply([unclearIntentText(intent, match, candidates, FOCUS_REPLY_MAX - UNCLEAR_TAIL.length - 1), UNCLEAR_TAIL]);
      return { answer: textResult(text, { ...status(caller), candidates: match.alternatives.map((a) => a.mode), confidence: match.confidence }) };
    }
    target = match.mode;
  }
  // Under a token, a group none of whose tools it may see is unknown, and the hint names only the ones it may.
  const bounded = caller.boundary?.token === true;
  for (const group of [enable, disable])
    if (group !== undefined && (!hasOwn(config.groups, group) || (bounded && !visibleGroup(caller, group))))
      return { answer: toolError(new UnknownNameError('group', group, bounded ? visibleGroupNames(caller) : Object.keys(config.groups)).message) };
  return { target, enable, disable, task: intent?.trim() || undefined };
}

/**
 * The task's tools a switch adds to the list: the places go to tools the mode does not show (the
 * model has those). Measured on the stack task sets: the intent's mode or its task tools show a
 * gold tool in 510 -> 526 of 609 tuning tasks, 348 -> 356 of 407 blind ones. Asked again, the
 * same tools come back (the mode's fit, not the list, decides), named but not added twice.
 */
function modeTaskTools(session: Caller, task: string | undefined): CatalogTool[] {
  if (task === undefined) return [];
  const shown = modeFit(session.hub.catalog, session.hub.config, session.focus.mode)?.shownIds;
  return taskTools(session.hub.search, session.hub.config, session.focus.mode, session.boundary, task, shown ? (tool) => !shown.has(tool.id) : undefined);
}

/**
 * The task's tools that execute_tool may run in `mode` (call.ts ruleOfMode: the mode's rules, the
 * caller's boundary, hiddenTools): what a reply that cannot change the list puts first among the
 * mode's callable tools.
 */
function callableTaskTools(caller: Caller, task: string | undefined, mode: string): CatalogTool[] {
  if (task === undefined) return [];
  const rule = ruleOfMode(caller, mode);
  if ('refused' in rule) return [];
  return taskTools(caller.hub.search, caller.hub.config, mode, caller.boundary, task, (tool) => rule.refusal(tool) === undefined);
}

/**
 * Characters of a mode's description a reply quotes: rc allows 1,000, and quoted whole it pushed
 * what the reply is for (how to reach the mode, the task's tools) past FOCUS_REPLY_MAX.
 */
const DESCRIPTION_QUOTED = 160;

/** The last line of the answer to an unclear intent. */
const UNCLEAR_TAIL = 'Then call focus_mode with {"mode": "<name>"}.';

/** Names a focus_mode reply lists of the tools that came and went; the counts say the rest. */
const NAMES_SHOWN = 5;

/** Anything focus_mode says is at most this long, whatever the catalog (the model reads it). */
export const FOCUS_REPLY_MAX = 1_500;

/** The reply's lines joined, cut to FOCUS_REPLY_MAX characters (rc text such as descriptions can be long). */
export function boundedReply(lines: readonly string[]): string {
  return clipText(lines.join('\n'), FOCUS_REPLY_MAX);
}

/** ": +a, +b, -c" with at most NAMES_SHOWN names in all, added first. */
function changeNames(added: readonly string[], removed: readonly string[]): string {
  const names = [...added.map((name) => `+${clipText(name, 64)}`), ...removed.map((name) => `-${clipText(name, 64)}`)];
  if (names.length === 0) return '';
  const shown = names.slice(0, NAMES_SHOWN);
  return `: ${shown.join(', ')}${names.length > shown.length ? ', …' : ''}`;
}


/**
 * The status report: mode, groups, and what the client's list holds against the catalog, counted
 * by `listStatus` like `lazytools status` (`visibleTools` is its `tools`: under proxy, the listed
 * tools, not the mode's).
 */
export function status(caller: Caller) {
  const focus = caller.focus;
  const { tools, ...figures } = listStatus(caller.hub.catalog, caller.listedTools(), caller.ownDefinitions());
  const within = boundedTotals(caller);
  const totals = within ? { totalTools: within.tools, totalTokens: within.tokens, reduction: reduction(figures.tokens, within.tokens) } : {};
  return { mode: focus.mode, groups: activeGroups(caller.hub.config, focus), visibleTools: tools, ...figures, ...totals };
}

/** Boundaries whose totals one catalog keeps (one per bearer token in practice; the oldest goes). */
const MAX_BOUNDED_TOTALS = 64;
const boundedTotalsKept = new KeptPerOwner<{ tools: number; tokens: number }>(MAX_BOUNDED_TOTALS);

/**
 * The catalog a bearer token's caller may see (the tools of its modes), counted as the whole
 * catalog is: "9 of 39 tools" told a token of one mode how many tools, and tokens of them, lie
 * outside its modes, which do not exist for it. Undefined without a token. Kept per catalog,
 * config and boundary (verbatim counting tokenizes up to 1,000 definitions).
 */
function boundedTotals(caller: Caller): { tools: number; tokens: number } | undefined {
  const boundary = caller.boundary;
  if (!boundary?.token) return undefined;
  const { catalog, config } = caller.hub;
  return boundedTotalsKept.get(catalog, config, JSON.stringify([boundary.label, boundary.modes]), () => {
    const tools = catalog.tools.filter((tool) => withinBoundary(config, boundary, tool));
    return { tools: tools.length, tokens: verbatimTokens(tools, catalog.tokenizer) };
  });
}
