import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, rcProject, cliStdio, httpFixture, startCli, stopAll } from '../harness/index.js';

/** A secret planted in env, URL and command never shows. */

const RAW_SERVER = FIXTURES.rawServer;
const SECRET = 'planted-secret-4f9a1c';
const env = { ...process.env, NO_COLOR: '1', PLANTED: SECRET } as Record<string, string>;

function project(servers: Record<string, unknown>): { dir: string; file: string } {
  const { dir, file } = rcProject({ servers });
  return { dir, file };
}

const planted = {
  // The child echoes the secret from its env in an error message.
  echo: { command: process.execPath, args: [RAW_SERVER], env: { RAW_SECRET: '${PLANTED}' } },
  // A command path that does not exist, with the secret in it.
  missing: { command: `/nonexistent/\${PLANTED}/server` },
  // An HTTP upstream whose URL (query) carries the secret and refuses connections.
  remote: { url: 'http://127.0.0.1:9/mcp?key=${PLANTED}', timeout: 2000 },
};

describe('secrets from ${VAR} never appear in output', () => {
  it('lock: stderr and stdout show ${VAR}, never the value', () => {
    const { dir } = project(planted);
    const result = spawnSync(process.execPath, [BIN, 'lock'], { cwd: dir, encoding: 'utf8', env });
    expect(result.status).toBe(1);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).toContain('missing');
    expect(output).toContain('${PLANTED}');
    expect(output).not.toContain(SECRET);
  });

  it('serve: tool results, focus_mode status and stderr show ${VAR}, never the value', async () => {
    const { dir } = project(planted);
    const transport = new StdioClientTransport(cliStdio(['serve', '--ignore-lock'], { cwd: dir, env, stderr: 'pipe' }));
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'secrets', version: '1' });
    await client.connect(transport);
    try {
      const failed = (await client.callTool({ name: 'execute_tool', arguments: { name: 'echo_error', arguments: {} } })) as CallToolResult;
      expect(failed.isError).toBe(true);
      const failedText = JSON.stringify(failed);
      expect(failedText).toContain('bad key ${PLANTED}');
      expect(failedText).not.toContain(SECRET);
      // Upstream error bodies are cut short.
      expect(failedText.length).toBeLessThan(2_000);
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
      expect(JSON.stringify(status)).not.toContain(SECRET);
      const lines = JSON.stringify(await client.callTool({ name: 'focus_mode', arguments: { mode: 'all' } }));
      expect(lines).toContain('Servers down');
      expect(lines).not.toContain(SECRET);
    } finally {
      await client.close();
    }
    expect(stderr).toContain('missing');
    expect(stderr).not.toContain(SECRET);
  }, 120_000);

  it('credentials in URL userinfo are refused at load with "use headers"', () => {
    const literal = project({ remote: { url: 'https://user:hunter2@mcp.example.test/mcp' } });
    const refused = spawnSync(process.execPath, [BIN, 'check'], { cwd: literal.dir, encoding: 'utf8', env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('use headers');
    expect(refused.stderr).not.toContain('hunter2');
    const fromEnv = project({ remote: { url: 'https://${PLANTED_HOST}/mcp' } });
    const viaVar = spawnSync(process.execPath, [BIN, 'lock'], { cwd: fromEnv.dir, encoding: 'utf8', env: { ...env, PLANTED_HOST: `user:${SECRET}@mcp.example.test` } });
    expect(viaVar.status).toBe(2);
    expect(viaVar.stderr).toContain('use headers');
    expect(viaVar.stderr).not.toContain(SECRET);
    expect(readFileSync(fromEnv.file, 'utf8')).not.toContain(SECRET);
  });
});

/** `lazytools lock` in a project with one remote server: it fails (exit 1) and its stdout and stderr together. */
async function lockOutput(remote: Record<string, unknown>): Promise<string> {
  const { dir } = project({ remote: { oauth: false, timeout: 5000, ...remote } });
  const cli = startCli(['lock'], { cwd: dir, env });
  let stdout = '';
  cli.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  expect((await cli.exited).code).toBe(1);
  return `${stdout}\n${cli.stderr()}`;
}

