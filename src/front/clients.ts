import type { Strategy } from '../config/schema.js';
import type { ServedStrategy } from '../catalog/own-tools.js';

/**
 * The strategy each known client gets under `auto`, by `clientInfo.name` (lowercase substring,
 * first match wins). Clients that act on `notifications/tools/list_changed` within a conversation
 * get `notify`; clients that ignore it get `proxy` (constant list, everything through
 * execute_tool); Claude Code, reported to often ignore changes mid-conversation, gets `hybrid`.
 */
export const CLIENT_TABLE: ReadonlyArray<{ match: string; strategy: ServedStrategy }> = [
  { match: 'claude-code', strategy: 'hybrid' }, // Claude Code
  { match: 'claude', strategy: 'proxy' }, // Claude Desktop
  { match: 'cursor', strategy: 'proxy' },
  { match: 'codex', strategy: 'proxy' },
  { match: 'continue', strategy: 'proxy' },
  { match: 'zed', strategy: 'proxy' },
  { match: 'visual studio code', strategy: 'notify' }, // VS Code Copilot
  { match: 'vscode', strategy: 'notify' },
  { match: 'copilot', strategy: 'notify' }, // Copilot CLI
  { match: 'windsurf', strategy: 'notify' },
  { match: 'cline', strategy: 'notify' },
  { match: 'goose', strategy: 'notify' },
];

/** The strategy a session is served with: `auto` looks the client up; unknown clients get `hybrid`. */
export function strategyFor(strategy: Strategy, clientName: string | undefined): ServedStrategy {
  if (strategy !== 'auto') return strategy;
  const name = (clientName ?? '').toLowerCase();
  return CLIENT_TABLE.find((row) => name.includes(row.match))?.strategy ?? 'hybrid';
}
