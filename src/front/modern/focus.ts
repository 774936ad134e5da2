import { modeNamed, switchRefusal, visibleModeNames } from '../../focus/policy.js';
import { resolveIntent, unclearIntentText } from '../../search/intent.js';
import { UnknownNameError } from '../../util/errors.js';
import { boundedReply, status } from '../../handlers/focus-tool.js';
import { errorResult, textResult } from '../../handlers/results.js';

type CallToolResult = ReturnType<typeof errorResult>;
import { reachOf, reachText, type ServedAt } from './reach.js';
import type { ModernView } from './view.js';

/**
 * focus_mode for a 2026-07-28 request. Under that revision a tool list must not change as a side
 * effect of a call, so this never switches anything: it resolves the mode (by name or intent) and
 * answers how to reach it (server variant, endpoint URL, `serve --mode`), with the status of the
 * mode this request runs in. Groups are per mode here: enable_group/disable_group are refused.
 */
export function modernFocusMode(view: ModernView, at: ServedAt, raw: unknown): CallToolResult {
  const refused = switchRefusal(view);
  if (refused) return errorResult(refused);
  const args = (raw ?? {}) as Record<string, unknown>;
  for (const key of ['mode', 'intent', 'enable_group', 'disable_group'] as const)
    if (args[key] !== undefined && typeof args[key] !== 'string') return errorResult(`focus_mode: "${key}" must be a string.`);
  if (args.status !== undefined && typeof args.status !== 'boolean') return errorResult('focus_mode: "status" must be a boolean.');
  if (args.enable_group !== undefined || args.disable_group !== undefined)
    return errorResult('focus_mode: groups cannot be enabled or disabled per request under MCP 2026-07-28 (a tool list may not change with a call); pick a mode that includes them.');
  const config = view.gateway.config;
  const names = visibleModeNames(config, view.boundary);
  const modes = Object.values(config.modes).filter((mode) => names.includes(mode.name));
  const current = status(view);
  let target = args.mode as string | undefined;
  if (target !== undefined && (!modeNamed(config, target) || !names.includes(target))) return errorResult(new UnknownNameError('mode', target, names).message);
  if (target === undefined && typeof args.intent === 'string') {
    const match = resolveIntent(args.intent, modes);
    if (match.mode === null)
      return textResult(boundedReply([unclearIntentText(args.intent, match, modes), 'Then call focus_mode with {"mode": "<name>"}.']), {
        ...current,
        candidates: match.alternatives.map((a) => a.mode),
        confidence: match.confidence,
      });
    target = match.mode;
  }
  const lines = [`This request runs in mode ${view.mode}: ${current.visibleTools} of ${current.totalTools} tools, ${current.tokens} of ${current.totalTokens} tokens.`];
  if (target === undefined || target === view.mode) {
    if (target !== undefined) lines.push(`Already in mode "${target}".`);
    return textResult(boundedReply(lines), { ...current });
  }
  const reach = reachOf(config, at, target);
  lines.push(`Mode ${target}: ${modeNamed(config, target)?.description ?? ''}`, reachText(target, reach), 'This tool list does not change: under MCP 2026-07-28 a mode is chosen per request, not switched.');
  return textResult(boundedReply(lines), { ...current, target, reach: { ...reach } });
}
