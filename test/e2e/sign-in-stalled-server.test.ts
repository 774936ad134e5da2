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
    const fixture = await httpFixture(FIXTURES.remoteServer, ['--issuer', as.url, ...args]);
    fixtures.push(fixture);
    return fixture;
  };
  const attempt = (url: string, scope?: string) =>
    signIn(remoteTarget('remote', { url } as never, env, undefined) as Parameters<typeof signIn>[0], {
      open: browserOpener(env),
      say: () => {},
      scope,
      timeoutMs: 1_500,
      callbackTimeoutMs: 60_000,
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );

  it('names the MCP server (its origin), not the authorization server, when the MCP server times out', { timeout: 60_000 }, async () => {
    const stalled = await remote(['--stall', '/mcp']);
    expect((await attempt(`${stalled.url}/mcp`))?.message).toBe(`server "remote" (${stalled.url}) did not answer within 2 s`);
  });

  it("names the MCP server when its protected-resource metadata (the sign-in's first round trip) times out", { timeout: 60_000 }, async () => {
    const stalled = await remote(['--stall', '/.well-known/oauth-protected-resource/mcp']);
    // With a scope to ask for, the sign-in starts at once (answeredWithin), from the server's 401 challenge.
    expect((await attempt(`${stalled.url}/mcp`, 'mcp:tools'))?.message).toBe(`server "remote" (${stalled.url}) did not answer within 2 s`);
  });

});
