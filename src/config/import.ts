import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../util/errors.js';
import type { RcConfig, ServerConfig } from './schema.js';

/** Clients whose MCP config `lazytools init --from` reads. */
export type ClientName = 'claude-desktop' | 'cursor' | 'vscode' | 'claude-code';

export const CLIENT_NAMES: readonly ClientName[] = ['claude-desktop', 'cursor', 'vscode', 'claude-code'];

/** Where each client keeps its MCP servers, most specific first (project files before user files). */
function clientConfigPaths(client: ClientName, cwd: string, home = os.homedir(), platform = process.platform, env = process.env): string[] {
  switch (client) {
    case 'claude-desktop':
      if (platform === 'darwin') return [path.join(home, 'Library/Application Support/Claude/claude_desktop_config.json')];
      if (platform === 'win32') return [path.join(env.APPDATA ?? path.join(home, 'AppData/Roaming'), 'Claude/claude_desktop_config.json')];
      return [path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude/claude_desktop_config.json')];
    case 'cursor':
      return [path.join(cwd, '.cursor/mcp.json'), path.join(home, '.cursor/mcp.json')];
    case 'vscode':
      return [path.join(cwd, '.vscode/mcp.json')];
    case 'claude-code':
      return [path.join(cwd, '.mcp.json'), path.join(home, '.claude.json')];
  }
}

/** The first existing config file of a client, or a ConfigError listing where it looked. */
export function findClientConfig(client: ClientName, cwd: string): string {
  const candidates = clientConfigPaths(client, cwd);
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new ConfigError(`no ${client} MCP config found (looked in ${candidates.join(', ')})`);
  return found;
}

export interface ImportedServers {
  rc: RcConfig;
  /** Environment variables moved out of the file: set them before `lazytools serve`. */
  secrets: string[];
  skipped: string[];
}

const SECRET = /token|secret|password|passwd|api[_-]?key|auth|credential/i;

/**
 * Turns a client's MCP config (`mcpServers` of Claude Desktop, Cursor and Claude Code, or
 * `servers` of VS Code) into an rc: the same servers, one group per server, the preset modes.
 * Secret-looking env values and headers become `${NAME}` references, so no secret lands in the rc.
 */
export function importServers(json: unknown, file: string): ImportedServers {
  const root = json as { mcpServers?: unknown; servers?: unknown };
  const entries = (root?.mcpServers ?? root?.servers) as Record<string, unknown> | undefined;
  if (!entries || typeof entries !== 'object') throw new ConfigError('expected "mcpServers" (or "servers") with the MCP servers to import', file);
  const servers: Record<string, ServerConfig> = {};
  const groups: NonNullable<RcConfig['groups']> = {};
  const secrets: string[] = [];
  const skipped: string[] = [];
  for (const [rawName, value] of Object.entries(entries)) {
    const name = rawName.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'server';
    const entry = value as { command?: unknown; args?: unknown; env?: unknown; cwd?: unknown; url?: unknown; headers?: unknown };
    if (name === 'lazytools' || (Array.isArray(entry.args) && entry.args.includes('lazytools'))) {
      skipped.push(`${rawName} (lazytools itself)`);
      continue;
    }
    if (typeof entry.command === 'string') {
      const server: ServerConfig = { command: entry.command };
      if (Array.isArray(entry.args)) server.args = entry.args.map(String);
      if (entry.env && typeof entry.env === 'object') server.env = scrub(entry.env as Record<string, unknown>, secrets, (key) => key);
      if (typeof entry.cwd === 'string') server.cwd = entry.cwd;
      servers[name] = server;
    } else if (typeof entry.url === 'string') {
      const server: ServerConfig = { url: entry.url };
      if (entry.headers && typeof entry.headers === 'object')
        server.headers = scrub(entry.headers as Record<string, unknown>, secrets, (key) => `${name}_${key}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_'));
      servers[name] = server;
    } else {
      skipped.push(`${rawName} (neither "command" nor "url")`);
      continue;
    }
    groups[name] = { description: `All tools of ${name}`, servers: [name] };
  }
  return { rc: { $schema: 'node_modules/lazytools/lazytools.schema.json', servers, groups, defaultMode: 'development' }, secrets: [...new Set(secrets)], skipped };
}

function scrub(map: Record<string, unknown>, secrets: string[], envName: (key: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    const text = String(value);
    if (SECRET.test(key) && !/^\$\{[^}]+\}$/.test(text.replace(/^Bearer /, ''))) {
      const variable = envName(key);
      secrets.push(variable);
      out[key] = text.startsWith('Bearer ') ? `Bearer \${${variable}}` : `\${${variable}}`;
    } else out[key] = text;
  }
  return out;
}
