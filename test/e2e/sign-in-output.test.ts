import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsyncLocalStorage } from 'node:async_hooks';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { signInFile, signInFolder, writeSignIn } from '../../src/upstream/auth/store.js';
import { FIXTURES, httpFixture, rcProject, runCli, startCli, stopAll } from '../harness/index.js';

/**
 * `lazytools auth` prints what a server answers when it cannot be listed after the sign-in, and a
 * hosted server's error may quote the request's Authorization header ("token eyJ... rejected").
 * The gateway registers every token it sends for redaction; the sign-in did not, so the token it
 * had just stored was printed in the clear (fails on the old main). Here a real authorization
 * server (oidc-provider, client credentials) and a resource server whose every authorized answer
 * is an error quoting the header.
 */

/** The Authorization header of the request being answered. */
const heard = new AsyncLocalStorage<string>();
const modern = toNodeHandler(
  createMcpHandler(
    () => {
      const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => {
        throw new Error(`upstream rejected the credentials "${heard.getStore() ?? ''}"`);
      });
      return server;
    },
    { legacy: 'reject' },
  ),
);

let as: { child: ChildProcess; url: string };
let resource: http.Server;
let resourceUrl = '';

beforeAll(async () => {
  as = await httpFixture(FIXTURES.oauthServer, ['--client', 'ci-bot:ci-bot-secret-0123456789']);
  resource = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(resource.address() as AddressInfo).port}`;
    if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [as.url] }));
      return;
    }
    const authorization = req.headers.authorization;
    if (!authorization) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
      res.end();
      return;
    }
    // Every request with a token: a 2026-07-28 server (it refuses initialize) whose tools/list fails quoting the header.
    void heard.run(authorization, () => modern(req, res));
  });
  await new Promise<void>((resolve) => resource.listen(0, '127.0.0.1', resolve));
  resourceUrl = `http://127.0.0.1:${(resource.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await stopAll();
  as?.child.kill();
  await new Promise((resolve) => resource?.close(resolve));
});

describe('lazytools auth output', () => {
  it('a server error quoting the new token prints ${oauth:<server>}, never the token', async () => {
    const project = rcProject({ servers: { echo: { url: resourceUrl, oauth: { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${CI_BOT_SECRET}' } } } });
    const configDir = path.join(project.dir, 'config');
    const cli = startCli(['auth', 'echo', '--config', project.file], { cwd: project.dir, env: { LAZYTOOLS_CONFIG_DIR: configDir, LAZYTOOLS_CACHE_DIR: '', CI_BOT_SECRET: 'ci-bot-secret-0123456789' } });
    let stdout = '';
    cli.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const { code } = await cli.exited;
    const output = `${stdout}\n${cli.stderr()}`;
    expect(code, output).toBe(0);
    const folder = path.join(configDir, 'sign-ins');
    const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(1);
    const stored = JSON.parse(readFileSync(path.join(folder, files[0] as string), 'utf8')) as { tokens: { access_token: string }; client?: { client_id?: string; issuer?: string; client_secret?: string } };
    const token = stored.tokens.access_token;
    // Bound to the issuer it was first used with (kept: a later issuer never gets the secret), the secret left in the environment.
    expect(stored.client).toEqual({ client_id: 'ci-bot', issuer: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/) as unknown as string });
    expect(token.length).toBeGreaterThan(20);
    // The server's answer is printed (it says why listing failed), with the token written as its name.
    expect(cli.stderr()).toMatch(/warning: signed in, but echo could not be listed: .*upstream rejected the credentials/);
    expect(cli.stderr()).toContain('Bearer ${oauth:echo}');
    expect(output).not.toContain(token);
    expect(output).not.toContain('ci-bot-secret-0123456789');
    // The rc's client is bound to the server's issuer on first use, without the SDK's warning that it has no stamp.
    expect(cli.stderr()).not.toContain('SEP-2352');
  });

  it('auth --status writes a stored scope\'s control characters as escapes: an authorization server cannot send a terminal sequence', () => {
    const url = 'http://127.0.0.1:9/mcp';
    const project = rcProject({ servers: { remote: { url } } });
    const env = { LAZYTOOLS_CONFIG_DIR: path.join(project.dir, 'config'), LAZYTOOLS_CACHE_DIR: '' };
    const folder = signInFolder(env);
    expect(folder).toBeDefined();
    const scope = 'mcp:tools \u001b[2J\u001b]0;owned\u0007';
    writeSignIn(signInFile(folder as string, url), {
      version: 1,
      server: 'remote',
      url,
      grant: 'authorization_code',
      tokens: { access_token: 'stored-access-token-0123456789', token_type: 'Bearer', scope },
      expiresAt: Date.now() + 3_600_000,
      pendingScope: 'admin \u001b[31m',
    });
    const run = runCli(['auth', '--status', '--config', project.file], { cwd: project.dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('scope "mcp:tools \\u001b[2J\\u001b]0;owned\\u0007"');
    expect(run.stdout).toContain('asks for more: "admin \\u001b[31m"');
    expect([...`${run.stdout}${run.stderr}`].filter((char) => char < ' ' && char !== '\n' && char !== '\t')).toEqual([]);
  });
});
