import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliStdio, runCli, serverEntry, tempTree, text } from '../harness/index.js';

/**
 * Client configs as people write them, imported with
 * `init`, then `status` and `groups` on the result, through the real CLI. Each case is a stumble
 * found by doing it: a disabled server imported as enabled, `HOME=<HOME>` in the client entry, keys
 * dropped without a word, `groups --tool` answering nothing for a typo.
 */

const NO_PROXY_ENV = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };
/** The CLI in `cwd` with an empty home, so a developer's own client configs stay out. */
const lazytools = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const home = tempTree({});
  return runCli(args, { cwd, env: { ...NO_PROXY_ENV, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: path.join(home, 'AppData'), ...env } });
};

interface Rc {
  servers: Record<string, { url?: string; args?: string[]; disabled?: boolean; env?: Record<string, string> }>;
}
const rcOf = (dir: string, file = '.lazytoolsrc.json') => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Rc;
/** The env block of the Claude Desktop / Cursor entry init prints on stdout. */
const entryEnv = (stdout: string) => (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { mcpServers: { lazytools: { env?: Record<string, string> } } }).mcpServers.lazytools.env ?? {};

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });

describe('init keeps servers the client has turned off turned off', () => {
  const desktop = {
    mcpServers: {
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
      github: { command: 'docker', args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789' }, disabled: true },
    },
  };

  it('"disabled": true (Claude Desktop, Cursor) is imported, said, and its secret is not asked of the client entry', () => {
    const dir = tempTree({ 'package.json': '{}', 'claude_desktop_config.json': JSON.stringify(desktop) });
    const { code, stdout, stderr } = lazytools(['init', '--from', 'claude_desktop_config.json'], dir);
    expect(code).toBe(0);
    expect(rcOf(dir).servers.github?.disabled).toBe(true);
    expect(rcOf(dir).servers.memory?.disabled).toBeUndefined();
    expect(stderr).toContain('github: disabled in the client, imported with "disabled": true');
    expect(stderr).toContain('then set GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(entryEnv(stdout)).toEqual({});
    // Hints are for servers that will run: no container engine to pass through for it yet.
    expect(stderr).not.toContain('github needs your container engine');
    expect(stderr).not.toMatch(/github: placed tool by tool|"github"\]/);
    expect(stdout + stderr).not.toContain('ghp_aBcDeF');
  });

  it('status on a lock without the disabled server does not call its group a mistake', () => {
    const catalog = { servers: { memory: { tools: [tool('create_entities', 'Create entities in the knowledge graph'), tool('read_graph', 'Read the knowledge graph')] } } };
    const dir = tempTree({ 'package.json': '{}', 'claude_desktop_config.json': JSON.stringify(desktop), 'tools.json': JSON.stringify(catalog) });
    expect(lazytools(['init', '--from', 'claude_desktop_config.json'], dir).code).toBe(0);
    // A group of the disabled server's tools, as a user writes one.
    const rc = JSON.parse(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')) as { groups?: Record<string, unknown> };
    rc.groups = { ...rc.groups, github: { servers: ['github'] } };
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
    const status = lazytools(['status', '--catalog', 'tools.json'], dir);
    expect(status.code).toBe(0);
    expect(status.stderr).not.toContain('matching no tool');
    // A group whose filter matches nothing is still reported.
    rc.groups.typo = { servers: ['memroy'] };
    const typo = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc), 'tools.json': JSON.stringify(catalog) });
    expect(lazytools(['status', '--catalog', 'tools.json'], typo).stderr).toContain('group(s) matching no tool: typo');
  });

  it('Claude Code: .mcp.json plus the user and local scope servers of ~/.claude.json, those it turns off imported disabled', () => {
    const home = tempTree({});
    const dir = tempTree({
      'package.json': '{}',
      '.mcp.json': JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['memory'] }, everything: { command: 'npx', args: ['everything'] }, sqlite: { command: 'npx', args: ['sqlite'] } } }),
    });
    const claude = {
      mcpServers: { search: { command: 'npx', args: ['search-mcp'] }, memory: { command: 'npx', args: ['user-memory'] } },
      projects: {
        [dir]: { mcpServers: { notes: { command: 'npx', args: ['notes-mcp'] } }, enabledMcpjsonServers: ['memory'], disabledMcpjsonServers: ['everything'], disabledMcpServers: ['sqlite'] },
        '/elsewhere': { mcpServers: { other: { command: 'x' } }, disabledMcpjsonServers: ['memory'] },
      },
    };
    writeFileSync(path.join(home, '.claude.json'), JSON.stringify(claude));
    const { code, stderr } = lazytools(['init', '--from', 'claude-code'], dir, { HOME: home, USERPROFILE: home });
    expect(code).toBe(0);
    const servers = rcOf(dir).servers;
    expect(Object.keys(servers).sort()).toEqual(['everything', 'memory', 'notes', 'search', 'sqlite']);
    // The project's memory wins over the user's, as in Claude Code.
    expect(servers.memory?.args).toEqual(['memory']);
    expect([servers.memory?.disabled, servers.everything?.disabled, servers.sqlite?.disabled, servers.notes?.disabled]).toEqual([undefined, true, true, undefined]);
    expect(stderr).toContain('2 of user scope, 1 of local scope');
  });

  it('Claude Code: .mcp.json servers it has not approved for the folder are imported disabled, saying so', () => {
    const shared = { mcpServers: { memory: { command: 'npx', args: ['memory'] }, everything: { command: 'npx', args: ['everything'] } } };
    const disabledOf = (files: Record<string, string>, claude: unknown) => {
      const home = tempTree({});
      const dir = tempTree({ 'package.json': '{}', '.mcp.json': JSON.stringify(shared), ...files });
      if (claude !== undefined) writeFileSync(path.join(home, '.claude.json'), JSON.stringify(typeof claude === 'function' ? (claude as (dir: string) => unknown)(dir) : claude));
      const { code, stderr } = lazytools(['init', '--from', 'claude-code'], dir, { HOME: home, USERPROFILE: home });
      expect(code, stderr).toBe(0);
      const servers = rcOf(dir).servers;
      return { disabled: Object.keys(servers).filter((name) => servers[name]?.disabled === true).sort(), stderr };
    };
    // Never run in Claude Code here: nothing approved.
    const none = disabledOf({}, undefined);
    expect(none.disabled).toEqual(['everything', 'memory']);
    expect(none.stderr).toMatch(/memory, everything: in \.mcp\.json but not approved in Claude Code for this folder/);
    expect(disabledOf({}, (dir: string) => ({ projects: { [dir]: { enabledMcpjsonServers: ['memory'] } } })).disabled).toEqual(['everything']);
    expect(disabledOf({}, (dir: string) => ({ projects: { [dir]: { enableAllProjectMcpServers: true } } })).disabled).toEqual([]);
    expect(disabledOf({ '.claude/settings.local.json': JSON.stringify({ enabledMcpjsonServers: ['everything'] }) }, undefined).disabled).toEqual(['memory']);
    // The committed project settings approve nothing: a pull request could write them.
    expect(disabledOf({ '.claude/settings.json': JSON.stringify({ enableAllProjectMcpServers: true }) }, undefined).disabled).toEqual(['everything', 'memory']);
  });
});

