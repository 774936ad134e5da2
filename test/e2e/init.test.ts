import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempTree, runCli } from '../harness/index.js';

/** `lazytools init`: strategy per client, client snippets, env, pass-through. */

// An empty home: a developer's own client configs (~/.claude.json, ~/.cursor) stay out of the tests.
const init = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const home = tempTree({});
  return runCli(['init', ...args], { cwd, env: { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '', HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: path.join(home, 'AppData'), ...env } });
};

const client = {
  mcpServers: {
    memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/data/memory.jsonl' } },
    github: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ' } },
    k8s: { command: 'npx', args: ['-y', 'mcp-server-kubernetes'] },
    remote: { url: 'https://mcp.example.test/mcp' },
  },
};

function project(file: string) {
  // Claude Code's .mcp.json servers approved for the folder (local settings): imported enabled.
  return tempTree({ 'package.json': '{}', [file]: JSON.stringify(client), '.claude/settings.local.json': JSON.stringify({ enableAllProjectMcpServers: true }) });
}

const rcOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')) as { strategy?: string; servers: Record<string, { env?: Record<string, string> }> };

describe('lazytools init for the client it imports from', () => {
  it('Claude Desktop: strategy auto (proxy for it) with the reason, a Claude Desktop snippet that starts this install with the env to set', () => {
    const dir = project('claude_desktop_config.json');
    const { code, stdout, stderr } = init(['--from', 'claude_desktop_config.json'], dir);
    expect(code).toBe(0);
    expect(rcOf(dir).strategy).toBe('auto');
    expect(stderr).toMatch(/strategy "auto": .*claude-desktop ignores tools\/list_changed, so it gets "proxy"/);
    expect(stdout).toContain('Claude Desktop (claude_desktop_config.json');
    const snippet = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { mcpServers: { lazytools: { command: string; args: string[]; env: Record<string, string> } } };
    const entry = snippet.mcpServers.lazytools;
    // A command that works wherever the client starts it: absolute paths that exist, no npx cache.
    expect(path.isAbsolute(entry.command) && existsSync(entry.command)).toBe(true);
    expect(entry.args[0]).toBe(path.join(ROOT, 'dist', 'cli', 'lazytools.mjs'));
    expect(entry.args.slice(1)).toEqual(['serve', '--config', path.join(dir, '.lazytoolsrc.json')]);
    expect(entry.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '<GITHUB_PERSONAL_ACCESS_TOKEN>' });
    expect(stdout + stderr).not.toContain('ghp_0123456789');
  });

  it('keeps non-secret env values in the rc and moves only secrets', () => {
    const dir = project('claude_desktop_config.json');
    expect(init(['--from', 'claude_desktop_config.json'], dir).code).toBe(0);
    const rc = rcOf(dir);
    expect(rc.servers.memory?.env).toEqual({ MEMORY_FILE_PATH: '/data/memory.jsonl' });
    expect(rc.servers.github?.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}' });
  });

  it('Cursor, Claude Code and VS Code get auto with what it serves them, each with its own snippet format', () => {
    const cursor = project('.cursor/mcp.json');
    expect(init(['--from', 'cursor'], cursor).stderr).toMatch(/cursor ignores tools\/list_changed, so it gets "proxy"/);
    expect(rcOf(cursor).strategy).toBe('auto');

    const code = project('.mcp.json');
    const fromCode = init(['--from', 'claude-code'], code);
    expect(rcOf(code).strategy).toBe('auto');
    expect(fromCode.stderr).toMatch(/strategy "auto": .*: claude-code gets "hybrid"/);
    expect(fromCode.stdout).toMatch(/^claude mcp add --scope local --env 'GITHUB_PERSONAL_ACCESS_TOKEN=<GITHUB_PERSONAL_ACCESS_TOKEN>' lazytools -- \S+ \S+lazytools\.mjs serve --config \S+$/m);

    const vscode = project('.vscode/mcp.json');
    const fromVscode = init(['--from', 'vscode'], vscode);
    expect(rcOf(vscode).strategy).toBe('auto');
    const snippet = JSON.parse(fromVscode.stdout.slice(fromVscode.stdout.indexOf('{'))) as { inputs: Array<{ id: string; password: boolean }>; servers: { lazytools: { type: string; env: Record<string, string> } } };
    expect(snippet.servers.lazytools.type).toBe('stdio');
    expect(snippet.servers.lazytools.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${input:GITHUB_PERSONAL_ACCESS_TOKEN}' });
    expect(snippet.inputs).toEqual([{ type: 'promptString', id: 'GITHUB_PERSONAL_ACCESS_TOKEN', description: 'GITHUB_PERSONAL_ACCESS_TOKEN', password: true }]);
  });

  it('--strategy overrides the pick; a bad one is a usage error', () => {
    const dir = project('claude_desktop_config.json');
    expect(init(['--from', 'claude_desktop_config.json', '--strategy', 'proxy'], dir).code).toBe(0);
    expect(rcOf(dir).strategy).toBe('proxy');
    const bad = init(['--from', 'claude_desktop_config.json', '--strategy', 'magic', '--force'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--strategy: expected notify, proxy, hybrid or auto, got "magic"');
  });

  it('suggests envPassthrough for servers that need the cluster, and the proxy the shell sets', () => {
    const dir = project('claude_desktop_config.json');
    const { stderr } = init(['--from', 'claude_desktop_config.json'], dir, { HTTPS_PROXY: 'http://proxy.test:3128' });
    expect(stderr).toContain('k8s needs your Kubernetes cluster: "servers": { "k8s": { "envPassthrough": ["KUBECONFIG"] } }');
    expect(stderr).toContain('"envPassthrough": ["HTTPS_PROXY"] at the top level');
    expect(stderr).not.toContain('memory needs');
  });

  it('placement hints come from the server name as groups scores it, not from "docker" or a URL', () => {
    const dir = project('claude_desktop_config.json');
    const { stderr } = init(['--from', 'claude_desktop_config.json'], dir);
    expect(stderr).not.toMatch(/github: .*containers/);
    expect(stderr).not.toMatch(/remote: .*git/);
    expect(stderr).not.toMatch(/looks like a secret/);
  });

  it('links the rc schema where it exists: the project\'s installed copy, else this version\'s published one', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const schemaOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { $schema: string }).$schema;
    // A global install or npx: nothing in the project, so the published file of this version.
    const bare = project('claude_desktop_config.json');
    expect(init(['--from', 'claude_desktop_config.json'], bare).code).toBe(0);
    expect(schemaOf(path.join(bare, '.lazytoolsrc.json'))).toBe(`https://unpkg.com/lazytools@${version}/lazytools.schema.json`);
    // A devDependency (npm's layout), the rc in the project or in a subfolder: a path that resolves from the rc.
    const local = project('claude_desktop_config.json');
    mkdirSync(path.join(local, 'node_modules', 'lazytools'), { recursive: true });
    writeFileSync(path.join(local, 'node_modules', 'lazytools', 'lazytools.schema.json'), readFileSync(path.join(ROOT, 'lazytools.schema.json')));
    for (const out of ['.lazytoolsrc.json', 'config/lazytools.json']) {
      mkdirSync(path.dirname(path.join(local, out)), { recursive: true });
      expect(init(['--from', 'claude_desktop_config.json', '--out', out], local).code).toBe(0);
      const link = schemaOf(path.join(local, out));
      expect(link).toMatch(/^\.{1,2}\/.*node_modules\/lazytools\/lazytools\.schema\.json$/);
      expect(existsSync(path.resolve(path.dirname(path.join(local, out)), link))).toBe(true);
    }
  });

  it('places tools one by one instead of a group per server, so the unplaced ones name their closest groups; the tip never adds a whole server to a mode', () => {
    const dir = tempTree({ 'package.json': '{}', 'mcp.json': JSON.stringify({ mcpServers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } } }) });
    const made = init(['--from', 'mcp.json'], dir);
    expect(made.code).toBe(0);
    expect((JSON.parse(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')) as { groups?: unknown }).groups).toBeUndefined();
    // The tip: search and pin, never `"groups": [..., "kitchen"]` (a server's whole cost in one mode).
    expect(made.stderr).not.toMatch(/"groups":/);
    expect(made.stderr).toContain('{"modes":{"development":{"pin":["kitchen:<tool>"]}}}');
    expect(made.stderr).toMatch(/search_tools/);
    expect(runCli(['lock'], { cwd: dir }).code).toBe(0);
    const unplaced = runCli(['groups', '--unplaced', '--json'], { cwd: dir });
    const report = JSON.parse(unplaced.stdout) as { tools: Array<{ id: string; groups: unknown[]; closest: string[]; unplaced: string }> };
    expect(report.tools.length).toBeGreaterThan(0);
    expect(report.tools.filter((tool) => /is in no mode/.test(tool.unplaced))).toEqual([]);
    expect(report.tools.filter((tool) => tool.closest.length > 0).length).toBeGreaterThan(0);
  });
});

describe('lazytools init writes only the rc it names', () => {
  it('a .lazytoolsrc.json that is a link (a repository may commit one, dangling, into ~/.bashrc.d) is refused, and replaced with --force, never written through', () => {
    const dir = project('.mcp.json');
    const outside = tempTree({});
    const target = path.join(outside, 'lazy.sh');
    symlinkSync(target, path.join(dir, '.lazytoolsrc.json'));
    const refused = init([], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('.lazytoolsrc.json exists; pass --force to overwrite it');
    expect(existsSync(target)).toBe(false);
    const forced = init(['--force'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(path.join(dir, '.lazytoolsrc.json')).isFile()).toBe(true);
    expect(Object.keys(rcOf(dir).servers)).toContain('memory');
  });
});


describe('lazytools init with a client config of thousands of servers', () => {
  // Every imported name, moved secret and variable was listed whole: 298 KB of stderr for 20,000 servers.
  it('lists at most 20 of each (servers, secrets, skipped entries, placement) and says how many more', () => {
    const servers: Record<string, unknown> = {};
    // Secrets on 30 of them only: the client snippet on stdout names each (it is what the user pastes).
    for (let i = 0; i < 20_000; i++) servers[`server-${i}`] = { command: 'node', args: [`server-${i}.js`], ...(i < 30 ? { env: { [`API_TOKEN_${i}`]: `sk-abcdefghijklmnopqrstuvwx${i}` } } : {}) };
    for (let i = 0; i < 50; i++) servers[`broken${i}`] = { note: 'neither command nor url' };
    const dir = tempTree({ 'package.json': '{}', 'big.json': JSON.stringify({ mcpServers: servers }) });
    const run = init(['--from', 'big.json', '--out', 'rc.json'], dir);
    expect(run.code, run.stderr.slice(0, 2_000)).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(path.join(dir, 'rc.json'), 'utf8')) as { servers: object }).servers)).toHaveLength(20_000);
    expect(run.stderr).toContain('with 20000 server(s): server-0, server-1,');
    expect(run.stderr).toContain('server-19 and 19980 more\n');
    expect(run.stderr).toContain('set them in your environment: API_TOKEN_0,');
    expect(run.stderr).toContain('API_TOKEN_19 and 10 more\n');
    expect(run.stderr).toContain('skipped broken19 ');
    expect(run.stderr).not.toContain('skipped broken20 ');
    expect(run.stderr).toContain('skipped … and 30 more servers\n');
    expect(run.stderr).toContain('server-19 and 19980 more: placed tool by tool');
    expect(run.stderr.length).toBeLessThan(8_000);
  }, 120_000);
});
