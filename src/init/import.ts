import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, echoName } from '../util/errors.js';
import { jsonFileRefusal } from '../util/json.js';
import { dictionary, hasOwn } from '../util/own.js';
import { MAX_NAME, type RcConfig, type ServerConfig } from '../config/schema.js';
import { isSecretKey, looksSecret } from '../config/secrets.js';
import { mcpRemoteEntry } from './mcp-remote.js';
import { envName, moveHeader, scrubArgs, scrubUrl, Variables, vscodeVariables } from './variables.js';
import { replaceBraced } from '../util/braces.js';

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
  /** Environment variables lazytools must have for the rc: set them before `lazytools serve` (the client entry's env). */
  secrets: string[];
  /** The secrets among them that init moved out of the file. */
  moved: string[];
  /** Variables the rc reads that need no setting: with a default, or set for every server a client starts (`HOME`). */
  optional: string[];
  skipped: string[];
  /** What the import changed on the way (renames, sse servers, VS Code variables, sources). */
  notes: string[];
  /** Values left as written that look like secrets: move them by hand. */
  warnings: string[];
}

export interface ImportOptions {
  /** The project folder: Claude Code's ~/.claude.json keeps its servers under `projects[<cwd>]`. */
  cwd?: string | undefined;
  /** Servers the client keeps but does not start (Claude Code's per-project lists): imported disabled. */
  disabled?: ReadonlySet<string> | undefined;
}

/** Where a client entry may give an HTTP server's address: most clients, Windsurf, Gemini CLI. */
const URL_KEYS = ['url', 'serverUrl', 'httpUrl'] as const;

/** Entry keys the import reads; any other key is reported, not silently dropped. */
const READ_KEYS = new Set<string>(['command', 'args', 'env', 'cwd', ...URL_KEYS, 'headers', 'type', 'transport', 'disabled']);

/** What to do instead, for keys of well-known clients that have no rc equivalent. */
const INSTEAD: ReadonlyMap<string, string> = new Map([['envFile', 'put its variables in "env" or in the environment lazytools runs in']]);

/**
 * Turns a client's MCP config (`mcpServers` of Claude Desktop, Cursor and Claude Code, including
 * Claude Code's per-project `projects[<cwd>].mcpServers`, or `servers` of VS Code) into an rc: the
 * same servers and the preset modes, no group of its own: placement puts each tool where its name
 * and description say and names the closest groups of the others, where a group per server put
 * every tool in one group no mode used. No value that may be a secret is copied: env and header
 * values that are secrets (by key or value, see secrets.ts) become `${NAME}` references (keeping a header's scheme word, as in `Bearer ${NAME}`), and so do credentials in
 * known argument and URL forms (`--api-key X`, `scheme://user:pass@`, `?apiKey=`); other values
 * (paths, flags, log levels) stay, so one unset variable does not stop a server for a path; other
 * secret-looking values are reported.
 */
