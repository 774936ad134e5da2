import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_NAMES, findClientConfig, importServers } from '../../src/init/import.js';
import { ConfigError } from '../../src/util/errors.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { tempTree } from '../harness/index.js';

const FILE = '/project/client.json';

describe('client config import: server shapes', () => {
  it('reads mcpServers (Claude Desktop, Cursor, Claude Code): stdio servers by command, http ones by url', () => {
    const { rc, skipped } = importServers(
      {
        mcpServers: {
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], cwd: '/work' },
          memory: { command: 'node', args: ['memory.js', 42] },
          remote: { url: 'https://mcp.example.test/mcp' },
          sse: { type: 'sse', url: 'https://mcp.example.test/sse' },
        },
      },
      FILE,
    );
    expect(skipped).toEqual([]);
    expect(Object.keys(rc.servers ?? {})).toEqual(['files', 'memory', 'remote', 'sse']);
    expect(rc.servers?.files).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], cwd: '/work' });
    expect(rc.servers?.files).not.toHaveProperty('url');
    expect(rc.servers?.memory).toMatchObject({ command: 'node', args: ['memory.js', '42'] });
    expect(rc.servers?.remote).toMatchObject({ url: 'https://mcp.example.test/mcp' });
    expect(rc.servers?.remote).not.toHaveProperty('command');
    expect(rc.servers?.sse).toMatchObject({ url: 'https://mcp.example.test/sse' });
  });

  it('reads servers (VS Code), with its type field', () => {
    const { rc } = importServers(
      {
        inputs: [{ id: 'token', type: 'promptString' }],
        servers: {
          github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
          fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
        },
      },
      FILE,
    );
    expect(rc.servers?.github).toMatchObject({ url: 'https://api.githubcopilot.com/mcp/' });
    expect(rc.servers?.fetch).toMatchObject({ command: 'uvx', args: ['mcp-server-fetch'] });
  });

  it('writes no group of its own (placement puts each tool where it says) and starts in development', () => {
    const { rc } = importServers({ mcpServers: { files: { command: 'x' }, remote: { url: 'https://x.test/mcp' } } }, FILE);
    expect(rc.groups).toBeUndefined();
    expect(rc.defaultMode).toBe('development');
  });

  it('moves a secret given as a NAME=value argument (vercel-mcp VERCEL_API_KEY=...) to ${NAME}, leaving other settings', () => {
    const { rc, moved, warnings } = importServers({ mcpServers: { vercel: { command: 'npx', args: ['vercel-mcp', 'VERCEL_API_KEY=vk_9Tz3Qm7Lp2Xc8Rb5Wn1Fd6Hy', 'LOG_LEVEL=debug'] } } }, FILE);
    expect(rc.servers?.vercel?.args).toEqual(['vercel-mcp', 'VERCEL_API_KEY=${VERCEL_API_KEY}', 'LOG_LEVEL=debug']);
    expect(moved).toEqual(['VERCEL_API_KEY']);
    expect(warnings).toEqual([]);
  });

  it('turns names into server names the rc accepts', () => {
    const { rc } = importServers({ mcpServers: { 'my server!': { command: 'a' }, '@scope/tool': { command: 'b' }, '!!!': { command: 'c' } } }, FILE);
    expect(Object.keys(rc.servers ?? {})).toEqual(['my-server-', 'scope-tool', 'server']);
  });

  it('a long client name or key is echoed cut in the notes, so the new name and the rest of the note still show', () => {
    // The 200th character is the first half of an emoji: the cut drops it whole.
    const long = `${'a'.repeat(199)}😀${'b'.repeat(3_000)}`;
    const { rc, notes, skipped } = importServers({ mcpServers: { [`${long}!`]: { command: 'a', [long]: 1 }, [long]: { transport: 'pigeon' } } }, FILE);
    const [name] = Object.keys(rc.servers ?? {});
    const renamed = notes.find((note) => note.startsWith('server "'));
    expect(renamed).toMatch(new RegExp(`^server "a{199}… \\[name cut by lazytools at 200 characters\\]" is named "${name}" \\(letters`));
    expect(notes.find((note) => note.includes('was not imported'))).toMatch(/: "a{199}… \[name cut by lazytools at 200 characters\]" was not imported \(lazytools has no such setting\)$/);
    expect(skipped).toEqual(['a'.repeat(199) + '… [name cut by lazytools at 200 characters] (neither "command" nor "url")']);
    for (const line of [...notes, ...skipped]) expect(line.length).toBeLessThan(400);
  });

  it('skips lazytools itself and entries with neither command nor url, saying why', () => {
    const { rc, skipped } = importServers(
      {
        mcpServers: {
          lazytools: { command: 'npx', args: ['-y', 'lazytools', 'serve'] },
          curated: { command: 'npx', args: ['lazytools'] },
          pigeon: { transport: 'carrier pigeon' },
          kept: { command: 'node' },
        },
      },
      FILE,
    );
    expect(Object.keys(rc.servers ?? {})).toEqual(['kept']);
    expect(skipped).toEqual(['lazytools (lazytools itself)', 'curated (lazytools itself)', 'pigeon (neither "command" nor "url")']);
  });

  it('keeps secret values out of the rc and names the variables to set', () => {
    const { rc, secrets } = importServers(
      {
        mcpServers: {
          github: { command: 'docker', args: ['run', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret123' } },
          remote: { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer abc-secret-456' } },
        },
      },
      FILE,
    );
    const text = JSON.stringify(rc);
    expect(text).not.toContain('ghp_secret123');
    expect(text).not.toContain('abc-secret-456');
    expect(secrets.length).toBeGreaterThanOrEqual(2);
  });

  it.each([[null], [[]], [{}], [{ mcpServers: 'x' }], [{ servers: null }]])('refuses %j, naming the file and what it expected', (json) => {
    expect(() => importServers(json, FILE)).toThrow(ConfigError);
    expect(() => importServers(json, FILE)).toThrow(/client\.json.*expected "mcpServers" \(or "servers"/);
  });
});

describe('client config import: where each client keeps its config', () => {
  it('knows the four clients', () => {
    expect([...CLIENT_NAMES]).toEqual(['claude-desktop', 'cursor', 'vscode', 'claude-code']);
  });

  it('finds a project file first, else says where it looked', () => {
    const dir = tempTree({ '.mcp.json': '{}', '.cursor/mcp.json': '{}' });
    expect(findClientConfig('claude-code', dir)).toBe(path.join(dir, '.mcp.json'));
    expect(findClientConfig('cursor', dir)).toBe(path.join(dir, '.cursor/mcp.json'));
    expect(() => findClientConfig('vscode', dir)).toThrow(ConfigError);
    expect(() => findClientConfig('vscode', dir)).toThrow(`no vscode MCP config found (looked in ${path.join(dir, '.vscode/mcp.json')})`);
  });
});

describe('client config import: secrets heuristic', () => {
  it('keeps paths, flags, log levels and package names in the rc; moves only secrets', () => {
    const { rc, secrets, warnings } = importServers(
      {
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/home/me/memory.jsonl', LOG_LEVEL: 'debug', DEBUG: '1' } },
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/projects/some-long-folder-name-2024-11-05', '--read-only'] },
          docs: { url: 'https://docs.example.test/mcp?lang=en', headers: { 'X-Api-Version': '2024-06-01' } },
          gh: { command: 'docker', args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'x1', OPENAI_API_KEY: 'x2', CLIENT_SECRET: 'x3', DB_PASSWORD: 'x4', BLOB: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg3k' } },
        },
      },
      FILE,
    );
    expect(warnings).toEqual([]);
    expect(rc.servers?.memory?.env).toEqual({ MEMORY_FILE_PATH: '/home/me/memory.jsonl', LOG_LEVEL: 'debug', DEBUG: '1' });
    expect(rc.servers?.files?.args?.[2]).toBe('/home/me/projects/some-long-folder-name-2024-11-05');
    expect(rc.servers?.docs).toEqual({ url: 'https://docs.example.test/mcp?lang=en', headers: { 'X-Api-Version': '2024-06-01' } });
    expect(secrets.sort()).toEqual(['BLOB', 'CLIENT_SECRET', 'DB_PASSWORD', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'OPENAI_API_KEY']);
  });

  it('reads a path ending in a program or file name as a path, whatever hash or folder is in its middle', () => {
    const nix = '/nix/store/0c8z5l8j1q7b2n3x4v5m6k7h8g9f0d1s-nodejs-20.11.0/bin/node';
    const installed = '/opt/mcp/_winor30_mcp-server-datadog/node_modules/.bin/mcp-server-datadog';
    const { warnings } = importServers({ mcpServers: { a: { command: nix, args: ['/srv/_x9k2m4p6q8r1t3v5w7y0z2b4d6_cache/index.js'] }, b: { command: installed } } }, FILE);
    expect(warnings).toEqual([]);
    const secret = importServers({ mcpServers: { c: { command: 'server', args: ['/run/keys/q8Xr2LmZ0pV7kT4nB9wY1cF6hJ3sD5gA'] } } }, FILE);
    expect(secret.warnings.join('\n')).toContain('servers.c.args[0] looks like a secret');
  });

  it('still warns about tokens and high-entropy values left in arguments', () => {
    const { warnings } = importServers({ mcpServers: { x: { command: 'server', args: ['q8Xr2LmZ0pV7kT4nB9wY1cF6hJ3sD5gA'] }, y: { command: 'server', args: ['sk-abc'] } } }, FILE);
    expect(warnings.join('\n')).toContain('servers.x.args[0] looks like a secret');
    expect(warnings.join('\n')).toContain('servers.y.args[0] looks like a secret');
  });

  it('says what a misshapen env, headers or args is without quoting it (that is where the client kept its secrets)', () => {
    const secret = 'ghp_AbCdEf1234567890abcdefGHIJKL';
    const { warnings } = importServers(
      {
        mcpServers: {
          gh: { command: 'npx', args: `--token ${secret}`, env: [`GITHUB_TOKEN=${secret}`] },
          web: { url: 'https://mcp.example.test/mcp', headers: [`Authorization: Bearer ${secret}`] },
          deep: { command: 'x', env: JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown },
        },
      },
      FILE,
    );
    expect(warnings).toEqual([
      'servers.gh.args: expected an array of strings, got a string: left out, so the server may not start as it did in the client',
      'servers.gh.env: expected an object of strings, got an array of 1 item: left out, so the server may not start as it did in the client',
      'servers.web.headers: expected an object of strings, got an array of 1 item: left out, so the server may not start as it did in the client',
      'servers.deep.env: expected an object of strings, got an array of 1 item: left out, so the server may not start as it did in the client',
    ]);
  });

});

describe('client config import: server names', () => {
  it('names many servers that differ only in characters a name cannot hold apart, in time linear in their number', () => {
    const entries = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`x${String.fromCharCode(0x4e00 + i)}`, { command: 'npx' }]));
    const names = Object.keys(importServers({ mcpServers: entries }, FILE).rc.servers ?? {});
    expect(names.slice(0, 3)).toEqual(['x-', 'x--2', 'x--3']);
    expect(new Set(names).size).toBe(30_000);
    expect(names.at(-1)).toBe('x--30000');
  });

  it('keeps names apart in any case: the rc refuses servers whose names differ only in case', () => {
    const { rc } = importServers({ mcpServers: { ok: { command: 'a' }, Ok: { command: 'b' }, OK: { command: 'c' } } }, FILE);
    expect(Object.keys(rc.servers ?? {})).toEqual(['ok', 'Ok-2', 'OK-3']);
    expect(() => resolveConfig(parseConfig(rc))).not.toThrow();
  });
});
