import type { CallToolResult } from '@modelcontextprotocol/server';
import { modeNamed } from '../../focus/policy.js';
import { boundedReply, readFocusArgs, status } from '../../handlers/focus-tool.js';
import { textResult } from '../../handlers/results.js';
import { reachOf, reachText, type ServedAt } from './reach.js';
import type { ToolSession } from '../../handlers/context.js';

/**
 * focus_mode for a 2026-07-28 request. Under that revision a tool list must not change as a side
 * effect of a call, so this never switches anything: it resolves the mode (by name or intent) and
 * answers how to reach it (server variant, endpoint URL, `serve --mode`), with the status of the
 * mode this request runs in. Groups are per mode here: enable_group/disable_group are refused.
 */
export function modernFocusMode(view: ToolSession, at: ServedAt, raw: unknown): CallToolResult {
  // Policy refuses focus_mode on a fixed endpoint before this runs (handlers/tools, switchRefusal).
  const read = readFocusArgs(view, raw, 'refuse');
  if ('answer' in read) return read.answer;
  const { target } = read;
  const config = view.gateway.config;
  const current = status(view);
  const lines = [`This request runs in mode ${view.mode}: ${current.visibleTools} of ${current.totalTools} tools, ${current.tokens} of ${current.totalTokens} tokens.`];
  if (target === undefined || target === view.mode) {
    if (target !== undefined) lines.push(`Already in mode "${target}".`);
    return textResult(boundedReply(lines), { ...current });
  }
  const reach = reachOf(config, at, target);
  lines.push(`Mode ${target}: ${modeNamed(config, target)?.description ?? ''}`, reachText(target, reach), 'This tool list does not change: under MCP 2026-07-28 a mode is chosen per request, not switched.');
  return textResult(boundedReply(lines), { ...current, target, reach: { ...reach } });
}