export function importServers(json: unknown, file: string, options: ImportOptions = {}): ImportedServers {
  const notes: string[] = [];
  const { entries, disabled: listed } = serverEntries(json, file, options.cwd, notes);
  const disabledNames = new Set([...listed, ...(options.disabled ?? [])]);
  const servers: Record<string, ServerConfig> = dictionary();
  const variables = new Variables();
  const skipped: string[] = [];
  const warnings: string[] = [];
  const disabled: string[] = [];
  const suffixes = new Map<string, number>();
  // Names taken, lower-cased: the rc refuses names that differ only in case (globs match any case).
  const taken = new Set<string>();
  for (const [rawName, value] of entries) {
    const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    // mcp-remote bridges to a remote server and signs in itself: imported as that server.
    const remote = mcpRemoteEntry(given);
    const entry = remote?.entry ?? given;
    if (rawName === 'lazytools' || (Array.isArray(entry.args) && entry.args.includes('lazytools'))) {
      skipped.push(`${echoName(rawName)} (lazytools itself)`);
      continue;
    }
    const name = uniqueName(rawName, taken, suffixes);
    if (name !== rawName) notes.push(`server "${echoName(rawName)}" is named "${name}" (letters, digits, "_", "-" and "." only, names kept distinct)`);
    const at = `servers.${name}`;
    const text = (raw: unknown, where: string) => vscodeVariables(String(raw), where, variables, notes);
    const field = <T>(key: string, expected: string, ok: (raw: unknown) => raw is T): T | undefined => {
      const raw = entry[key];
      if (raw === undefined || ok(raw)) return raw as T | undefined;
      // Said by type, never by value: a misshapen env or headers is where the client kept its secrets.
      warnings.push(`${at}.${key}: expected ${expected}, got ${kindOf(raw)}: left out, so the server may not start as it did in the client`);
      return undefined;
    };
    const urlKey = URL_KEYS.find((key) => typeof entry[key] === 'string');
    let server: ServerConfig;
    if (typeof entry.command === 'string') {
      server = { command: text(entry.command, `${at}.command`) };
      const args = field('args', 'an array of strings', Array.isArray);
      if (args) server.args = scrubArgs(args.map((arg, i) => text(arg, `${at}.args[${i}]`)), name, variables);
      const envs = field('env', 'an object of strings', isRecord);
      if (envs) {
        const env: Record<string, string> = {};
        for (const [key, raw] of Object.entries(envs)) {
          const value = text(raw, `${at}.env.${key}`);
          env[key] = isSecretKey(key) || looksSecret(value) ? variables.move(value, envName(key), name) : value;
        }
        server.env = env;
      }
      if (typeof entry.cwd === 'string') server.cwd = text(entry.cwd, `${at}.cwd`);
    } else if (urlKey !== undefined) {
      const { url, headers: fromUrl } = scrubUrl(text(entry[urlKey], `${at}.url`), name, variables, notes, at);
      server = { url };
      const headers: Record<string, string> = { ...fromUrl };
      const given = field('headers', 'an object of strings', isRecord);
      if (given)
        for (const [key, raw] of Object.entries(given)) {
          const value = text(raw, `${at}.headers.${key}`);
          headers[key] = isSecretKey(key) || looksSecret(value) ? moveHeader(value, envName(`${name}_${key}`), name, variables) : value;
        }
      if (Object.keys(headers).length > 0) server.headers = headers;
      if (entry.type === 'sse' || entry.transport === 'sse' || remote?.transport === 'sse') {
        server.transport = 'sse';
        notes.push(`server "${name}" is an HTTP+SSE server: imported with "transport": "sse"`);
      } else if (remote?.transport) server.transport = remote.transport;
      // A fixed Authorization header replaces a sign-in (the rc cannot hold both).
      const fixed = Object.keys(headers).some((key) => key.toLowerCase() === 'authorization');
      // The client signed in to a bare URL itself; lazytools cannot use that sign-in and needs its own.
      if (!remote && !fixed) notes.push(`server "${name}" is a remote server without an Authorization header: if it asks for a sign-in, run lazytools auth ${name} once (the client's own sign-in is not shared with lazytools)`);
      if (remote) {
        const { clientSecret, ...oauth } = remote.oauth ?? {};
        if (remote.oauth && !fixed) server.oauth = { ...oauth, ...(clientSecret ? { clientSecret: variables.move(clientSecret, envName(`${name}_CLIENT_SECRET`), name) } : {}) };
        const dropped = [...remote.dropped, ...(remote.oauth && fixed ? ['OAuth client'] : [])];
        const how = fixed ? 'it sends its Authorization header instead of signing in' : `lazytools signs in to it itself: run lazytools auth ${name}`;
        notes.push(`server "${name}" ran mcp-remote for ${url}: imported as that remote server${dropped.length > 0 ? ` (its ${dropped.join(', ')} not imported)` : ''}; ${how}`);
      }
    } else {
      skipped.push(`${echoName(rawName)} (neither "command" nor "url")`);
      continue;
    }
    if (entry.disabled === true || disabledNames.has(rawName)) {
      server.disabled = true;
      disabled.push(name);
    }
    for (const key of Object.keys(entry).filter((key) => !READ_KEYS.has(key)))
      notes.push(`${at}: "${echoName(key)}" was not imported (lazytools has no such setting)${INSTEAD.has(key) ? `; ${INSTEAD.get(key)}` : ''}`);
    for (const [where, value] of literalValues(server, at)) if (looksSecret(value)) warnings.push(`${where} looks like a secret and was kept as written: move it to an environment variable (\${NAME})`);
    servers[name] = server;
    taken.add(name.toLowerCase());
  }
  // A disabled server's variables are asked for once it is enabled: `serve` never reads them before.
  const refers = (list: ServerConfig[], name: string) => JSON.stringify(list).includes(`\${${name}}`) || JSON.stringify(list).includes(`\${${name}:-`);
  const off = Object.values(servers).filter((server) => server.disabled === true);
  const on = Object.values(servers).filter((server) => server.disabled !== true);
  const later = variables.needed().filter((name) => refers(off, name) && !refers(on, name));
  if (disabled.length > 0)
    notes.push(`${disabled.join(', ')}: disabled in the client, imported with "disabled": true (lazytools starts and lists them once you remove it)${later.length > 0 ? `; then set ${later.join(', ')}` : ''}`);
  return {
    rc: { servers, defaultMode: 'development' },
    secrets: variables.needed().filter((name) => !later.includes(name)),
    moved: variables.moved(),
    optional: variables.optional(),
    skipped,
    notes,
    warnings,
  };
}