describe('credentials written literally in a remote URL\'s query', () => {
  const children: Array<{ kill(): boolean }> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill();
    await stopAll();
  });

  // A server that echoes its URL in an error (Express: `Cannot POST /mcp?token=…`) put the rc's
  // literal token in lock's output; `${VAR}` values were redacted, literal ones were not.
  it('lock: an upstream echoing its URL shows ${servers.<name>.url <param>}, never the value', async () => {
    const upstream = await httpFixture(FIXTURES.hostileHttp, ['--echo-url']);
    children.push(upstream.child);
    const output = await lockOutput({ url: `${upstream.url}?token=literal-token-93b1d7&api_key=lit%2Fkey%2B0a7c&page=visible-page-value` });
    expect(output).toContain('Cannot POST');
    expect(output).toContain('token=${servers.remote.url token}');
    expect(output).toContain('api_key=${servers.remote.url api_key}');
    // A parameter that names no credential is shown as written.
    expect(output).toContain('page=visible-page-value');
    expect(output).not.toContain('literal-token-93b1d7');
    expect(output).not.toContain('lit%2Fkey%2B0a7c');
  }, 30_000);

  // Hosted servers that take their key in the path (`https://host/mcp/<key>/sse`) echo it the same way.
  it('lock: a token-shaped segment of the URL path shows ${servers.<name>.url path}, never the value; a plain segment shows', async () => {
    const upstream = await httpFixture(FIXTURES.hostileHttp, ['--echo-url']);
    children.push(upstream.child);
    const base = new URL(upstream.url);
    const output = await lockOutput({ url: `${base.origin}/plain-route/sk-l1teral0Path9c4e2b7a${base.pathname}` });
    expect(output).toContain('Cannot POST');
    expect(output).toContain('/plain-route/${servers.remote.url path}/');
    expect(output).not.toContain('sk-l1teral0Path9c4e2b7a');
  }, 30_000);
});

describe('credentials written literally in headers, and a server name that looks like a token', () => {
  const children: Array<{ kill(): boolean }> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill();
    await stopAll();
  });

  // Only `${VAR}` values were registered for redaction: a server that quotes its request headers
  // in an error put the rc's literal Authorization value in lock's output.
  it('lock: an upstream echoing its headers shows ${servers.<name>.headers.<header>}, never the value', async () => {
    const upstream = await httpFixture(FIXTURES.hostileHttp, ['--echo-headers']);
    children.push(upstream.child);
    const headers = { Authorization: 'Bearer literal-bearer-5e2d9a', 'X-API-Key': 'literal-apikey-77c1f0', Accept: 'application/json, text/event-stream' };
    const output = await lockOutput({ url: upstream.url, headers });
    expect(output).toContain('rejected: authorization=${servers.remote.headers.Authorization} x-api-key=${servers.remote.headers.X-API-Key}');
    expect(output).not.toContain('literal-bearer-5e2d9a');
    expect(output).not.toContain('literal-apikey-77c1f0');
  }, 30_000);

  it('lock and serve: a server named with a token is described in start errors, never quoted', async () => {
    const name = `ghp_${randomBytes(18).toString('hex')}`;
    const { dir } = project({
      [name]: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      [`${name}x`]: { command: process.execPath, env: { A: '${LT_SECRET_NAME_UNSET}' } },
    });
    const locked = spawnSync(process.execPath, [BIN, 'lock'], { cwd: dir, encoding: 'utf8', env });
    expect(locked.status).toBe(2);
    expect(locked.stderr).toContain(`servers.<a ${name.length + 1}-character name that looks like a secret, not shown>.env.A: environment variable LT_SECRET_NAME_UNSET is not set`);
    const served = startCli(['serve'], { cwd: dir, env });
    await served.stderrMatching(/could not start upstream .*; serving the other servers without it/);
    await served.stderrMatching(/is disabled: .*; serving the other servers without it/);
    served.child.stdin.end();
    await served.exited;
    for (const output of [`${locked.stdout}${locked.stderr}`, served.stderr()]) {
      expect(output).not.toContain(name.slice(4, 20));
      expect(output).toContain('-character name that looks like a secret, not shown>');
    }
  }, 30_000);
});
