import path from 'node:path';
import type { ClientName } from '../init/import.js';
import { packageRoot } from '../util/root.js';

/** How a client starts lazytools: a command and its leading arguments. */
export interface Launch {
  command: string;
  args: string[];
}

/**
 * The command a client should run to start this lazytools. From an install (global, a project's
 * node_modules, a git checkout): the absolute path of node and of the bundled CLI, because desktop
 * clients start servers with a bare PATH (no nvm, no project bin folder) and `npx lazytools` would
 * ask the registry. From npx's cache, which npm may empty at any time: `npx -y lazytools`.
 */
export function launchCommand(root = packageRoot(), node = process.execPath): Launch {
  if (root.split(/[\\/]/).includes('_npx')) return { command: 'npx', args: ['-y', 'lazytools'] };
  return { command: node, args: [path.join(root, 'dist', 'cli', 'lazytools.mjs')] };
}

/** Where each client's MCP servers are configured, for the line above its snippet. */
const WHERE: Record<ClientName, string> = {
  'claude-desktop': 'Claude Desktop (claude_desktop_config.json, replacing its "mcpServers")',
  cursor: 'Cursor (.cursor/mcp.json, replacing its "mcpServers")',
  vscode: 'VS Code (.vscode/mcp.json, replacing its "servers")',
  'claude-code': 'Claude Code (run in the project folder, after removing the imported servers with `claude mcp remove NAME`)',
};

/**
 * A client's entry for a stdio gateway, in that client's own format, with an `env` block naming
 * every variable the rc reads: `<NAME>` placeholders to fill in (VS Code prompts for them through
 * `inputs` instead, so they stay out of the file).
 */
export function stdioSnippet(client: ClientName, launch: Launch, args: string[], variables: readonly string[]): string {
  const all = [...launch.args, ...args];
  if (client === 'claude-code') {
    const env = variables.map((name) => `--env ${quote(`${name}=<${name}>`)}`);
    // Local scope (Claude Code's own default, kept in ~/.claude.json for this project): the entry
    // holds this machine's absolute paths and the secrets filled in for `<NAME>`, which a
    // project-scope `.mcp.json` would put in a file teams commit.
    return ['claude mcp add --scope local', ...env, 'lazytools', '--', quote(launch.command), ...all.map(quote)].join(' ');
  }
  if (client === 'vscode') {
    const env = Object.fromEntries(variables.map((name) => [name, `\${input:${name}}`]));
    const inputs = variables.map((name) => ({ type: 'promptString', id: name, description: name, password: true }));
    const server = { type: 'stdio', command: launch.command, args: all, ...(variables.length > 0 ? { env } : {}) };
    return JSON.stringify({ ...(inputs.length > 0 ? { inputs } : {}), servers: { lazytools: server } }, null, 2);
  }
  const env = Object.fromEntries(variables.map((name) => [name, `<${name}>`]));
  return JSON.stringify({ mcpServers: { lazytools: { command: launch.command, args: all, ...(variables.length > 0 ? { env } : {}) } } }, null, 2);
}

/**
 * Each client's entry for an HTTP gateway at `url`. With a bearer token the entries never hold the
 * token: each names `LAZYTOOLS_TOKEN` in the syntax its client expands. Claude Code reads
 * `${LAZYTOOLS_TOKEN}` from its environment; Cursor expands only `${env:NAME}` (a bare `${NAME}`
 * is sent as written, a 401); Claude Desktop starts mcp-remote without the shell's environment, so
 * the variable mcp-remote expands in `--header` goes in the entry's `env`, a `<NAME>` to fill in as
 * in the stdio entries; VS Code prompts for a password `input`, as its stdio entry does.
 */
export function httpSnippets(url: string, token: boolean): Array<{ client: string; snippet: string }> {
  const bearer = (variable: string) => `Bearer ${variable}`;
  const desktop = token ? { args: ['-y', 'mcp-remote', url, '--header', `Authorization:${bearer('${LAZYTOOLS_TOKEN}')}`], env: { LAZYTOOLS_TOKEN: '<LAZYTOOLS_TOKEN>' } } : { args: ['-y', 'mcp-remote', url] };
  const input = { type: 'promptString', id: 'lazytools-token', description: 'lazytools bearer token (LAZYTOOLS_TOKEN)', password: true };
  return [
    { client: 'Claude Code', snippet: `claude mcp add --transport http lazytools ${url}${token ? ` --header ${quote(`Authorization: ${bearer('${LAZYTOOLS_TOKEN}')}`)}` : ''}` },
    { client: 'Claude Desktop', snippet: JSON.stringify({ mcpServers: { lazytools: { command: 'npx', ...desktop } } }) },
    { client: 'Cursor', snippet: JSON.stringify({ mcpServers: { lazytools: { url, ...(token ? { headers: { Authorization: bearer('${env:LAZYTOOLS_TOKEN}') } } : {}) } } }) },
    {
      client: 'VS Code',
      snippet: JSON.stringify({ ...(token ? { inputs: [input] } : {}), servers: { lazytools: { type: 'http', url, ...(token ? { headers: { Authorization: bearer('${input:lazytools-token}') } } : {}) } } }),
    },
  ];
}

/** The heading line of a client's stdio snippet. */
export function snippetHeading(client: ClientName): string {
  return `${WHERE[client]}:`;
}

/** A shell word, quoted only when it needs to be. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
