import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import { signIn } from '../../src/upstream/sign-in.js';
import { revokeSignIn } from '../../src/upstream/auth/revoke.js';
import type { SignIn } from '../../src/upstream/auth/store.js';
import { cleanupAfterEach, tempTree, type Cleanups } from '../harness/index.js';
import path from 'node:path';

/**
 * A remote server's redirects. fetch drops `Authorization` on a redirect to another origin but
 * keeps every other header, so an rc's `headers` (`X-Api-Key: ${KEY}`) would go, with each
 * request's body, to whatever origin a server's 307 named (a loopback service of the gateway's
 * machine included). The SDK's transports follow redirects within the server's origin only
 * (`redirectPolicy` "same-origin", their default): a guard that lazytools keeps it so.
 */

const KEY = 'k3y-0f-the-upstream-9c1e2b7a';

/** A real MCP server (v1 SDK, stateless Streamable HTTP) on 127.0.0.1 that records each request's headers. */
async function listener(cleanups: Cleanups, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): Promise<string> {
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('connection', (socket) => cleanups.push(() => void socket.destroy()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const server = new McpServer({ name: 'moved', version: '1.0.0' });
  server.registerTool('read_page', { description: 'Reads a page' }, () => ({ content: [{ type: 'text', text: 'page' }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

function upstreamAt(url: string) {
  const config = resolveConfig({ servers: { docs: { url, headers: { 'X-Api-Key': '${DOCS_KEY}' }, transport: 'streamable-http', startTimeout: 10_000 } } });
  const [upstream] = createUpstreams(config, { env: { DOCS_KEY: KEY } });
  if (!upstream) throw new Error('no upstream');
  return upstream;
}

describe('remote upstream redirects', () => {
  const cleanups = cleanupAfterEach();

  it('a redirect to another origin is not followed: the rc headers never reach it, and the start says why', async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = await listener(cleanups, (req, res) => {
      elsewhere.push(req.headers);
      return mcp(req, res);
    });
    const origin = await listener(cleanups, (_req, res) => void res.writeHead(307, { location: `${other}/mcp?sig=s3cr3t-l0cation` }).end());
    const upstream = upstreamAt(`${origin}/mcp`);
    cleanups.push(() => upstream.stop());
    const started = await upstream.start().then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(elsewhere.map((headers) => headers['x-api-key']), 'the rc header at the origin the 307 named').toEqual([]);
    expect(started).toContain(`Redirect to ${other}/mcp not followed`);
    expect(started, "a Location's query is never quoted").not.toContain('s3cr3t');
  });

  it('a redirect within the origin is followed, headers and all', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const origin = await listener(cleanups, (req, res) => {
      if (req.url === '/old') return void res.writeHead(308, { location: '/mcp' }).end();
      seen.push(req.headers);
      return mcp(req, res);
    });
    const upstream = upstreamAt(`${origin}/old`);
    cleanups.push(() => upstream.stop());
    await upstream.start();
    expect(upstream.status).toBe('ready');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((headers) => headers['x-api-key'] === KEY)).toBe(true);
  });

  it("lazytools auth's probe for the server's challenge does not follow it to another origin with the rc headers", async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = await listener(cleanups, (req, res) => {
      elsewhere.push(req.headers);
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="http://${req.headers.host ?? ''}/.well-known/oauth-protected-resource"` }).end();
    });
    const origin = await listener(cleanups, (_req, res) => void res.writeHead(307, { location: `${other}/mcp` }).end());
    const target = {
      name: 'docs',
      url: new URL(`${origin}/mcp`),
      headers: { 'X-Api-Key': KEY },
      transport: undefined,
      oauth: { settings: { grant: 'client_credentials' as const, clientId: 'lazytools-test', clientSecret: 'client-s3cret-7f1d' }, file: path.join(tempTree({}), 'docs.json') },
    };
    // The sign-in fails (the server only redirects): what matters is where its requests went.
    await signIn(target, { timeoutMs: 10_000, open: () => Promise.reject(new Error('no browser here')), say: () => {} }).catch(() => {});
    expect(elsewhere.map((headers) => headers['x-api-key']), 'the rc header at the origin the 307 named').toEqual([]);
  });

  it("revoking a sign-in does not follow the authorization server's redirect elsewhere with the refresh token", async () => {
    const bodies: string[] = [];
    const other = await listener(cleanups, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200).end();
      });
    });
    const origin = await listener(cleanups, (_req, res) => void res.writeHead(307, { location: `${other}/revoke` }).end());
    const stored: SignIn = {
      version: 1,
      server: 'docs',
      url: `${origin}/mcp`,
      grant: 'authorization_code',
      client: { client_id: 'lazytools-test' },
      tokens: { access_token: 'access-7c1f', token_type: 'Bearer', refresh_token: 'refresh-9a2e4d' },
      discovery: { authorizationServerUrl: origin, authorizationServerMetadata: { issuer: origin, revocation_endpoint: `${origin}/revoke` } } as never,
    };
    const said = await revokeSignIn(stored, undefined);
    expect(bodies, 'requests at the origin the 307 named').toEqual([]);
    expect(said).toContain('HTTP 307');
  });
});
