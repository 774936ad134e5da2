import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFile, signInFolder, writeSignIn, type SignIn } from '../../src/upstream/auth/store.js';
import { FIXTURES, httpFixture, rcProject, runCli } from '../harness/index.js';

/**
 * The authorization server an rc's client secret may go to (`servers.<name>.oauth.issuer`), with
 * two real authorization servers (test/fixtures/oauth-server.mjs, each of which knows the client
 * and prints every request it gets) and real MCP servers naming one or the other in their
 * protected-resource metadata (test/fixtures/remote-server.mjs). "trusted" is the client's own;
 * "other" stands for a hostile, compromised or mistyped one. Whether a secret reached one is read
 * from what that server printed: a `POST /token` with the client's HTTP Basic credentials.
 */

interface Heard {
  child: ChildProcess;
  url: string;
  /** Every `request …` line it printed so far. */
  requests: string[];
  /** Resolves once every request made before the call has been read from its stdout. */
  settled(): Promise<void>;
}

const SECRET = 'ci-bot-secret-0123456789';

/** An authorization server whose request lines are collected as they arrive. */
async function authorizationServer(): Promise<Heard> {
  const { child, url } = await httpFixture(FIXTURES.oauthServer, ['--client', `ci-bot:${SECRET}`]);
  const requests: string[] = [];
  const waiting: Array<{ mark: string; resolve: () => void }> = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('request ')) continue;
      requests.push(line);
      for (const entry of [...waiting]) {
        if (!line.includes(entry.mark)) continue;
        waiting.splice(waiting.indexOf(entry), 1);
        entry.resolve();
      }
    }
  });
  let marks = 0;
  // Its lines come in order: once a marker request made now is read, every earlier one has been.
  const settled = async () => {
    const mark = `/settled-${++marks}`;
    const heard = new Promise<void>((resolve) => waiting.push({ mark, resolve }));
    // A connection of its own (no kept-alive socket the server may have closed meanwhile).
    await new Promise<void>((resolve, reject) => get(new URL(mark, url), { agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject));
    await heard;
  };
  return { child, url, requests, settled };
}

