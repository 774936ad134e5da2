import { request, type ClientRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/transports/http.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import type { FrontSession } from '../../src/callers/session.js';
import { deferred, EventCounter, referenceRc, text, suiteGateway } from '../harness/index.js';

/**
 * A client session; `streamOpen` resolves once its standalone GET stream is open (the stream a
 * notification unrelated to a request of this client would travel on).
 */
async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'http-e2e', version: '1.0.0' });
  const counter = new EventCounter();
  client.setNotificationHandler(ToolListChangedNotificationSchema, counter.hit);
  const open = deferred();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.ok) open.resolve();
      return response;
    },
  });
  await client.connect(transport);
  return { client, transport, counter, streamOpen: open.promise };
}

function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; session?: string }> {
  const req = request(url, { method: init.method ?? 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers } });
  const answer = answerOf(req);
  req.end(init.body ?? '');
  return answer;
}

function answerOf(req: ClientRequest): Promise<{ status: number; body: string; session?: string }> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, session: res.headers['mcp-session-id'] as string | undefined }));
    });
    req.on('error', reject);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('lazytools serve over Streamable HTTP', () => {
  const suite = suiteGateway(() => referenceRc().file, { http: { token: 'sekret' } });

  const auth = { Authorization: 'Bearer sekret' };

  /** A server-to-client ping over the session's standalone stream, answered by the client. */
  const barrier = (transport: StreamableHTTPClientTransport) => suite.served.http!.sessions.get(transport.sessionId!)!.session.server.ping();

  it('keeps sessions apart: one switches, the other sees no change and no notification', async () => {
    const a = await connect(suite.url, auth);
    const b = await connect(suite.url, auth);
    const before = (await b.client.listTools()).tools.map((t) => t.name);
    await Promise.all([a.streamOpen, b.streamOpen]);
    expect([a.counter.count, b.counter.count]).toEqual([0, 0]);
    const result = (await a.client.callTool({ name: 'focus_mode', arguments: { intent: 'switch to security review' } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ mode: 'security_review' });
    // The switch's list_changed rides the focus_mode request's stream, ahead of its answer.
    expect(a.counter.count).toBe(1);
    // Barrier on each standalone stream (where any other notification would travel): the server
    // pings the client there; its answer comes after anything sent on that stream before.
    await Promise.all([barrier(a.transport), barrier(b.transport)]);
    expect(a.counter.count).toBe(1);
    expect(b.counter.count).toBe(0);
    // The barrier is not vacuous: a notification sent on b's standalone stream is seen by then.
    await suite.served.http!.sessions.get(b.transport.sessionId!)!.session.server.sendToolListChanged();
    await barrier(b.transport);
    expect(b.counter.count).toBe(1);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(before);
    expect((await a.client.listTools()).tools.map((t) => t.name)).not.toEqual(before);
    await a.transport.terminateSession();
    await b.transport.terminateSession();
    await a.client.close();
    await b.client.close();
  });

  it("a search_tools call that adds tools sends its list_changed on the call's own stream, ahead of its answer", async () => {
    const a = await connect(suite.url, auth);
    await a.streamOpen;
    const before = (await a.client.listTools()).tools.map((t) => t.name);
    const result = (await a.client.callTool({ name: 'search_tools', arguments: { query: 'sequential thinking step by step', enable: true } })) as CallToolResult;
    expect(text(result)).toContain('added to your tool list');
    // On the request's stream, so there by the answer: a client without a standalone stream hears it too.
    expect(a.counter.count).toBe(1);
    await barrier(a.transport);
    expect(a.counter.count).toBe(1);
    expect((await a.client.listTools()).tools.map((t) => t.name)).not.toEqual(before);
    await a.transport.terminateSession();
    await a.client.close();
  });

  it('ends a session on DELETE and frees it', async () => {
    const a = await connect(suite.url, auth);
    const count = suite.served.http!.sessions.size;
    // The session is closed before the DELETE is answered.
    await a.transport.terminateSession();
    expect(suite.served.http!.sessions.size).toBe(count - 1);
    expect(suite.served.gateway.sessions.size).toBe(suite.served.http!.sessions.size);
    await a.client.close();
  });

  it('serves a fixed mode at /mcp/<mode> without focus_mode', async () => {
    const fixed = await connect(`${suite.url}/debugging`, auth);
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
    const res = await raw(`${suite.url}/nope`, { headers: auth, body: initialize });
    expect(res.status).toBe(404);
    expect(res.body).toContain('Unknown mode \\"nope\\"');
    expect(res.body).toContain('security_review');
  });

  it('refuses a missing or wrong bearer token', async () => {
    expect((await raw(suite.url, { body: initialize })).status).toBe(401);
    const wrong = await raw(suite.url, { headers: { Authorization: 'Bearer nope' }, body: initialize });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Unauthorized');
  });

  it('refuses foreign Host and Origin headers (DNS rebinding)', async () => {
    const host = await raw(suite.url, { headers: { ...auth, Host: 'evil.example:80' }, body: initialize });
    expect(host.status).toBe(403);
    expect(host.body).toContain('Host \\"evil.example:80\\" is not allowed');
    const origin = await raw(suite.url, { headers: { ...auth, Origin: 'https://evil.example' }, body: initialize });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('Origin \\"https://evil.example\\" is not allowed');
    // Repeated bounded, a C1 CSI blanked (fetch sends it as UTF-8, C2 9B; Node reads bytes as latin1, so "Â" and the CSI): a 12 KB Host came back whole, twice.
    const long = await raw(suite.url, { headers: { ...auth, Host: `evil\u009b2J${'a'.repeat(12_000)}:80` }, body: initialize });
    expect(long.status).toBe(403);
    expect(long.body).toContain(`Host \\"evilâ 2j${'a'.repeat(191)}…\\" is not allowed (DNS rebinding protection)."`);
    expect(long.body.length).toBeLessThan(400);
    const local = await raw(suite.url, { headers: { ...auth, Origin: 'http://localhost:6274' }, body: initialize });
    expect(local.status).toBe(200);
  });

  it('answers bad requests with JSON-RPC errors', async () => {
    const parse = await raw(suite.url, { headers: auth, body: '{not json' });
    expect(parse.status).toBe(400);
    expect(parse.body).toContain('-32700');
    const noSession = await raw(suite.url, { headers: auth, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    const unknown = await raw(suite.url, { headers: { ...auth, 'mcp-session-id': 'nope' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Session not found');
  });

  it('refuses a non-loopback address without a token unless forced', async () => {
    await expect(serveHttp(suite.served.gateway, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/refusing to serve on non-loopback address 0\.0\.0\.0 without a token/);
  });
});

describe('idle HTTP sessions', () => {
  /**
   * One attempt on a fresh listener (a gateway with no upstream). Returns undefined when the
   * machine was so slow that the held request arrived after its session had expired already:
   * that is the setup losing a race, not the property under test, and the caller retries with a
   * longer timeout.
   */
  async function attempt(idleTimeoutMs: number) {
    const gateway = new Gateway({ config: resolveConfig({}), upstreams: [] });
    // Hear every session close, including one the sweep closes before the test got its id.
    const closedAt: Array<ReturnType<typeof deferred<void>>> = [];
    const add = gateway.sessions.add.bind(gateway.sessions);
    gateway.sessions.add = (session) => {
      const closed = deferred();
      closedAt.push(closed);
      const opened = session as FrontSession;
      const previous = opened.onclose;
      opened.onclose = () => {
        previous?.();
        closed.resolve();
      };
      return add(session);
    };
    const front = await serveHttp(gateway, { port: 0, idleTimeoutMs });
    try {
      const a = (await raw(front.url, { body: initialize })).session!;
      // a's next request arrives with its headers; its body is held back.
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
      const arrived = deferred<boolean>();
      front.server.on('request', (req: { method?: string; headers: Record<string, unknown> }) => {
        // Runs after the front's own handler saw the request: was the session still there?
        if (req.method === 'POST' && req.headers['mcp-session-id'] === a) arrived.resolve(front.sessions.has(a));
      });
      const slow = request(front.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': a, 'mcp-protocol-version': '2025-11-25', 'content-length': String(Buffer.byteLength(body)) },
      });
      const answer = answerOf(slow);
      slow.flushHeaders();
      if (!(await arrived.promise)) {
        slow.destroy();
        await answer.catch(() => {});
        return undefined;
      }
      // b, started after a was last seen, expiring proves a sweep ran with a past the timeout.
      await raw(front.url, { body: initialize });
      await closedAt[1]!.promise;
      const aSurvived = front.sessions.has(a);
      slow.end(body);
      const result = await answer;
      // Once answered, a is idle and goes too.
      await closedAt[0]!.promise;
      return { aSurvived, result, left: front.sessions.size + gateway.sessions.size };
    } finally {
      await front.close();
      await gateway.close();
    }
  }

  it('closes a session idle past the timeout, never one whose request is in flight', async () => {
    let outcome: Awaited<ReturnType<typeof attempt>>;
    for (let idle = 200; !(outcome = await attempt(idle)); idle *= 2) expect(idle).toBeLessThan(20_000);
    expect(outcome.aSurvived).toBe(true);
    expect(outcome.result.status).toBe(200);
    expect(outcome.result.body).toContain('"id":2');
    expect(outcome.left).toBe(0);
  });
});
