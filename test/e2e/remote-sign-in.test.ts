import { type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allText, FIXTURES, httpFixture, rcProject, runCli, serveHttpCli, stopAll, type CliProcess } from '../harness/index.js';

// Remote upstreams behind a real OAuth 2.1 authorization server (oidc-provider, test/fixtures/
// oauth-server.mjs) guarding a real MCP server (test/fixtures/remote-server.mjs: JWT access
// tokens checked against the authorization server's keys). `lazytools auth` signs in through a
// browser that follows redirects (test/fixtures/headless-browser.mjs); the gateway then uses,
// renews and shares the stored sign-in. Every output is kept and searched for the tokens at the end.

/** Promises kept until a condition holds, checked again on each wake(). */
function deferredList() {
  const waiting: Array<{ check: () => boolean; resolve: () => void }> = [];
  return {
    wake: () => {
      for (const entry of [...waiting]) {
        if (!entry.check()) continue;
        waiting.splice(waiting.indexOf(entry), 1);
        entry.resolve();
      }
    },
    until: (check: () => boolean) => (check() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ check, resolve }))),
  };
}

interface Fixture {
  child: ChildProcess;
  url: string;
}

describe('remote servers with OAuth sign-in (oidc-provider)', () => {
  let as: Fixture;
  let remote: Fixture;
  let other: Fixture;
  let modern: Fixture;
  let sseOnly: Fixture;
  let project: { dir: string; file: string };
  let env: NodeJS.ProcessEnv;
  /** `grant <type>` lines of the authorization server, in order. */
  const grants: string[] = [];
  /** Every access and refresh token the sign-in file held at some point. */
  const tokens = new Set<string>();
  /** Everything lazytools printed or wrote, to search for the tokens. */
  const outputs: string[] = [];
  const gateways: CliProcess[] = [];

  const signInFiles = () => readdirSync(path.join(project.dir, 'config/sign-ins')).filter((name) => name.endsWith('.json')).map((name) => path.join(project.dir, 'config/sign-ins', name));
  /** The sign-in of `remote` (the one with a refresh token). */
  const stored = () => {
    for (const file of signInFiles()) {
      const signIn = JSON.parse(readFileSync(file, 'utf8')) as { url: string; grant: string; tokens?: { access_token: string; refresh_token?: string }; expiresAt?: number };
      if (signIn.url === `${remote.url}/mcp` && signIn.grant === 'authorization_code') {
        for (const token of [signIn.tokens?.access_token, signIn.tokens?.refresh_token]) if (token) tokens.add(token);
        return { file, signIn };
      }
    }
    throw new Error('no sign-in stored for remote');
  };
  /** Adds the tokens of every stored sign-in to `tokens`. */
  const collectTokens = () => {
    for (const file of signInFiles()) {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { tokens?: { access_token: string; refresh_token?: string } };
      for (const token of [kept.tokens?.access_token, kept.tokens?.refresh_token]) if (token) tokens.add(token);
    }
  };
  const edit = (change: (signIn: ReturnType<typeof stored>['signIn']) => void) => {
    const { file, signIn } = stored();
    change(signIn);
    writeFileSync(file, JSON.stringify(signIn));
  };
  const cli = (args: string[]) => {
    const run = runCli([...args, '--config', project.file], { cwd: project.dir, env });
    outputs.push(run.stdout, run.stderr);
    return run;
  };
  const gateway = async () => {
    const served = await serveHttpCli(['--config', project.file], { cwd: project.dir, env });
    gateways.push(served);
    return served;
  };
  const connect = async (url: string) => {
    const client = new Client({ name: 'remote-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
  const whoami = async (client: Client) => {
    const text = allText(await client.callTool({ name: 'whoami', arguments: {} }));
    outputs.push(text);
    return text;
  };
  const refreshes = () => grants.filter((grant) => grant === 'grant refresh_token').length;
  const grantHeard = deferredList();
  /** Resolves once the authorization server has reported `count` grants (its lines arrive as events). */
  const grantsReach = (count: number) => grantHeard.until(() => grants.length >= count);

  beforeAll(async () => {
    as = await httpFixture(FIXTURES.oauthServer, ['--client', 'ci-bot:ci-bot-secret-0123456789']);
    as.child.stdout?.on('data', (chunk: Buffer) => {
      grants.push(...chunk.toString().split('\n').filter((line) => line.startsWith('grant ')));
      grantHeard.wake();
    });
    remote = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, '--scope', 'mcp:tools']);
    other = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url]);
    modern = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, '--scope', 'mcp:tools', '--modern-only']);
    sseOnly = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, '--scope', 'mcp:tools', '--sse-only']);
    project = rcProject({
      servers: {
        remote: { url: `${remote.url}/mcp` },
        other: { url: `${other.url}/mcp` },
      },
      defaultMode: 'all',
      strategy: 'notify',
    });
    env = {
      LAZYTOOLS_CONFIG_DIR: path.join(project.dir, 'config'),
      LAZYTOOLS_CACHE_DIR: '',
      LAZYTOOLS_BROWSER: `${process.execPath} ${FIXTURES.headlessBrowser}`,
      CI_BOT_SECRET: 'ci-bot-secret-0123456789',
    };
  });

  afterAll(async () => {
    await stopAll();
    for (const fixture of [as, remote, other, modern, sseOnly]) fixture?.child.kill();
  });

  it('lazytools auth signs in through the browser and keeps the tokens for the user alone, outside the project', async () => {
    const run = cli(['auth', 'remote']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/signed in to remote \(http:\/\/127\.0\.0\.1:\d+\/mcp\) \(expires in \d+ min, scope "mcp:tools[^"]*", refreshable\)/);
    expect(run.stdout).toContain('remote lists 2 tools');
    expect(run.stderr).toContain('Opened your browser to sign in to remote');
    const { file, signIn } = stored();
    expect(signIn.tokens?.refresh_token).toBeTruthy();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    await grantsReach(1);
    expect(grants).toEqual(['grant authorization_code']);
  });

  it('the gateway sends the stored token; a server that needs sign-in is reported (readyz, focus_mode) while the others serve', async () => {
    const served = await gateway();
    await served.stderrMatching(/remote: 2 tools/);
    await served.stderrMatching(/server "other" needs sign-in: run lazytools auth other/);
    const readyz = await fetch(new URL('/readyz', served.url));
    const ready = (await readyz.json()) as { servers: Array<{ name: string; state: string; reason?: string }> };
    outputs.push(JSON.stringify(ready));
    expect(ready.servers.find((s) => s.name === 'remote')?.state).toBe('up');
    expect(ready.servers.find((s) => s.name === 'other')).toMatchObject({ state: 'failed', reason: expect.stringContaining('server "other" needs sign-in: run lazytools auth other') });
    const client = await connect(served.url);
    try {
      expect(await whoami(client)).toBe('authorization: Bearer ${oauth:remote}');
      const status = allText(await client.callTool({ name: 'focus_mode', arguments: { status: true } }));
      outputs.push(status);
      expect(status).toContain('server "other" needs sign-in: run lazytools auth other');
    } finally {
      await client.close();
    }
    expect(cli(['auth', '--status']).stdout).toMatch(/other +needs sign-in: run lazytools auth other/);
  });

  it('lock records the signed-in server; check says which one needs sign-in', () => {
    const lock = cli(['lock']);
    expect(lock.code).toBe(1);
    expect(lock.stderr).toContain('server "other" needs sign-in: run lazytools auth other');
    const written = readFileSync(path.join(project.dir, 'lazytools.lock.json'), 'utf8');
    outputs.push(written);
    expect(Object.keys((JSON.parse(written) as { servers: object }).servers)).toEqual(['remote']);
    const check = cli(['check']);
    expect(check.stderr).toContain('warning: server "other" needs sign-in: run lazytools auth other, then lazytools lock');
  });

  it('renews a token before it expires, and one the server refuses (401), with the refresh token', async () => {
    const served = await gateway();
    const client = await connect(served.url);
    try {
      const before = refreshes();
      const first = stored().signIn.tokens?.access_token;
      edit((signIn) => (signIn.expiresAt = Date.now() + 1_000));
      expect(await whoami(client)).toBe('authorization: Bearer ${oauth:remote}');
      await grantHeard.until(() => refreshes() >= before + 1);
      expect(refreshes()).toBe(before + 1);
      const second = stored().signIn.tokens?.access_token;
      expect(second).not.toBe(first);
      // A token the server no longer takes (revoked, or its keys rotated): 401, renewed, retried.
      edit((signIn) => {
        if (signIn.tokens) signIn.tokens.access_token = 'not-a-token-the-server-knows';
      });
      expect(await whoami(client)).toBe('authorization: Bearer ${oauth:remote}');
      await grantHeard.until(() => refreshes() >= before + 2);
      expect(refreshes()).toBe(before + 2);
      expect(stored().signIn.tokens?.access_token).not.toBe(second);
    } finally {
      await client.close();
    }
  });

  it('two gateways renewing at once share one refresh: the rotated refresh token is never spent twice', async () => {
    const [a, b] = await Promise.all([gateway(), gateway()]);
    const [ca, cb] = await Promise.all([connect(a.url), connect(b.url)]);
    try {
      const before = refreshes();
      edit((signIn) => (signIn.expiresAt = Date.now() - 1_000));
      const answers = await Promise.all([whoami(ca), whoami(cb)]);
      expect(answers).toEqual(['authorization: Bearer ${oauth:remote}', 'authorization: Bearer ${oauth:remote}']);
      await grantHeard.until(() => refreshes() >= before + 1);
      expect(refreshes()).toBe(before + 1);
      // oidc-provider revokes the whole grant when a rotated refresh token comes back: a later renewal works only if that never happened.
      edit((signIn) => (signIn.expiresAt = Date.now() - 1_000));
      expect(await whoami(cb)).toBe('authorization: Bearer ${oauth:remote}');
      await grantHeard.until(() => refreshes() >= before + 2);
      expect(refreshes()).toBe(before + 2);
    } finally {
      await Promise.all([ca.close(), cb.close()]);
    }
  });

  it('client credentials sign a machine in without a browser, in a sign-in of their own', async () => {
    const machine = rcProject({
      servers: { remote: { url: `${remote.url}/mcp`, oauth: { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${CI_BOT_SECRET}' } } },
    });
    const run = runCli(['auth', 'remote', '--config', machine.file], { cwd: machine.dir, env: { ...env, LAZYTOOLS_BROWSER: 'none' } });
    outputs.push(run.stdout, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('remote lists 2 tools');
    await grantHeard.until(() => grants.includes('grant client_credentials'));
    expect(signInFiles().length).toBe(3);
    expect(stored().signIn.grant).toBe('authorization_code');
  });

  it('a server that speaks only 2026-07-28 gets the stored token on its connections too', async () => {
    const project2 = rcProject({ servers: { modern: { url: `${modern.url}/mcp` } }, defaultMode: 'all', strategy: 'notify' });
    const signIn = runCli(['auth', 'modern', '--config', project2.file], { cwd: project2.dir, env });
    outputs.push(signIn.stdout, signIn.stderr);
    expect(signIn.code, signIn.stderr).toBe(0);
    expect(signIn.stdout).toContain('modern lists 2 tools');
    collectTokens();
    const served = await serveHttpCli(['--config', project2.file], { cwd: project2.dir, env });
    gateways.push(served);
    await served.stderrMatching(/modern: 2 tools/);
    const client = await connect(served.url);
    try {
      expect(await whoami(client)).toBe('authorization: Bearer ${oauth:modern}');
    } finally {
      await client.close();
    }
  });

  it('an HTTP+SSE-only server behind a sign-in: reported as needing one, then signed in to and locked', () => {
    const project3 = rcProject({ servers: { legacy: { url: `${sseOnly.url}/sse` } } });
    const run = (args: string[]) => {
      const result = runCli([...args, '--config', project3.file], { cwd: project3.dir, env });
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    const before = run(['lock']);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('server "legacy" needs sign-in: run lazytools auth legacy');
    const signIn = run(['auth', 'legacy']);
    expect(signIn.code, signIn.stderr).toBe(0);
    expect(signIn.stdout).toContain('legacy lists 2 tools');
    collectTokens();
    const after = run(['lock']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('legacy: 2 tools');
    outputs.push(readFileSync(path.join(project3.dir, 'lazytools.lock.json'), 'utf8'));
  });

  it('--logout revokes the grant at the authorization server and forgets it', () => {
    const run = cli(['auth', '--logout', 'remote']);
    expect(run.stdout).toBe('signed out of remote: revoked at the authorization server\n');
    expect(cli(['auth', '--status', 'remote']).stdout).toMatch(/^remote +not signed in/);
  });

  it('no token appears in any output, log, lock, error or result', async () => {
    await stopAll();
    for (const served of gateways) outputs.push(served.stderr());
    outputs.push(readFileSync(project.file, 'utf8'));
    expect(tokens.size).toBeGreaterThanOrEqual(6);
    const all = outputs.join('\n');
    for (const token of tokens) expect(all.includes(token), `a token shows in the output`).toBe(false);
  });
});