describe('init asks the client entry only for variables lazytools needs', () => {
  it('${HOME} and ${VAR:-default} from the client config are not placeholders to fill in; ${VAR} without a default is', () => {
    const mcp = {
      mcpServers: {
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '${MEMORY_FILE:-./data/memory.jsonl}' } },
        k8s: { command: 'npx', args: ['-y', 'mcp-server-kubernetes'], env: { KUBECONFIG: '${HOME}/.kube/config' } },
        search: { command: 'npx', args: ['-y', 'search-mcp'], env: { SEARCH_API_KEY: '${SEARCH_API_KEY}' } },
      },
    };
    // Approved in Claude Code (the folder's local settings): imported enabled.
    const dir = tempTree({ 'package.json': '{}', '.mcp.json': JSON.stringify(mcp), '.claude/settings.local.json': JSON.stringify({ enableAllProjectMcpServers: true }) });
    const { code, stdout, stderr } = lazytools(['init', '--from', '.mcp.json'], dir, { HOME: tempTree({}) });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^claude mcp add --scope local --env 'SEARCH_API_KEY=<SEARCH_API_KEY>' lazytools -- /m);
    expect(stdout).not.toContain('HOME=');
    expect(stdout).not.toContain('MEMORY_FILE=');
    expect(stderr).toContain('set them in your environment: SEARCH_API_KEY\n');
    expect(stderr).toContain('(no need to set them): MEMORY_FILE, HOME');
    expect(stderr).not.toContain('moved out of the file');
    // The references stay as the client wrote them.
    expect(rcOf(dir).servers.k8s?.env).toEqual({ KUBECONFIG: '${HOME}/.kube/config' });
  });
});

