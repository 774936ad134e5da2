import type { Strategy } from '../config/schema.js';
import type { ServedStrategy } from '../catalog/own-tools.js';

/**
 * Clients by `clientInfo.name` and whether they act on `notifications/tools/list_changed`
 * within a conversation. Matched as lowercase substrings, first match wins.
 */
export const CLIENT_TABLE: ReadonlyArray<{ match: string; client: string; listChanged: boolean }> = [
  { match: 'claude-code', client: 'Claude Code', listChanged: false },
  { match: 'claude', client: 'Claude Desktop', listChanged: false },
  { match: 'cursor', client: 'Cursor', listChanged: false },
  { match: 'codex', client: 'Codex', listChanged: false },
  { match: 'continue', client: 'Continue', listChanged: false },
  { match: 'zed', client: 'Zed', listChanged: false },
  { match: 'visual studio code', client: 'VS Code Copilot', listChanged: true },
  { match: 'vscode', client: 'VS Code Copilot', listChanged: true },
  { match: 'copilot', client: 'Copilot CLI', listChanged: true },
  { match: 'windsurf', client: 'Windsurf', listChanged: true },
  { match: 'cline', client: 'Cline', listChanged: true },
  { match: 'goose', client: 'goose', listChanged: true },
];

/**
 * The strategy a session is served with. `auto` looks the client up: clients known to act on
 * list_changed get `notify`, clients known to ignore it get `proxy`, Claude Code (reported to
 * often ignore changes mid-conversation) and unknown clients get `hybrid`.
 */
export function strategyFor(strategy: Strategy, clientName: string | undefined): ServedStrategy {
  if (strategy !== 'auto') return strategy;
  const name = (clientName ?? '').toLowerCase();
  const entry = CLIENT_TABLE.find((row) => name.includes(row.match));
  if (!entry || entry.match === 'claude-code') return 'hybrid';
  return entry.listChanged ? 'notify' : 'proxy';
}
