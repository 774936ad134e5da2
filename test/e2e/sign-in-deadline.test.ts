import { type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOpener } from '../../src/upstream/auth/opener.js';
import { remoteTarget } from '../../src/upstream/auth/target.js';
import { signIn } from '../../src/upstream/sign-in.js';
import { FIXTURES, httpFixture } from '../harness/index.js';

// `lazytools auth` against a real authorization server (oidc-provider, test/fixtures/oauth-server.mjs)
// whose token endpoint never answers (`--stall /token`), a real MCP server behind it and a browser
// that consents at once (test/fixtures/headless-browser.mjs). The person comes back; the code
// exchange that follows had no deadline, so the sign-in waited for ever: on a step-up (a scope the
// gateway recorded from a 403 insufficient_scope, or --scope) and on a first sign-in alike. Now it
// fails at the server's timeout saying so, and the stalled request is given up (its connection
// closed), not left pending.

/** Lines a fixture printed, and a wait for the next one matching. */
function lines(child: ChildProcess) {
  const seen: string[] = [];
  const waiting: Array<{ line: string; resolve: () => void }> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      seen.push(line);
      for (const entry of waiting.filter((wait) => wait.line === line)) {
        waiting.splice(waiting.indexOf(entry), 1);
        entry.resolve();
      }
    }
  });
  return {
    count: (line: string) => seen.filter((one) => one === line).length,
    /** Resolves once `line` has been printed `times` times in all. */
    until: (line: string, times: number) =>
      new Promise<void>((resolve) => {
        const check = () => (seen.filter((one) => one === line).length >= times ? resolve() : waiting.push({ line, resolve: check }));
        check();
      }),
  };
}

describe('a sign-in whose authorization server stops answering', () => {
  let as: { child: ChildProcess; url: string };
  let remote: { child: ChildProcess; url: string };
  let heard: ReturnType<typeof lines>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    as = await httpFixture(FIXTURES.oauthServer, ['--stall', '/token']);
    heard = lines(as.child);
    remote = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, '--scope', 'mcp:tools']);
    env = { LAZYTOOLS_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'lazytools-deadline-')), LAZYTOOLS_BROWSER: `${process.execPath} ${FIXTURES.headlessBrowser}` };
  });

  afterAll(() => {
    for (const fixture of [as, remote]) fixture?.child.kill();
  });

  const attempt = (scope: string | undefined) =>
    signIn(remoteTarget('remote', { url: `${remote.url}/mcp` } as never, env, undefined) as Parameters<typeof signIn>[0], {
      open: browserOpener(env),
      say: () => {},
      scope,
      timeoutMs: 1_500,
      callbackTimeoutMs: 60_000,
    });

  it('a step-up (a scope to ask for) ends at the timeout once the person is back, the stalled exchange given up', { timeout: 60_000 }, async () => {
    const before = heard.count('stall-closed /token');
    await expect(attempt('mcp:tools')).rejects.toThrow(`the authorization server (${as.url}) did not answer within 2 s`);
    expect(heard.count('stalled /token')).toBeGreaterThan(0);
    await heard.until('stall-closed /token', before + 1);
  });

  it('a first sign-in (the SDK transport\'s own exchange) ends the same way', { timeout: 60_000 }, async () => {
    const before = heard.count('stall-closed /token');
    await expect(attempt(undefined)).rejects.toThrow(`the authorization server (${as.url}) did not answer within 2 s`);
    await heard.until('stall-closed /token', before + 1);
  });
});