describe('init reads client configs as their clients write them', () => {
  it('VS Code and Cursor mcp.json are JSONC: comments and trailing commas import, strings keep their slashes and commas', () => {
    const jsonc = ['{', '  // servers for this repo', '  "servers": {', '    "fs": { "command": "npx", "args": ["-y", "fs-mcp", "http://x//y", "a,}"], }, /* more later */', '  },', '}', ''].join('\n');
    const dir = tempTree({ 'package.json': '{}', '.vscode/mcp.json': jsonc });
    const { code, stderr } = lazytools(['init', '--from', 'vscode'], dir);
    expect(code, stderr).toBe(0);
    expect(rcOf(dir).servers.fs?.args).toEqual(['-y', 'fs-mcp', 'http://x//y', 'a,}']);
  });

  it('JSONC with characters outside the BMP (an emoji) before a comment: the comment, not what follows, is blanked', () => {
    const jsonc = ['{', '  "servers": {', '    "fs": { "command": "npx", "args": ["-y", "fs-mcp", "🗂️ files"], }, // 🗂️ the repo\'s files', '    "web": { "url": "https://mcp.example.test/mcp" }, /* 🌐 */', '  },', '}', ''].join('\n');
    const dir = tempTree({ 'package.json': '{}', '.vscode/mcp.json': jsonc });
    const { code, stderr } = lazytools(['init', '--from', 'vscode'], dir);
    expect(code, stderr).toBe(0);
    expect(rcOf(dir).servers.fs?.args).toEqual(['-y', 'fs-mcp', '🗂️ files']);
    expect(rcOf(dir).servers.web?.url).toBe('https://mcp.example.test/mcp');
  });

  it('names, keys and entries of any length in the client config are cut in what init prints', () => {
    const big = 'n'.repeat(200_000);
    const dir = tempTree({ 'package.json': '{}', 'client.json': JSON.stringify({ mcpServers: { [`${big}!`]: { command: 'npx', [big]: 1 }, [`y${big}`]: { foo: 1 } } }) });
    const { code, stderr } = lazytools(['init', '--from', 'client.json'], dir);
    expect(code, stderr.slice(0, 500)).toBe(0);
    // The client's name is cut in the note (echoName), so the name it became still shows.
    expect(stderr).toContain('[name cut by lazytools at 200 characters]" is named "');
    expect(stderr.length).toBeLessThan(20_000);
    const none = tempTree({ 'package.json': '{}', 'client.json': JSON.stringify({ mcpServers: { [`y${big}`]: { foo: 1 } } }) });
    const refused = lazytools(['init', '--from', 'client.json'], none);
    expect(refused.code).toBe(2);
    expect(refused.stderr.length).toBeLessThan(5_000);
  });

  it('a config that is not JSON names the line and column', () => {
    const dir = tempTree({ 'package.json': '{}', 'client.json': ['{', '  "mcpServers": {', '    "a": { "command": "x" }', '  ]', '}'].join('\n') });
    const { code, stderr } = lazytools(['init', '--from', 'client.json'], dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/client\.json: invalid JSON: .* \(line 4, column 3\)/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('init says what it could not carry over', () => {
  it('keys lazytools has no setting for, and values of the wrong type, are reported by key path', () => {
    const vscode = {
      servers: {
        pg: { type: 'stdio', command: 'npx', args: ['-y', 'pg-mcp'], envFile: '${workspaceFolder}/.env' },
        odd: { command: 'node', args: 'server.mjs', env: ['A=1'] },
      },
    };
    const dir = tempTree({ 'package.json': '{}', '.vscode/mcp.json': JSON.stringify(vscode) });
    const { code, stderr } = lazytools(['init', '--from', 'vscode'], dir);
    expect(code).toBe(0);
    expect(stderr).toContain('note: servers.pg: "envFile" was not imported (lazytools has no such setting); put its variables in "env"');
    expect(stderr).toContain('warning: servers.odd.args: expected an array of strings, got a string');
    expect(stderr).toContain('warning: servers.odd.env: expected an object of strings, got an array of 1 item');
    expect(stderr).not.toContain('"type" was not imported');
  });

  it('Windsurf\'s serverUrl and Gemini CLI\'s httpUrl are HTTP servers like url', () => {
    const windsurf = { mcpServers: { ws: { serverUrl: 'https://ws.example.test/mcp' }, gem: { httpUrl: 'https://gem.example.test/mcp' } } };
    const dir = tempTree({ 'package.json': '{}', 'mcp_config.json': JSON.stringify(windsurf) });
    const { code } = lazytools(['init', '--from', 'mcp_config.json'], dir);
    expect(code).toBe(0);
    expect(rcOf(dir).servers).toEqual({ ws: { url: 'https://ws.example.test/mcp' }, gem: { url: 'https://gem.example.test/mcp' } });
  });

  it('a config with nothing importable says why each entry was skipped (exit 2)', () => {
    const dir = tempTree({ 'package.json': '{}', 'client.json': JSON.stringify({ mcpServers: { a: { transport: 'carrier pigeon' }, lazytools: { command: 'npx', args: ['-y', 'lazytools', 'serve'] } } }) });
    const { code, stderr } = lazytools(['init', '--from', 'client.json'], dir);
    expect(code).toBe(2);
    expect(stderr).toContain('no MCP servers to import in');
    expect(stderr).toContain(': skipped a (neither "command" nor "url"), lazytools (lazytools itself)');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('groups --tool names the tools a glob missed', () => {
  it('a glob that matches no tool exits 1 with the closest names, not an empty answer', () => {
    const catalog = { servers: { memory: { tools: [tool('read_graph', 'Read the knowledge graph'), tool('search_nodes', 'Search nodes')] }, fs: { tools: [tool('read_file', 'Read a file')] } } };
    const dir = tempTree({ 'package.json': '{}', 'tools.json': JSON.stringify(catalog) });
    const typo = lazytools(['groups', '--catalog', 'tools.json', '--tool', 'read_fil'], dir);
    expect(typo.code).toBe(1);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('no tool matches --tool "read_fil" among the catalog\'s 3 tools. Did you mean "read_file"');
    const server = lazytools(['groups', '--catalog', 'tools.json', '--tool', 'memroy:*'], dir);
    expect(server.code).toBe(1);
    expect(server.stderr).toContain('Did you mean "memory:');
    expect(lazytools(['groups', '--catalog', 'tools.json', '--tool', 'read_file'], dir).code).toBe(0);
  });
});

describe('lock says why an HTTP server could not be reached', () => {
  it('names the network error behind "fetch failed"', async () => {
    // A loopback port that was just free and is closed again: the connection is refused at once.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ servers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } }) });
    const { code, stderr } = lazytools(['lock'], dir);
    expect(code).toBe(1);
    expect(stderr).toMatch(/remote: could not start upstream "remote": fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
  });
});

describe('${HOME} in an rc is a path, not a secret', () => {
  it('a tool result naming the home folder reaches the client as written, so the model can call back with it', async () => {
    // Client configs write "${HOME}/projects" (Claude Code expands it); init keeps the reference.
    const home = tempTree({ 'notes.txt': 'hello' });
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ servers: { files: { command: process.execPath, args: [serverEntry('filesystem'), '${HOME}'] } } }) });
    const client = new Client({ name: 'first-hour', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--strategy', 'proxy'], { cwd: dir, env: { HOME: home } })));
    try {
      const listed = await client.callTool({ name: 'execute_tool', arguments: { name: 'list_allowed_directories', arguments: {} } });
      expect(text(listed)).toContain(realpathSync(home));
      expect(text(listed)).not.toContain('${HOME}');
    } finally {
      await client.close();
    }
  });
});

describe('serve refuses an unguarded public address before starting anything', () => {
  it('the refusal is all it prints (exit 2): no upstream was started, so none is reported', () => {
    const rc = { servers: { x: { command: process.execPath, args: ['-e', ''], env: { K: '${LT_FIRST_HOUR_UNSET}' } } } };
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) });
    const { code, stderr } = lazytools(['serve', '--http', '0.0.0.0:0'], dir, { LT_FIRST_HOUR_UNSET: '' });
    expect(code).toBe(2);
    expect(stderr).toBe('lazytools serve: refusing to serve on non-loopback address 0.0.0.0 without a token: pass --token (or LAZYTOOLS_TOKEN), or --force\n');
  });
});

describe('status names the tools only "all" shows', () => {
  it('the warning lists them and where to read why, not only their groups', () => {
    const client = { mcpServers: { widgets: { command: 'widgets-mcp' } } };
    const catalog = { servers: { widgets: { tools: [tool('frobnicate', 'Frobnicate a widget'), tool('twiddle', 'Twiddle a widget')] } } };
    const dir = tempTree({ 'package.json': '{}', 'client.json': JSON.stringify(client), 'tools.json': JSON.stringify(catalog) });
    expect(lazytools(['init', '--from', 'client.json'], dir).code).toBe(0);
    const { code, stderr } = lazytools(['status', '--catalog', 'tools.json'], dir);
    expect(code).toBe(0);
    expect(stderr).toContain('2 tool(s) match no group, so no mode\'s groups show them (only "all" modes, and fill where a mode\'s work is close): widgets:frobnicate, widgets:twiddle;');
    expect(stderr).toContain('`lazytools groups --unplaced` says why');
  });
});

describe('a server that crashes at start', () => {
  it('is reported with the error line its stack trace pushed out of the last stderr lines', () => {
    const frames = Array.from({ length: 12 }, (_, i) => `    at frame${i} (node:internal/modules/esm/resolve:${i}:1)`).join('\\n');
    const crash = `console.error("node:internal/modules/esm/resolve:873\\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'jsdom' imported from /srv/wiki/dist/sanitize.js\\n${frames}\\nNode.js v20"); process.exit(1)`;
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ servers: { wiki: { command: process.execPath, args: ['-e', crash] } } }) });
    const { code, stderr } = lazytools(['lock'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'jsdom' imported from /srv/wiki/dist/sanitize.js\n…\n");
    expect(stderr).toContain('at frame11');
  });
});

describe('a server npx cannot load says which npx cache folder is incomplete', () => {
  it('lock names the _npx folder behind a missing module', () => {
    const folder = path.join(tempTree({}), '.npm', '_npx', '92668d6008b43da4');
    const crash = `console.error("Error: Cannot find module '${folder}/node_modules/jose/index.js'\\n  code: 'MODULE_NOT_FOUND'"); process.exit(1)`;
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ servers: { k8s: { command: process.execPath, args: ['-e', crash] } } }) });
    const { code, stderr } = lazytools(['lock'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain(`npx's cache for this package looks incomplete (an install cut short, or another npx installing it at the same time): start it again, and if it fails the same way, delete ${folder}`);
  });
});