/**
 * The server entries of a client config, with a note saying where they came from, and the names a
 * Claude Code project entry disables (`disabledMcpServers`, `disabledMcpjsonServers`).
 */
function serverEntries(json: unknown, file: string, cwd: string | undefined, notes: string[]): { entries: Array<[string, unknown]>; disabled: string[] } {
  const root = (isRecord(json) ? json : {}) as { mcpServers?: unknown; servers?: unknown; projects?: unknown };
  const entries: Array<[string, unknown]> = [];
  const top = isRecord(root.mcpServers) ? root.mcpServers : isRecord(root.servers) ? root.servers : undefined;
  if (top) entries.push(...Object.entries(top));
  let disabled: string[] = [];
  if (isRecord(root.projects)) {
    const projects = root.projects;
    const key = cwd !== undefined && hasOwn(projects, cwd) ? cwd : undefined;
    const project = key === undefined ? undefined : projects[key];
    const servers = isRecord(project) && isRecord(project.mcpServers) ? project.mcpServers : undefined;
    if (servers && Object.keys(servers).length > 0) {
      entries.push(...Object.entries(servers));
      notes.push(`took ${Object.keys(servers).length} server(s) of this project from projects["${key}"].mcpServers`);
    }
    disabled = disabledIn(project);
    const others = Object.entries(projects).filter(([name, value]) => name !== key && isRecord(value) && isRecord(value.mcpServers) && Object.keys(value.mcpServers).length > 0);
    if (others.length > 0) notes.push(`left out the servers of ${others.length} other project(s) in ${file} (run init in that project's folder)`);
  }
  if (entries.length === 0 && !top)
    throw new ConfigError(`expected "mcpServers" (or "servers", or "projects[<folder>].mcpServers" for ${cwd ?? 'this folder'}) with the MCP servers to import`, file);
  return { entries, disabled };
}

/** Server names a Claude Code project entry of ~/.claude.json turns off (its `/mcp` toggles and rejected `.mcp.json` servers). */
function disabledIn(project: unknown): string[] {
  if (!isRecord(project)) return [];
  return [project.disabledMcpServers, project.disabledMcpjsonServers].flatMap((list) => (Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : []));
}

/**
 * Claude Code's `.mcp.json` (project scope) with the servers Claude Code also starts in `cwd` from
 * ~/.claude.json: user scope (its top-level `mcpServers`) and local scope (`projects[cwd]`), a
 * name in several scopes taken as Claude Code does (local, then project, then user); and the
 * names it keeps off: those turned off there, and the `.mcp.json` servers it has not approved for
 * this folder (it asks before starting one: `enabledMcpjsonServers`, `enableAllProjectMcpServers`
 * in ~/.claude.json's project entry, ~/.claude/settings.json or the folder's own
 * .claude/settings.local.json; never the committed .claude/settings.json, which a pull request
 * may write). An unreadable or foreign file adds nothing.
 */
