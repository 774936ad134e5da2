import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importServers } from '../../src/init/import.js';
import { parseConfig } from '../../src/config/load.js';
import { BIN, tempTree } from '../harness/index.js';

/** `init --from` keeps secrets out, reads VS Code variables and Claude Code per-project servers, and names unknown clients. */

const SECRETS = [
  'sk-openai-0001',
  'private-key-0002',
  'AKIAEXAMPLE0003',
  'dbpass0004',
  'cookie-0005',
  'pat-0006',
  'apikey-arg-0007',
  'token-arg-0008',
  'urlpass-0009',
  'query-key-0010',
  'cookie-header-0011',
  'gh-token-0012',
  'bearer-0013',
  'query-token-0014',
  'basic-pass-0015',
];

const planted = {
  mcpServers: {
    openai: { command: 'npx', args: ['openai-mcp', '--api-key', SECRETS[6], `--token=${SECRETS[7]}`], env: { OPENAI_KEY: SECRETS[0], PRIVATE_KEY: SECRETS[1], AWS_ACCESS_KEY_ID: SECRETS[2] } },
    db: { command: 'npx', args: ['postgres-mcp', `postgresql://admin:${SECRETS[8]}@db.internal:5432/app`], env: { DATABASE_URL: `postgres://app:${SECRETS[3]}@db/app`, SESSION_COOKIE: SECRETS[4], PAT: SECRETS[5] } },
    'a b': { url: `https://one.example.test/mcp?apiKey=${SECRETS[9]}`, headers: { Cookie: `session=${SECRETS[10]}` } },
    'a-b': { url: `https://two.example.test/mcp?access_token=${SECRETS[13]}`, headers: { Authorization: `token ${SECRETS[11]}` } },
    legacy: { type: 'sse', url: `https://admin:${SECRETS[14]}@three.example.test/sse`, headers: { Authorization: `Bearer ${SECRETS[12]}` } },
  },
};

describe('init --from leaves no secret in the rc and keeps every server', () => {
  it('moves 15 planted secrets out, keeps five distinct servers, says what it did', () => {
    const imported = importServers(planted, 'client.json');
    const written = JSON.stringify(imported.rc);
    for (const secret of SECRETS) expect(written, secret).not.toContain(secret);
    const servers = imported.rc.servers ?? {};
    expect(Object.keys(servers)).toHaveLength(5);
    expect(Object.keys(servers)).toEqual(['openai', 'db', 'a-b', 'a-b-2', 'legacy']);
    expect(servers['a-b-2']?.headers?.Authorization).toBe('token ${A_B_2_AUTHORIZATION}');
    expect(servers.legacy?.headers?.Authorization).toBe('Bearer ${LEGACY_AUTHORIZATION}');
    expect(servers.openai?.env?.OPENAI_KEY).toBe('${OPENAI_KEY}');
    expect(servers.openai?.args).toEqual(['openai-mcp', '--api-key', '${OPENAI_API_KEY}', '--token=${OPENAI_TOKEN}']);
    expect(servers.db?.args?.[1]).toBe('postgresql://admin:${DB_PASSWORD}@db.internal:5432/app');
    expect(servers['a-b']?.url).toBe('https://one.example.test/mcp?apiKey=${A_B_APIKEY}');
    expect(servers.legacy?.url).toBe('https://three.example.test/sse');
    expect(imported.notes.join('\n')).toContain('SSE server');
    expect(imported.notes.join('\n')).toContain('server "a b" is named "a-b"');
    expect(imported.secrets).toEqual(expect.arrayContaining(['OPENAI_KEY', 'PRIVATE_KEY', 'AWS_ACCESS_KEY_ID', 'DATABASE_URL', 'SESSION_COOKIE', 'PAT', 'LEGACY_BASIC_AUTH']));
    // The result is a valid rc.
    expect(() => parseConfig(imported.rc)).not.toThrow();
  });

  it('names a server with a long name within the rc\'s 64 characters, each one distinct', () => {
    const long = 'my company internal knowledge base server for the support team (production)';
    const imported = importServers({ mcpServers: { [long]: { command: 'a' }, [`${long} `]: { command: 'b' } } }, 'client.json');
    const names = Object.keys(imported.rc.servers ?? {});
    expect(names).toHaveLength(2);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(64);
    expect(() => parseConfig(imported.rc)).not.toThrow();
  });

  it('warns about secret-looking values it cannot place', () => {
    const imported = importServers({ mcpServers: { x: { command: 'server', args: ['ghp_abcdefghijklmnopqrstuvwxyz0123456789'] } } }, 'client.json');
    expect(imported.warnings.join('\n')).toContain('servers.x.args[0] looks like a secret');
  });

  it('the CLI writes no planted secret and prints none', () => {
    const dir = tempTree({ 'package.json': '{}', 'client.json': JSON.stringify(planted) });
    const result = spawnSync(process.execPath, [BIN, 'init', '--from', 'client.json'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(0);
    const rc = readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8');
    for (const secret of SECRETS) {
      expect(rc).not.toContain(secret);
      expect(result.stderr + result.stdout).not.toContain(secret);
    }
    expect(result.stderr).toContain('SSE');
  }, 120_000);
});

describe('VS Code variables', () => {
  it('${env:X} becomes ${X} and ${input:x} a reported variable, never a literal', () => {
    const imported = importServers(
      { servers: { gh: { type: 'http', url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${input:gh-token}' } }, tool: { command: 'tool', env: { KEY: '${env:MY_API_KEY}' } } } },
      '.vscode/mcp.json',
    );
    expect(imported.rc.servers?.gh?.headers?.Authorization).toBe('Bearer ${GH_TOKEN}');
    expect(imported.rc.servers?.tool?.env?.KEY).toBe('${MY_API_KEY}');
    expect(JSON.stringify(imported.rc)).not.toMatch(/\$\{(input|env):/);
    expect(imported.notes.join('\n')).toContain('VS Code input "gh-token"');
    expect(imported.secrets).toEqual(expect.arrayContaining(['GH_TOKEN', 'MY_API_KEY']));
  });
});

describe('Claude Code per-project servers', () => {
  it('reads projects[<cwd>].mcpServers of ~/.claude.json and says so', () => {
    const json = { projects: { '/work/app': { mcpServers: { memory: { command: 'npx', args: ['memory'] } } }, '/work/other': { mcpServers: { other: { command: 'x' } } } } };
    const imported = importServers(json, '/home/me/.claude.json', { cwd: '/work/app' });
    expect(Object.keys(imported.rc.servers ?? {})).toEqual(['memory']);
    expect(imported.notes.join('\n')).toContain('projects["/work/app"].mcpServers');
    expect(imported.notes.join('\n')).toContain('1 other project');
  });
});

describe('unknown client names', () => {
  it('init --from atom lists the clients it knows', () => {
    const dir = tempTree({ 'package.json': '{}' });
    const result = spawnSync(process.execPath, [BIN, 'init', '--from', 'atom'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('claude-desktop, cursor, vscode, claude-code');
  });
});