describe('oauth.issuer: the authorization server a client secret may go to', () => {
  let trusted: Heard;
  let other: Heard;
  let namesTrusted: { child: ChildProcess; url: string };
  let namesOther: { child: ChildProcess; url: string };
  const env = (dir: string) => ({ LAZYTOOLS_CONFIG_DIR: path.join(dir, 'config'), LAZYTOOLS_CACHE_DIR: '', LAZYTOOLS_BROWSER: 'none', CI_BOT_SECRET: SECRET });
  const machine = (url: string, issuer?: string) =>
    rcProject({ servers: { remote: { url: `${url}/mcp`, oauth: { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${CI_BOT_SECRET}', ...(issuer ? { issuer } : {}) } } } });
  const cli = (project: { dir: string; file: string }, args: string[]) => runCli([...args, '--config', project.file], { cwd: project.dir, env: env(project.dir) });
  /** Token requests an authorization server got with the client's credentials. */
  const secretsSent = (as: Heard) => as.requests.filter((line) => line.startsWith('request POST ') && line.endsWith('client=ci-bot'));

  /**
   * A project on the remote naming `other`, with a sign-in whose rc client is stamped with
   * `trusted` (its first use), plus `extra`; and how many requests `other` had heard by then.
   */
  const stampedToTrusted = async (extra: Partial<SignIn> = {}) => {
    const project = machine(namesOther.url);
    const folder = signInFolder(env(project.dir));
    const url = `${namesOther.url}/mcp`;
    if (!folder) throw new Error('no sign-in folder');
    writeSignIn(signInFile(folder, url, 'client_credentials ci-bot'), { version: 1, server: 'remote', url, grant: 'client_credentials', client: { client_id: 'ci-bot', issuer: trusted.url }, ...extra });
    await other.settled();
    return { project, otherBefore: other.requests.length };
  };
  /** `other` heard nothing but metadata GETs since `before`. */
  const onlyGetsSince = async (before: number) => {
    await other.settled();
    expect(other.requests.slice(before).filter((line) => !line.startsWith('request GET '))).toEqual([]);
  };

  beforeAll(async () => {
    [trusted, other] = await Promise.all([authorizationServer(), authorizationServer()]);
    [namesTrusted, namesOther] = await Promise.all([httpFixture(FIXTURES.remoteServer, ['--issuer', trusted.url]), httpFixture(FIXTURES.remoteServer, ['--issuer', other.url])]);
  });

  afterAll(() => {
    for (const fixture of [trusted, other, namesTrusted, namesOther]) fixture?.child.kill();
  });

  it('pinned to the authorization server the remote names: signs in and serves, saying nothing of binding', async () => {
    const project = machine(namesTrusted.url, trusted.url);
    await trusted.settled();
    const before = secretsSent(trusted).length;
    const run = cli(project, ['auth', 'remote']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('remote lists 2 tools');
    expect(run.stderr).not.toContain('oauth.issuer');
    const lock = cli(project, ['lock']);
    expect(lock.code, lock.stderr).toBe(0);
    await trusted.settled();
    expect(secretsSent(trusted).length).toBeGreaterThan(before);
  });

  it('pinned to another one than the remote names: the secret goes nowhere, and the error says which two and what to set', async () => {
    const project = machine(namesOther.url, trusted.url);
    await Promise.all([other.settled(), trusted.settled()]);
    const [otherBefore, trustedBefore] = [other.requests.length, secretsSent(trusted).length];
    const expected = `server "remote" names the authorization server "${other.url}", but its "oauth.issuer" pins "${trusted.url}": its client credentials were not sent there. If "${other.url}" is the server's authorization server now, set servers.remote.oauth.issuer to it`;
    const run = cli(project, ['auth', 'remote']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(expected);
    expect(run.stdout).toBe('');
    // The gateway's own sign-in (lock, serve) refuses it the same way.
    const lock = cli(project, ['lock']);
    expect(lock.code).toBe(1);
    expect(lock.stderr).toContain(expected);
    await Promise.all([other.settled(), trusted.settled()]);
    // Its metadata was read, nothing else: no registration, no token request.
    const heard = other.requests.slice(otherBefore).filter((line) => !line.includes('/settled-'));
    expect(heard.length).toBeGreaterThan(0);
    for (const line of heard) expect(line).toMatch(/^request GET \/\.well-known\/\S+ client=none$/);
    expect(secretsSent(trusted).length).toBe(trustedBefore);
    expect(`${run.stderr}${lock.stderr}`).not.toContain(SECRET);
  });

  it('without a pin: bound on first use, said once on stderr with how to pin it', async () => {
    const project = machine(namesOther.url);
    const run = cli(project, ['auth', 'remote']);
    expect(run.code, run.stderr).toBe(0);
    const bound = `server "remote": its client credentials are bound to the authorization server it names, "${other.url}" (not ${new URL(namesOther.url).origin}); if that is the right one, pin it: set servers.remote.oauth.issuer to "${other.url}"`;
    expect(run.stderr.split('\n').filter((line) => line.includes('oauth.issuer'))).toEqual([bound]);
    expect(run.stdout).not.toContain('oauth.issuer');
    // The gateway keeps the stamp: nothing more to say.
    const lock = cli(project, ['lock']);
    expect(lock.code, lock.stderr).toBe(0);
    expect(lock.stderr).not.toContain('oauth.issuer');
  });

  it('without a pin, a remote that names another authorization server than the first one is refused: no registration or token request goes there', async () => {
    // A sign-in first made with the trusted one; the remote now names another. The SDK took that
    // for a client to register there, then sent the rc's secret with the token request all the same.
    const { project, otherBefore } = await stampedToTrusted();
    const refused = cli(project, ['lock']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `server "remote" names the authorization server "${other.url}", but its client credentials are bound to "${trusted.url}", the one they were first used with: they were not sent there. If "${other.url}" is the server's authorization server now, set servers.remote.oauth.issuer to it`,
    );
    await onlyGetsSince(otherBefore);
  });

  it('without a pin, `lazytools auth` keeps the first authorization server too: a remote naming another is refused, nothing is sent there', async () => {
    // The client credentials sign-in started from a blank record, dropping the stamp the gateway
    // checks: the person retrying the refused sign-in sent the rc's secret to the other one.
    const { project, otherBefore } = await stampedToTrusted();
    const run = cli(project, ['auth', 'remote']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`server "remote" names the authorization server "${other.url}", but its client credentials are bound to "${trusted.url}"`);
    await onlyGetsSince(otherBefore);
  });

  it('without a pin, a sign-out after a refused switch revokes nothing at the other authorization server', async () => {
    // The refused sign-in kept the other one's discovery (saved before the client was asked for):
    // --logout then sent the rc's secret and the refresh token to its revocation endpoint. Now that
    // discovery is not kept (provider.ts), and a sign-in without metadata is not revoked anywhere.
    const tokens = { access_token: 'at-of-trusted', refresh_token: 'rt-of-trusted', token_type: 'Bearer', issuer: trusted.url };
    const { project, otherBefore } = await stampedToTrusted({ tokens, expiresAt: Date.now() - 1000 });
    const refused = cli(project, ['lock']);
    expect(refused.code).toBe(1);
    const out = cli(project, ['auth', 'remote', '--logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('signed out of remote: not revoked');
    await onlyGetsSince(otherBefore);
  });
});