export function withClaudeCodeScopes(json: unknown, cwd: string, home = os.homedir()): { json: unknown; disabled: Set<string>; notes: string[] } {
  const claude = readJsonQuietly(path.join(home, '.claude.json'));
  const projects = isRecord(claude) && isRecord(claude.projects) ? claude.projects : {};
  const project = hasOwn(projects, cwd) ? projects[cwd] : undefined;
  const user = isRecord(claude) && isRecord(claude.mcpServers) ? claude.mcpServers : {};
  const local = isRecord(project) && isRecord(project.mcpServers) ? project.mcpServers : {};
  const disabled = new Set(disabledIn(project));
  const notes: string[] = [];
  const shared = isRecord(json) && isRecord(json.mcpServers) ? json.mcpServers : {};
  const approvals = [project, readJsonQuietly(path.join(home, '.claude', 'settings.json')), readJsonQuietly(path.join(cwd, '.claude', 'settings.local.json'))];
  const all = approvals.some((source) => isRecord(source) && source.enableAllProjectMcpServers === true);
  const approved = new Set(approvals.flatMap((source) => (isRecord(source) && Array.isArray(source.enabledMcpjsonServers) ? source.enabledMcpjsonServers.filter((name): name is string => typeof name === 'string') : [])));
  const unapproved = all ? [] : Object.keys(shared).filter((name) => !approved.has(name) && !hasOwn(local, name) && !disabled.has(name));
  for (const name of unapproved) disabled.add(name);
  if (unapproved.length > 0)
    notes.push(`${unapproved.join(', ')}: in .mcp.json but not approved in Claude Code for this folder (enabledMcpjsonServers or enableAllProjectMcpServers), so imported disabled like Claude Code keeps them`);
  if (!isRecord(json) || Object.keys(user).length + Object.keys(local).length === 0) return { json, disabled, notes };
  const mcpServers = dictionary([...Object.entries(user), ...Object.entries(shared), ...Object.entries(local)]);
  notes.unshift(`also took the servers Claude Code starts here from ${path.join(home, '.claude.json')}: ${Object.keys(user).length} of user scope, ${Object.keys(local).length} of local scope (a name in several scopes as Claude Code takes it: local, project, user)`);
  return { json: { ...json, mcpServers }, disabled, notes };
}

/**
 * A JSON file's value, or undefined when it cannot be read or parsed, or is no regular file of at
 * most MAX_JSON_FILE_BYTES (jsonFileRefusal; a folder's `.claude/settings.local.json` may be a committed link to `/dev/zero`).
 */
function readJsonQuietly(file: string): unknown {
  try {
    if (jsonFileRefusal(statSync(file))) return undefined;
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Every literal string of a server (what could still hold a secret), with its key path. */
function literalValues(server: ServerConfig, at: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (server.command) out.push([`${at}.command`, server.command]);
  server.args?.forEach((arg, i) => out.push([`${at}.args[${i}]`, arg]));
  if (server.url) out.push([`${at}.url`, server.url]);
  return out.map(([where, value]) => [where, replaceBraced(value, /\$\{[^}]*\}/g, () => '')] as [string, string]).filter(([, value]) => value.length > 0);
}

/**
 * A server name the rc accepts, distinct from those already taken (`a b` and `a-b` stay two) in
 * any case (`ok` and `OK` stay two: `OK-2`). `taken`: the names taken, lower-cased. `suffixes`
 * remembers each base's next suffix, so many names of one base cost linear time.
 */
function uniqueName(raw: string, taken: ReadonlySet<string>, suffixes: Map<string, number>): string {
  // Room for a "-NN" suffix within the rc's longest name.
  const base = raw.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, MAX_NAME - 4) || 'server';
  let name = base;
  let n = suffixes.get(base) ?? 2;
  while (taken.has(name.toLowerCase()) || name === 'lazytools') name = `${base}-${n++}`;
  suffixes.set(base, n);
  return name;
}

/** What a misshapen value is, without its content: `a string`, `an array of 2 items`. */
function kindOf(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
