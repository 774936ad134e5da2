// `hybrid` vs `auto` per client: does `strategy: auto` serve every tested client better, as the
// default? For each client of the README's client table that the
// suite can run from npm (Claude Desktop through mcp-remote, the bridge it uses for HTTP servers; the
// SDK client under the `clientInfo.name` Cursor, VS Code and Claude Code send; the Vercel AI SDK's
// client), one gateway per strategy over the three reference servers with a `notes` mode (memory
// only) as the default, and a tool outside that mode (everything's `echo`) to reach:
// - the first tools/list: tools and o200k tokens;
// - whether the client reaches `echo` the way it can: a client that ignores list_changed (README
//   table) calls only what its first list holds, so it needs `echo` or `execute_tool` there; one that
//   acts on it may search with `enable` and call `echo` from its refreshed list.
//
//   node bench/strategy-clients.mjs            (needs a build: npm run build)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createMCPClient } from '@ai-sdk/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countToolTokens } from '../dist/util/tokens.js';
import { BIN, ROOT, project } from './lib.mjs';

const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
const TARGET = 'echo';

/** Clients: how they connect, the name they send, and whether they act on list_changed (README table). */
const CLIENTS = [
  { client: 'Claude Desktop (mcp-remote bridge)', name: 'claude-ai', via: 'mcp-remote', relists: false },
  { client: 'Cursor', name: 'cursor-vscode', via: 'sdk', relists: false },
  { client: 'Claude Code', name: 'claude-code', via: 'sdk', relists: false },
  { client: 'VS Code Copilot', name: 'Visual Studio Code', via: 'sdk', relists: true },
  { client: 'Vercel AI SDK (@ai-sdk/mcp 1.x)', name: 'ai-sdk-mcp-client', via: 'ai-sdk', relists: true },
];

async function gateway(strategy) {
  const { dir } = project(['everything', 'memory', 'filesystem'], {
    groups: { notes: { servers: ['memory'] } },
    modes: { notes: { description: 'Knowledge graph notes', groups: ['notes'] } },
    defaultMode: 'notes',
    strategy,
  });
  const child = spawn(process.execPath, [BIN, 'serve', '--http', '127.0.0.1:0'], { cwd: dir, env: { ...process.env, LAZYTOOLS_QUIET: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`gateway exited: ${stderr}`)));
  });
  return { url, dir, close: () => child.kill('SIGTERM') };
}

/** A uniform face over the three client kinds: list, call. */
async function connect(profile, url, dir) {
  if (profile.via === 'ai-sdk') {
    const client = await createMCPClient({ transport: { type: 'http', url } });
    return {
      list: () => client.listTools(),
      call: async (name, args) => (await client.tools())[name]?.execute(args, { toolCallId: name, messages: [] }),
      close: () => client.close(),
    };
  }
  const client = new Client({ name: profile.name, version: '1.0.0' });
  const transport =
    profile.via === 'mcp-remote'
      ? new StdioClientTransport({ command: process.execPath, args: [MCP_REMOTE, url, '--transport', 'http-only'], env: { ...process.env, MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth') }, stderr: 'ignore' })
      : new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { list: () => client.listTools(), call: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

const ok = (result) => result !== undefined && !result.isError && JSON.stringify(result.content ?? '').includes('reach');

/** The client's path to `echo`, using only tools its list holds (refreshed only if it re-lists). */
async function reach(profile, session, first) {
  let known = first.map((tool) => tool.name);
  const steps = [];
  if (known.includes(TARGET)) return { reached: ok(await session.call(TARGET, { message: 'reach' })), path: 'listed', steps: 1 };
  if (!known.includes('search_tools')) return { reached: false, path: 'no search_tools', steps: 0 };
  const found = await session.call('search_tools', { query: 'echo a message back', ...(profile.relists ? { enable: true } : {}) });
  steps.push('search_tools');
  if (!JSON.stringify(found).includes(TARGET)) return { reached: false, path: 'search missed it', steps: steps.length };
  if (profile.relists) {
    known = (await session.list()).tools.map((tool) => tool.name);
    if (known.includes(TARGET)) return { reached: ok(await session.call(TARGET, { message: 'reach' })), path: 'search, re-list, call', steps: 3 };
  }
  if (known.includes('execute_tool')) return { reached: ok(await session.call('execute_tool', { name: TARGET, arguments: { message: 'reach' } })), path: 'search, execute_tool', steps: 2 };
  return { reached: false, path: 'found but not callable from its list', steps: steps.length };
}

/** Calls the client makes to use a tool of its mode (memory's read_graph): 1 when listed. */
async function modeToolCalls(session, first) {
  if (first.some((tool) => tool.name === 'read_graph')) return ok2(await session.call('read_graph', {})) ? 1 : undefined;
  const found = await session.call('search_tools', { query: 'read the knowledge graph' });
  if (!JSON.stringify(found).includes('read_graph')) return undefined;
  return ok2(await session.call('execute_tool', { name: 'read_graph', arguments: {} })) ? 2 : undefined;
}
const ok2 = (result) => result !== undefined && !result.isError;

export async function strategyClients() {
  const rows = [];
  for (const strategy of ['hybrid', 'auto']) {
    const served = await gateway(strategy);
    try {
      for (const profile of CLIENTS) {
        const session = await connect(profile, served.url, served.dir);
        try {
          const first = (await session.list()).tools;
          const tokens = first.reduce((sum, tool) => sum + countToolTokens(tool), 0);
          const modeTool = await modeToolCalls(session, first);
          rows.push({ client: profile.client, strategy, firstListTools: first.length, firstListTokens: tokens, modeToolCalls: modeTool, ...(await reach(profile, session, first)) });
        } finally {
          await session.close();
        }
      }
    } finally {
      served.close();
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await strategyClients();
  console.log('| client | strategy | first list: tools | tokens | calls to use a mode tool | reaches a tool outside the mode | how |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.client} | ${r.strategy} | ${r.firstListTools} | ${r.firstListTokens} | ${r.modeToolCalls ?? 'no'} | ${r.reached ? 'yes' : 'no'} | ${r.path} |`);
  process.exit(0);
}
