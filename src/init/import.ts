import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../util/errors.js';
import { dictionary, hasOwn } from '../util/own.js';
import type { RcConfig, ServerConfig } from '../config/schema.js';
import { isSecretKey, isSecretParam, looksSecret } from '../config/secrets.js';

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

/** The client a config file belongs to, from where it lies and its name; undefined when unknown. */
export function clientOfFile(file: string): ClientName | undefined {
  const at = file.split(path.sep).join('/');
  if (at.endsWith('/claude_desktop_config.json') || at === 'claude_desktop_config.json') return 'claude-desktop';
  if (/(?:^|\/)\.cursor\/mcp\.json$/.test(at)) return 'cursor';
  if (/(?:^|\/)\.vscode\/mcp\.json$/.test(at)) return 'vscode';
  if (/(?:^|\/)\.(?:mcp|claude)\.json$/.test(at)) return 'claude-code';
  return undefined;
}

export interface ImportedServers {
  rc: RcConfig;
  /** Environment variables the rc now reads: set them before `lazytools serve`. */
  secrets: string[];
  skipped: string[];
  /** What the import changed on the way (renames, sse servers, VS Code variables, sources). */
  notes: string[];
  /** Values left as written that look like secrets: move them by hand. */
  warnings: string[];
}

export interface ImportOptions {
  /** The project folder: Claude Code's ~/.claude.json keeps its servers under `projects[<cwd>]`. */
  cwd?: string | undefined;
}

/**
 * Turns a client's MCP config (`mcpServers` of Claude Desktop, Cursor and Claude Code, including
 * Claude Code's per-project `projects[<cwd>].mcpServers`, or `servers` of VS Code) into an rc: the
 * same servers, one group per server, the preset modes. No value that may be a secret is copied:
 * env and header values that are secrets (by key or value, see secrets.ts) become `${NAME}`
 * references (keeping a header's scheme word, as in `Bearer ${NAME}`), and so do credentials in
 * known argument and URL forms (`--api-key X`, `scheme://user:pass@`, `?apiKey=`); other values
 * (paths, flags, log levels) stay, so one unset variable does not stop a server for a path; other
 * secret-looking values are reported.
 */
export function importServers(json: unknown, file: string, options: ImportOptions = {}): ImportedServers {
  const notes: string[] = [];
  const entries = serverEntries(json, file, options.cwd, notes);
  const servers: Record<string, ServerConfig> = dictionary();
  const groups: NonNullable<RcConfig['groups']> = dictionary();
  const variables = new Variables();
  const skipped: string[] = [];
  const warnings: string[] = [];
  for (const [rawName, value] of entries) {
    const entry = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    if (rawName === 'lazytools' || (Array.isArray(entry.args) && entry.args.includes('lazytools'))) {
      skipped.push(`${rawName} (lazytools itself)`);
      continue;
    }
    const name = uniqueName(rawName, servers);
    if (name !== rawName) notes.push(`server "${rawName}" is named "${name}" (letters, digits, "_", "-" and "." only, names kept distinct)`);
    const at = `servers.${name}`;
    const text = (raw: unknown, where: string) => vscodeVariables(String(raw), where, variables, notes);
    let server: ServerConfig;
    if (typeof entry.command === 'string') {
      server = { command: text(entry.command, `${at}.command`) };
      if (Array.isArray(entry.args)) server.args = scrubArgs(entry.args.map((arg, i) => text(arg, `${at}.args[${i}]`)), name, variables);
      if (isRecord(entry.env)) {
        const env: Record<string, string> = {};
        for (const [key, raw] of Object.entries(entry.env)) {
          const value = text(raw, `${at}.env.${key}`);
          env[key] = isSecretKey(key) || looksSecret(value) ? variables.move(value, envName(key), name) : value;
        }
        server.env = env;
      }
      if (typeof entry.cwd === 'string') server.cwd = text(entry.cwd, `${at}.cwd`);
    } else if (typeof entry.url === 'string') {
      const { url, headers: fromUrl } = scrubUrl(text(entry.url, `${at}.url`), name, variables, notes, at);
      server = { url };
      const headers: Record<string, string> = { ...fromUrl };
      if (isRecord(entry.headers))
        for (const [key, raw] of Object.entries(entry.headers)) {
          const value = text(raw, `${at}.headers.${key}`);
          headers[key] = isSecretKey(key) || looksSecret(value) ? moveHeader(value, envName(`${name}_${key}`), name, variables) : value;
        }
      if (Object.keys(headers).length > 0) server.headers = headers;
      if (entry.type === 'sse' || entry.transport === 'sse')
        notes.push(`server "${name}" was an SSE server: imported as Streamable HTTP, the only HTTP transport lazytools speaks; check that ${url} answers Streamable HTTP (often at /mcp instead of /sse)`);
    } else {
      skipped.push(`${rawName} (neither "command" nor "url")`);
      continue;
    }
    for (const [where, value] of literalValues(server, at)) if (looksSecret(value)) warnings.push(`${where} looks like a secret and was kept as written: move it to an environment variable (\${NAME})`);
    servers[name] = server;
    groups[name] = { description: `All tools of ${name}`, servers: [name] };
  }
  return {
    rc: { $schema: 'node_modules/lazytools/lazytools.schema.json', servers, groups, defaultMode: 'development' },
    secrets: variables.names(),
    skipped,
    notes,
    warnings,
  };
}

