import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthSession } from '../../src/upstream/auth/session.js';
import { writeSignIn } from '../../src/upstream/auth/store.js';
import { signIn } from '../../src/upstream/sign-in.js';
import { redact } from '../../src/util/redact.js';
import { routeConsole } from '../../src/cli/console.js';
import { remoteTarget } from '../../src/upstream/auth/target.js';

/**
 * A renewal (refresh, client credentials) runs against the server's authorization server, which
 * may be slow, hostile or gone quiet mid-answer. It is bounded in time: past its deadline it fails
 * saying why, and the next renewal tries afresh. On the old code a token endpoint that sent its
 * headers and then dripped (or never answered) held the renewal for ever: every later request to
 * that server waited on it, whatever the authorization server did afterwards.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An authorization server whose token endpoint answers its headers, then a byte now and then, never the end (`mode: 'drip'`), or answers (`mode: 'answer'`). */
async function authorizationServer(): Promise<{ origin: string; setMode(mode: 'drip' | 'answer' | 'echo'): void; tokenRequests(): number }> {
  let mode: 'drip' | 'answer' | 'echo' = 'drip';
  let requests = 0;
  const server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url?.startsWith('/.well-known/oauth-protected-resource')) return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url?.startsWith('/.well-known/')) {
      return json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'] });
    }
    if (req.url === '/token' && req.method === 'POST') {
      requests++;
      // A server that quotes the request's credentials in its error (a debug page, a hostile one).
      if (mode === 'echo') return res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client', error_description: `bad client: ${req.headers.authorization}` }));
      if (mode === 'answer') return json({ access_token: 'fresh-access-token-0123456789', token_type: 'Bearer', expires_in: 3600, refresh_token: 'fresh-refresh-token-0123456789' });
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
      return;
    }
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, setMode: (next) => (mode = next), tokenRequests: () => requests };
}

describe('sign-in renewal', () => {
  it('gives up on an authorization server that never finishes its answer, and the next renewal tries again', async () => {
    const as = await authorizationServer();
    const url = `${as.origin}/mcp`;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lazytools-renew-')), 'sign-ins', 'slow.json');
    // An expired access token with a refresh token: the next token() refreshes.
    writeSignIn(file, {
      version: 1,
      server: 'slow',
      url,
      grant: 'authorization_code',
      client: { client_id: 'lazytools-test', issuer: as.origin },
      redirectUri: 'http://127.0.0.1:9/callback',
      tokens: { access_token: 'old-access-token-0123456789', token_type: 'Bearer', refresh_token: 'old-refresh-token-0123456789' },
      expiresAt: Date.now() - 1_000,
      savedAt: Date.now() - 3_600_000,
    });
    // The deadline covers the metadata discovery before the token request too: that took 120-260 ms
    // beside two CPU hogs on 2 cores, so 1 s left too little room; the test waits the whole deadline.
    const session = new AuthSession('slow', new URL(url), { grant: 'authorization_code', clientId: 'lazytools-test' }, file, fetch, { renewTimeoutMs: 3_000 });
    await expect(session.renew('old-access-token-0123456789')).rejects.toThrow(/server "slow" could not renew its sign-in: its authorization server did not answer within 3 s/);
    expect(as.tokenRequests()).toBe(1);
    // The authorization server answers again: the stuck renewal is not what later requests wait on.
    as.setMode('answer');
    await expect(session.renew('old-access-token-0123456789')).resolves.toBe('fresh-access-token-0123456789');
  }, 30_000);
});

describe('a client-credentials sign-in (lazytools auth, unattended)', () => {
  it('gives up on an authorization server that never finishes its answer within the server timeout', async () => {
    const as = await authorizationServer();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lazytools-renew-')), 'sign-ins', 'slow.json');
    const target = { name: 'slow', url: new URL(`${as.origin}/mcp`), headers: {}, transport: undefined, oauth: { settings: { grant: 'client_credentials' as const, clientId: 'ci', clientSecret: 'ci-secret-0123456789' }, file } };
    const started = signIn(target, { open: async () => false, say: () => {}, timeoutMs: 1_000 });
    // The MCP server and its authorization server share an origin here: the token endpoint its discovery named is the authorization server's.
    await expect(started).rejects.toThrow(`the authorization server (${as.origin}) did not answer within 1 s`);
    expect(as.tokenRequests()).toBe(1);
  }, 30_000);
});

describe('client credentials in an authorization server\'s error', () => {
  it('are redacted in the Basic form the token request sent them in', async () => {
    const as = await authorizationServer();
    as.setMode('echo');
    const secret = 'ci-secret-0123456789';
    // The rc names the secret by its variable, as it must; the sign-in goes to a private folder of the test's own.
    const env = { CI_SECRET: secret, LAZYTOOLS_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'lazytools-renew-')) };
    const target = remoteTarget('echo', { url: `${as.origin}/mcp`, oauth: { grant: 'client_credentials', clientId: 'ci', clientSecret: '${CI_SECRET}' } }, env, undefined);
    if (!target.oauth) throw new Error('expected a sign-in');
    // The SDK warns about the error on the console with the server's text: the CLI routes that to stderr, redacted.
    const warned: string[] = [];
    const undo = routeConsole((text) => warned.push(text));
    const message = await signIn({ ...target, oauth: target.oauth }, { open: async () => false, say: () => {}, timeoutMs: 5_000 })
      .then(
        () => '',
        (error: Error) => error.message,
      )
      .finally(undo);
    const basic = Buffer.from(`ci:${secret}`).toString('base64');
    expect(message).toContain('bad client: Basic ');
    expect(redact(message)).not.toContain(basic);
    expect(redact(message)).toContain('bad client: Basic ${oauth:echo client credentials}');
    expect(warned.join('')).toContain('bad client: Basic ${oauth:echo client credentials}');
    expect(warned.join('')).not.toContain(basic);
  }, 30_000);
});

describe('a client secret dynamic registration issued', () => {
  it('is redacted in the Basic form a refresh sends it in when the authorization server quotes it', async () => {
    const as = await authorizationServer();
    as.setMode('echo');
    const url = `${as.origin}/mcp`;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lazytools-renew-')), 'sign-ins', 'dyn.json');
    const secret = 'dynamic-secret-0123456789';
    writeSignIn(file, {
      version: 1,
      server: 'dyn',
      url,
      grant: 'authorization_code',
      client: { client_id: 'dyn-client', client_secret: secret, issuer: as.origin } as never,
      redirectUri: 'http://127.0.0.1:9/callback',
      tokens: { access_token: 'old-access-token-0123456789', token_type: 'Bearer', refresh_token: 'old-refresh-token-0123456789' },
      expiresAt: Date.now() - 1_000,
      savedAt: Date.now() - 3_600_000,
    });
    const session = new AuthSession('dyn', new URL(url), { grant: 'authorization_code' }, file);
    // The SDK tells of the refused refresh on the console, quoting the server; the CLI routes that to stderr, redacted.
    const warned: string[] = [];
    const undo = routeConsole((text) => warned.push(text));
    await session.renew('old-access-token-0123456789').catch(() => {}).finally(undo);
    const basic = Buffer.from(`dyn-client:${secret}`).toString('base64');
    expect(warned.join('')).toContain('bad client: Basic ${oauth:dyn client credentials}');
    expect(warned.join('')).not.toContain(basic);
  }, 30_000);
});
