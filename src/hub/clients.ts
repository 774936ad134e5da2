import type { ClientName } from '../init/import.js';
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

/** The `clientInfo.name` each client `lazytools init --from` reads sends when it connects. */
const CLIENT_INFO_NAMES: Record<ClientName, string> = {
  'claude-desktop': 'claude-ai',
  cursor: 'cursor-vscode',
  vscode: 'Visual Studio Code',
  'claude-code': 'claude-code',
};

/**
 * The rc strategy `lazytools init` writes for the client it imports from, and why: `auto`, which
 * serves each connecting client by its `clientInfo.name` through the table above. A client that
 * ignores list_changed (Claude Desktop, Cursor) gets `proxy` that way, so its one and only list
 * reaches every tool; writing `proxy` itself would do the same for that client but serve every
 * other client the constant list too, and make `status` and `check` report only the meta-tools.
 */
export function importStrategy(client: ClientName | undefined): { strategy: Strategy; reason: string } {
  const auto = '"auto" serves each connecting client by its clientInfo.name (README client table; unknown clients get "hybrid")';
  if (client === undefined) return { strategy: 'auto', reason: `${auto}; the client is not known from the file` };
  const served = strategyFor('auto', CLIENT_INFO_NAMES[client]);
  if (served === 'proxy')
    return { strategy: 'auto', reason: `${auto}: ${client} ignores tools/list_changed, so it gets "proxy", a constant list (focus_mode, search_tools, describe_tools, execute_tool, list_tool_groups) that reaches every tool` };
  return { strategy: 'auto', reason: `${auto}: ${client} gets "${served}"` };
}
