import { type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOpener } from '../../src/upstream/auth/opener.js';
import { remoteTarget } from '../../src/upstream/auth/target.js';
import { signIn } from '../../src/upstream/sign-in.js';
import { FIXTURES, httpFixture } from '../harness/index.js';

// `lazytools auth` with a real authorization server (test/fixtures/oauth-server.mjs) that answers
// and a real MCP server (test/fixtures/remote-server.mjs) that does not: `--stall /mcp` reads every
// request to it and never answers. The failure said "the authorization server did not answer",
// sending the person to the wrong service; it names the MCP server now (its origin, nothing of a
// path that may hold a key). The authorization server is named with its origin when it is the one
// (test/e2e/sign-in-deadline.test.ts).

interface Fixture {
  child: ChildProcess;
  url: string;
}

describe('a sign-in whose MCP server stops answering', () => {
  let as: Fixture;
  const fixtures: Fixture[] = [];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    as = await httpFixture(FIXTURES.oauthServer, []);
    fixtures.push(as);
    env = { LAZYTOOLS_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'lazytools-stalled-')), LAZYTOOLS_BROWSER: `${process.execPath} ${FIXTURES.headlessBrowser}` };
  });

  afterAll(() => {
    for (const fixture of fixtures) fixture.child.kill();
  });

  const remote = async (args: string[]) => {
    const fixture = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, '--scope', 'mcp:tools', ...args]);
    fixtures.push(fixture);
    return fixture;
  };
  const attempt = (url: string, scope?: string, transport?: 'sse') => signedIn(url, scope, transport).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
  const signedIn = (url: string, scope?: string, transport?: 'sse') =>
    signIn(remoteTarget('remote', { url, ...(transport ? { transport } : {}) } as never, env, undefined) as Parameters<typeof signIn>[0], {
      open: browserOpener(env),
      say: () => {},
      scope,
      timeoutMs: 1_500,
      callbackTimeoutMs: 60_000,
    });

  it('names the MCP server (its origin), not the authorization server, when the MCP server times out', { timeout: 60_000 }, async () => {
    const stalled = await remote(['--stall', '/mcp']);
    expect((await attempt(`${stalled.url}/mcp`))?.message).toBe(`server "remote" (${stalled.url}) did not answer within 2 s`);
  });

  it("names the MCP server when its protected-resource metadata (the sign-in's first round trip) times out", { timeout: 60_000 }, async () => {
    const stalled = await remote(['--stall', '/.well-known/oauth-protected-resource/mcp']);
    // With a scope to ask for, the sign-in starts at once (answeredWithin), from the server's 401 challenge.
    expect((await attempt(`${stalled.url}/mcp`, 'mcp:tools'))?.message).toBe(`server "remote" (${stalled.url}) did not answer within 2 s`);
  });


  // HTTP+SSE (legacy): the GET event stream lasts the whole session, its answers come on it.
  it("keeps an HTTP+SSE server's event stream past the deadline: only its first event must come within it", { timeout: 60_000 }, async () => {
    // Each message POST waits 700 ms: initialize, initialized and tools/list take over 2 s in all, each within 1.5 s.
    const slow = await remote(['--sse-only', '--delay', '700']);
    const done = await signedIn(`${slow.url}/sse`, undefined, 'sse');
    expect(done.listError).toBeUndefined();
    expect(done.tools).toBe(2);
  });

  it('ends with a clear error naming the server when its event stream never sends `endpoint`', { timeout: 60_000 }, async () => {
    const mute = await remote(['--sse-only', '--mute-sse']);
    const done = await signedIn(`${mute.url}/sse`, undefined, 'sse');
    expect(done.tools).toBeUndefined();
    expect(done.listError).toBe(`server "remote" (${mute.url}) did not answer within 2 s`);
  });
});
