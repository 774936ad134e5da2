import type { CallToolResult } from '@modelcontextprotocol/server';
import { isReadOnly, modeNamed, switchRefusal } from '../focus/policy.js';
import { activeGroups } from '../focus/visible.js';
import { hasOwn } from '../util/own.js';
import { resolveIntent, unclearIntentText } from '../search/intent.js';
import { listStatus, tokenChange } from '../tokens/report.js';
import { UnknownNameError } from '../util/errors.js';
import { outsideText } from '../util/redact.js';
import { errorResult, textResult } from './results.js';
import type { FrontSession } from './session.js';

interface FocusArgs {
  mode?: string;
  intent?: string;
  enable_group?: string;
  disable_group?: string;
  status?: boolean;
}

/**
 * The focus_mode tool: switch mode (by name or by intent), enable or disable a group, or report
 * status. Validates everything before changing anything, so a bad argument changes nothing. The
 * result names the tools that appeared and went, for clients that ignore list_changed.
 */
export function handleFocusMode(session: FrontSession, raw: unknown): CallToolResult {
  const args = (raw ?? {}) as Record<string, unknown>;
  for (const key of ['mode', 'intent', 'enable_group', 'disable_group'] as const)
    if (args[key] !== undefined && typeof args[key] !== 'string') return errorResult(`focus_mode: "${key}" must be a string.`);
  if (args.status !== undefined && typeof args.status !== 'boolean') return errorResult('focus_mode: "status" must be a boolean.');
  const { mode, intent, enable_group: enable, disable_group: disable } = args as FocusArgs;
  const config = session.gateway.config;
  const modes = Object.keys(config.modes);
  const groups = Object.keys(config.groups);

  let target = mode;
  if (target !== undefined && !modeNamed(config, target)) return errorResult(new UnknownNameError('mode', target, modes).message);
  if (target === undefined && intent !== undefined) {
    const match = resolveIntent(intent, Object.values(config.modes));
    if (match.mode === null) {
      const closest = match.alternatives.map((a) => a.mode);
      const text = `${unclearIntentText(intent, match, Object.values(config.modes))}\nThen call focus_mode with {"mode": "<name>"}.`;
      return textResult(text, { ...status(session), candidates: closest, confidence: match.confidence });
    }
    target = match.mode;
  }
  for (const group of [enable, disable]) if (group !== undefined && !hasOwn(config.groups, group)) return errorResult(new UnknownNameError('group', group, groups).message);
  const changing = target !== undefined || enable !== undefined || disable !== undefined;
  const refused = changing ? switchRefusal(session) : undefined;
  if (refused) return errorResult(refused);

  const before = new Map(session.listedTools().map((tool) => [tool.id, tool.exposedName]));
  if (target !== undefined && target !== session.focus.mode) session.send({ type: 'FOCUS', mode: target });
  if (enable !== undefined) session.send({ type: 'ENABLE_GROUP', group: enable });
  if (disable !== undefined) session.send({ type: 'DISABLE_GROUP', group: disable });
  session.flushListCheck();
  const after = new Map(session.listedTools().map((tool) => [tool.id, tool.exposedName]));
  const added = [...after].filter(([id]) => !before.has(id)).map(([, name]) => name);
  const removed = [...before].filter(([id]) => !after.has(id)).map(([, name]) => name);

  const report = status(session);
  const lines = [
    `Mode: ${report.mode}${isReadOnly(config, report.mode) ? ' (read-only)' : ''}: ${modeNamed(config, report.mode)?.description ?? ''}`,
    `Groups: ${report.groups.join(', ') || '(none)'}`,
    `Visible: ${report.visibleTools} of ${report.totalTools} tools, ${report.tokens} of ${report.totalTokens} tokens (${tokenChange(report.tokens, report.totalTokens)})`,
  ];
  if (added.length > 0) lines.push(`Added: ${added.join(', ')}`);
  if (removed.length > 0) lines.push(`Removed: ${removed.join(', ')}`);
  if (session.strategy === 'proxy' && changing) lines.push(`Call the mode's ${session.modeTools().length} tools through execute_tool.`);
  // Failed initial starts (errors, timeouts) and crashed servers; each reason cut short (bounded reply).
  const down = session.gateway.serverStates().filter((s) => s.state === 'down' || s.state === 'failed');
  if (down.length > 0) lines.push(`Servers down: ${down.slice(0, 5).map((s) => `${s.name} (${outsideText(s.reason ?? 'unavailable', 160)})`).join(', ')}${down.length > 5 ? `, and ${down.length - 5} more` : ''}`);
  return textResult(lines.join('\n'), { ...report, added, removed });
}

/**
 * The status report: mode, groups, and what the client's list holds against the catalog, counted
 * by `listStatus` like `lazytools status` (`visibleTools` is its `tools`: under proxy, the listed
 * tools, not the mode's).
 */
export function status(session: Pick<FrontSession, 'focus' | 'gateway' | 'listedTools' | 'ownDefinitions'>) {
  const focus = session.focus;
  const { tools, ...figures } = listStatus(session.gateway.catalog, session.listedTools(), session.ownDefinitions());
  return { mode: focus.mode, groups: activeGroups(session.gateway.config, focus), visibleTools: tools, ...figures };
}
