import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../src/front/serve.js';
import { serveHttp } from '../src/front/http.js';
import { silentLogger } from '../src/util/log.js';
import { referenceRc } from './helpers.js';

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'http-e2e', version: '1.0.0' });
  const counter = { notifications: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    counter.notifications++;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport, counter };
}

function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body ?? '');
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('lazytools serve over Streamable HTTP', () => {
  let served: Served;
  let url: string;

  beforeAll(async () => {
    const { file } = referenceRc();
    served = await serve({ config: file, http: { port: 0, token: 'sekret' }, logger: silentLogger });
    url = served.http!.url;
  });
  afterAll(async () => {
    await served?.close();
  });

  const auth = { Authorization: 'Bearer sekret' };

  it('keeps sessions apart: one switches, the other sees no change and no notification', async () => {
    const a = await connect(url, auth);
    const b = await connect(url, auth);
    const before = (await b.client.listTools()).tools.map((t) => t.name);
    await settle();
    a.counter.notifications = 0;
    b.counter.notifications = 0;
    const result = (await a.client.callTool({ name: 'focus_mode', arguments: { intent: 'switch to security review' } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ mode: 'security_review' });
    await settle();
    expect(a.counter.notifications).toBe(1);
    expect(b.counter.notifications).toBe(0);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(before);
    expect((await a.client.listTools()).tools.map((t) => t.name)).not.toEqual(before);
    await a.transport.terminateSession();
    await b.transport.terminateSession();
    await a.client.close();
    await b.client.close();
  });

  it('ends a session on DELETE and frees it', async () => {
    const a = await connect(url, auth);
    const count = served.http!.sessions.size;
    await a.transport.terminateSession();
    await settle();
    expect(served.http!.sessions.size).toBe(count - 1);
    expect(served.gateway.sessions.size).toBe(served.http!.sessions.size);
    await a.client.close();
  });

  it('serves a fixed mode at /mcp/<mode> without focus_mode', async () => {
    const fixed = await connect(`${url}/debugging`, auth);
    const names = (await fixed.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('focus_mode');
    expect(names).toContain('echo');
    const refused = (await fixed.client.callTool({ name: 'focus_mode', arguments: { mode: 'all' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('fixed mode "debugging"');
    const echo = await fixed.client.callTool({ name: 'echo', arguments: { message: 'fixed' } });
    expect(text(echo)).toBe('Echo: fixed');
    await fixed.transport.terminateSession();
    await fixed.client.close();
  });

  it('answers an unknown mode endpoint with 404 naming the modes', async () => {
    const res = await raw(`${url}/nope`, { headers: auth, body: initialize });
    expect(res.status).toBe(404);
    expect(res.body).toContain('Unknown mode \\"nope\\"');
    expect(res.body).toContain('security_review');
  });

  it('refuses a missing or wrong bearer token', async () => {
    expect((await raw(url, { body: initialize })).status).toBe(401);
    const wrong = await raw(url, { headers: { Authorization: 'Bearer nope' }, body: initialize });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Unauthorized');
  });

  it('refuses foreign Host and Origin headers (DNS rebinding)', async () => {
    const host = await raw(url, { headers: { ...auth, Host: 'evil.example:80' }, body: initialize });
    expect(host.status).toBe(403);
    expect(host.body).toContain('Host \\"evil.example:80\\" is not allowed');
    const origin = await raw(url, { headers: { ...auth, Origin: 'https://evil.example' }, body: initialize });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('Origin \\"https://evil.example\\" is not allowed');
    const local = await raw(url, { headers: { ...auth, Origin: 'http://localhost:6274' }, body: initialize });
    expect(local.status).toBe(200);
  });

  it('answers bad requests with JSON-RPC errors', async () => {
    const parse = await raw(url, { headers: auth, body: '{not json' });
    expect(parse.status).toBe(400);
    expect(parse.body).toContain('-32700');
    const noSession = await raw(url, { headers: auth, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    const unknown = await raw(url, { headers: { ...auth, 'mcp-session-id': 'nope' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Session not found');
  });

  it('refuses a non-loopback address without a token unless forced', async () => {
    await expect(serveHttp(served.gateway, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/refusing to serve on non-loopback address 0\.0\.0\.0 without a token/);
  });
});