/** The server entries of a client config, with a note saying where they came from. */
function serverEntries(json: unknown, file: string, cwd: string | undefined, notes: string[]): Array<[string, unknown]> {
  const root = (isRecord(json) ? json : {}) as { mcpServers?: unknown; servers?: unknown; projects?: unknown };
  const entries: Array<[string, unknown]> = [];
  const top = isRecord(root.mcpServers) ? root.mcpServers : isRecord(root.servers) ? root.servers : undefined;
  if (top) entries.push(...Object.entries(top));
  if (isRecord(root.projects)) {
    const projects = root.projects;
    const key = cwd !== undefined && hasOwn(projects, cwd) ? cwd : undefined;
    const project = key === undefined ? undefined : projects[key];
    const servers = isRecord(project) && isRecord(project.mcpServers) ? project.mcpServers : undefined;
    if (servers && Object.keys(servers).length > 0) {
      entries.push(...Object.entries(servers));
      notes.push(`took ${Object.keys(servers).length} server(s) of this project from projects["${key}"].mcpServers`);
    }
    const others = Object.entries(projects).filter(([name, value]) => name !== key && isRecord(value) && isRecord(value.mcpServers) && Object.keys(value.mcpServers).length > 0);
    if (others.length > 0) notes.push(`left out the servers of ${others.length} other project(s) in ${file} (run init in that project's folder)`);
  }
  if (entries.length === 0 && !top)
    throw new ConfigError(`expected "mcpServers" (or "servers", or "projects[<folder>].mcpServers" for ${cwd ?? 'this folder'}) with the MCP servers to import`, file);
  return entries;
}

/** Environment variable names the rc refers to, each bound to one value so servers stay distinct. */
class Variables {
  private readonly values = new Map<string, string>();

  /** `value` as a reference to a variable named `preferred` (or `<SERVER>_<preferred>` when taken). */
  move(value: string, preferred: string, server: string): string {
    if (/^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/.test(value)) return value;
    let name = preferred;
    const taken = this.values.get(name);
    if (taken !== undefined && taken !== value) {
      name = envName(`${server}_${preferred}`);
      for (let n = 2; this.values.has(name) && this.values.get(name) !== value; n++) name = envName(`${server}_${preferred}_${n}`);
    }
    this.values.set(name, value);
    return `\${${name}}`;
  }

  /** A reference the client config already made (VS Code `${env:X}`, `${input:x}`): kept, listed. */
  use(name: string): void {
    if (!this.values.has(name)) this.values.set(name, '');
  }

  names(): string[] {
    return [...this.values.keys()];
  }
}

/** A header value with its scheme word kept: `Bearer x` -> `Bearer ${NAME}`. */
function moveHeader(value: string, name: string, server: string, variables: Variables): string {
  const scheme = /^([A-Za-z][A-Za-z0-9_-]{0,20}) +(\S.*)$/.exec(value);
  if (scheme && !value.includes('${')) return `${scheme[1]} ${variables.move(scheme[2] as string, name, server)}`;
  if (value.includes('${')) return value;
  return variables.move(value, name, server);
}

