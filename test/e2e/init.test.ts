import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempTree, runCli } from '../harness/index.js';

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
  return tempTree({ 'package.json': '{}', [file]: JSON.stringify(client) });
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
});