/** `--api-key X`, `--token=X` and credentialed URLs in arguments become references. */
function scrubArgs(args: string[], server: string, variables: Variables): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = /^(--?[\w-]+)=(.*)$/.exec(arg);
    if (inline && isSecretKey(inline[1] as string) && !(inline[2] as string).startsWith('${')) {
      out.push(`${inline[1]}=${variables.move(inline[2] as string, envName(`${server}_${inline[1]}`), server)}`);
      continue;
    }
    const previous = out[out.length - 1];
    if (previous !== undefined && /^--?[\w-]+$/.test(previous) && isSecretKey(previous) && !previous.includes('=') && !arg.startsWith('-') && !arg.startsWith('${')) {
      out.push(variables.move(arg, envName(`${server}_${previous}`), server));
      continue;
    }
    out.push(/^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? scrubUrlCredentials(arg, server, variables) : arg);
  }
  return out;
}

/** A URL argument with its password and credential query values moved out. */
function scrubUrlCredentials(value: string, server: string, variables: Variables): string {
  let out = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:/@\s]*):([^@/\s]+)@/i, (whole, scheme: string, user: string, password: string) =>
    password.startsWith('${') ? whole : `${scheme}${user}:${variables.move(decodeSafe(password), envName(`${server}_PASSWORD`), server)}@`,
  );
  out = out.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, key: string, raw: string) =>
    isSecretParam(key) && raw !== '' && !raw.startsWith('${') ? `${sep}${key}=${variables.move(decodeSafe(raw), envName(`${server}_${key}`), server)}` : whole,
  );
  return out;
}

/**
 * A server URL: query credentials become references; `user:password@` cannot stay in the URL (the
 * gateway refuses it), so it moves to an Authorization header the user fills in.
 */
function scrubUrl(value: string, server: string, variables: Variables, notes: string[], at: string): { url: string; headers: Record<string, string> } {
  const userinfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+)@/i.exec(value);
  const url = scrubUrlCredentials(userinfo ? value.replace(userinfo[0], userinfo[1] as string) : value, server, variables);
  if (!userinfo) return { url, headers: {} };
  const name = envName(`${server}_BASIC_AUTH`);
  variables.use(name);
  notes.push(`${at}.url carried user:password@: removed; set ${name} to base64("user:password") for the Authorization header it now sends`);
  return { url, headers: { Authorization: `Basic \${${name}}` } };
}

/**
 * VS Code variables: `${env:X}` is our `${X}`; `${input:id}` (a prompt in VS Code) becomes
 * `${ID}`, to be set in the environment; `${workspaceFolder}` is the project folder, where the rc
 * lives and children start. Anything else `${...}` that is not ours is reported.
 */
function vscodeVariables(value: string, where: string, variables: Variables, notes: string[]): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
    if (env) {
      variables.use(env[1] as string);
      return `\${${env[1]}}`;
    }
    const input = /^input:(.+)$/.exec(inner);
    if (input) {
      const name = envName(input[1] as string);
      variables.use(name);
      notes.push(`${where}: VS Code input "${input[1]}" (prompted by VS Code) is read from \${${name}}`);
      return `\${${name}}`;
    }
    if (inner === 'workspaceFolder') {
      notes.push(`${where}: \${workspaceFolder} became "." (the rc's folder)`);
      return '.';
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?$/.test(inner)) {
      variables.use(inner.replace(/:-.*$/, ''));
      return whole;
    }
    notes.push(`${where}: "${whole}" is a client variable lazytools does not know; it was left as written`);
    return whole;
  });
}

/** Every literal string of a server (what could still hold a secret), with its key path. */
function literalValues(server: ServerConfig, at: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (server.command) out.push([`${at}.command`, server.command]);
  server.args?.forEach((arg, i) => out.push([`${at}.args[${i}]`, arg]));
  if (server.url) out.push([`${at}.url`, server.url]);
  return out.map(([where, value]) => [where, value.replace(/\$\{[^}]*\}/g, '')] as [string, string]).filter(([, value]) => value.length > 0);
}

/** A server name the rc accepts, distinct from those already taken (`a b` and `a-b` stay two). */
function uniqueName(raw: string, taken: Record<string, unknown>): string {
  const base = raw.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'server';
  let name = base;
  for (let n = 2; hasOwn(taken, name) || name === 'lazytools'; n++) name = `${base}-${n}`;
  return name;
}

/** An environment variable name: upper case, `_` for anything else. */
function envName(raw: string): string {
  const name = raw.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z_]/.test(name) ? name : `V_${name}`;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
