import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect as tcpConnect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { SearchIndex } from '../../src/search/engine.js';
import { MAX_SEARCHES_PER_HOLDER } from '../../src/search/passes.js';
import { serveHttp, type HttpFront, type HttpOptions } from '../../src/transports/http.js';
import { MAX_LISTEN_PER_TOKEN } from '../../src/transports/http-modern.js';
import { cleanupAfterEach, deferred, FIXTURES, serveHttpGateway, rcProject, rawPost, ACCEPT } from '../harness/index.js';
// @ts-expect-error: plain .mjs fixture, no types
import { generatedTools } from '../fixtures/servers/generated-tools.mjs';

/** Fairness between clients and the small HTTP items, over a real listener on 127.0.0.1. */

const KITCHEN = FIXTURES.kitchenSink;
const cleanups = cleanupAfterEach();

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

async function front(options: HttpOptions = {}): Promise<HttpFront> {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
  const curated = await curate(app, { name: 'notes', config: {} });
  const http = await serveHttp(curated.gateway, { port: 0, ...options });
  cleanups.push(() => curated.close(), () => http.close());
  return http;
}

/** A POST whose request target is `target` verbatim (origin-form or absolute-form). */
const post = (port: number, target: string, headers: Record<string, string> = {}, body = initialize) => rawPost({ port, path: target }, body, headers);

describe('an absolute-form request target is routed like its path', () => {
  it('POST http://127.0.0.1:PORT/mcp initializes as POST /mcp does (it was a 500)', async () => {
    const http = await front();
    const port = Number(new URL(http.url).port);
    const plain = await post(port, '/mcp');
    expect(plain.status).toBe(200);
    const absolute = await post(port, `http://127.0.0.1:${port}/mcp`);
    expect(absolute.status).toBe(200);
    expect(absolute.body).toContain('"serverInfo"');
    // A 2026-07-28 request reaches the SDK's handler with a URL it can parse.
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } });
    const modern = await post(port, `http://127.0.0.1:${port}/mcp`, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, list);
    expect(modern.status).toBe(200);
    expect(modern.body).toContain('"tools"');
    expect((await post(port, `http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
    // The target's authority is the host (RFC 9112 3.2.2): a foreign one is refused like a foreign Host.
    expect((await post(port, `http://evil.example:${port}/mcp`)).status).toBe(403);
  });
});

describe('a 2026-07-28 input round belongs to its request', () => {
  it('a retry naming another tool is refused, not handed the original result; the right retry finishes', async () => {
    const { file } = rcProject({ servers: { kitchen: { command: process.execPath, args: [KITCHEN, '--legacy-only'] } }, defaultMode: 'all' });
    const served = await serveHttpGateway(file);
    cleanups.push(() => served.close());
    const port = Number(new URL(served.http!.url).port);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const call = (name: string, extra: Record<string, unknown> = {}) =>
      post(port, '/mcp', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { message: 'who?' }, _meta: meta, ...extra } }));
    const first = JSON.parse((await call('test_elicitation')).body) as { result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> } };
    expect(first.result.resultType).toBe('input_required');
    const [key = ''] = Object.keys(first.result.inputRequests);
    const answer = { requestState: first.result.requestState, inputResponses: { [key]: { action: 'accept', content: { username: 'grace', email: 'g@example.com' } } } };
    const other = await call('test_simple_text', answer);
    expect(other.body).not.toContain('User response');
    expect(other.body).toMatch(/continues tools\/call test_elicitation, not tools\/call test_simple_text/);
    const right = await call('test_elicitation', answer);
    expect(right.body).toContain('User response: action=accept');
  });
});

describe('one bearer token cannot fill the shared tables', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const tokens = { auth: { tokens: { greedy: { sha256: sha256('greedy-token'), modes: ['all'] }, polite: { sha256: sha256('polite-token'), modes: ['all'] } } } };

  async function tokenFront(options: HttpOptions = {}): Promise<number> {
    const app = new McpServer({ name: 'notes', version: '1.0.0' });
    app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
    const curated = await curate(app, { name: 'notes', config: tokens });
    const http = await serveHttp(curated.gateway, { port: 0, ...options });
    cleanups.push(() => curated.close(), () => http.close());
    return Number(new URL(http.url).port);
  }

  it('2025 sessions: a token holds at most half of --max-sessions; another token still opens one', async () => {
    const port = await tokenFront({ maxSessions: 4 });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await post(port, '/mcp', as('greedy-token'))).status).toBe(200);
    expect((await post(port, '/mcp', as('greedy-token'))).status).toBe(200);
    const refused = await post(port, '/mcp', as('greedy-token'));
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('Too many sessions for this token (2 open)');
    expect((await post(port, '/mcp', as('polite-token'))).status).toBe(200);
  });

  it(`2026-07-28 subscriptions/listen: a token holds at most its share (default ${MAX_LISTEN_PER_TOKEN}) of streams; another token still listens`, async () => {
    const port = await tokenFront({ maxListenPerToken: 8 });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    cleanups.push(async () => agent.destroy());
    /** Opens a listen stream; resolves with its status once the first bytes (or the refusal) arrive. */
    const listen = (token: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } });
        const headers = { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent }, (res) => {
          res.once('data', (chunk: Buffer) => resolve({ status: res.statusCode ?? 0, body: chunk.toString() }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (let i = 0; i < 8; i++) expect((await listen('greedy-token')).status).toBe(200);
    const refused = await listen('greedy-token');
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('Too many subscriptions/listen streams for this token (8 open)');
    expect((await listen('polite-token')).status).toBe(200);
  });

  it(`2026-07-28 search_tools: one token's requests run at most ${MAX_SEARCHES_PER_HOLDER} searches at once (they have no session to share)`, async () => {
    const port = await tokenFront();
    const original = SearchIndex.prototype.rankMany;
    let live = 0;
    let peak = 0;
    const spy = vi.spyOn(SearchIndex.prototype, 'rankMany').mockImplementation(function* (this: SearchIndex, ...args: Parameters<SearchIndex['rankMany']>) {
      peak = Math.max(peak, ++live);
      try {
        return yield* original.apply(this, args);
      } finally {
        live--;
      }
    });
    cleanups.push(async () => spy.mockRestore());
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const queries = Array.from({ length: 10 }, (_, i) => `read the note ${i}, then read another note`);
    const search = (id: number, token: string) =>
      post(port, '/mcp', { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' }, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_tools', arguments: { queries }, _meta: meta } }));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => search(i + 1, 'greedy-token')));
    for (const answer of answers) expect(answer.body).toContain('read_note');
    expect(peak, "one token's searches in flight at once").toBeLessThanOrEqual(MAX_SEARCHES_PER_HOLDER);
    expect(peak).toBeGreaterThan(1);
  });
});

describe('header slowloris from one address', () => {
  /** Opens `count` sockets from `localAddress` that start a request head and never finish it. */
  async function trickle(port: number, count: number, localAddress: string): Promise<Socket[]> {
    const sockets: Socket[] = [];
    cleanups.push(async () => sockets.forEach((socket) => socket.destroy()));
    await Promise.all(
      Array.from({ length: count }, () => {
        const socket = tcpConnect({ host: '127.0.0.1', port, localAddress });
        sockets.push(socket);
        socket.on('error', () => {});
        return new Promise<void>((resolve) => {
          socket.once('connect', () => {
            socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
            resolve();
          });
          socket.once('close', () => resolve());
        });
      }),
    );
    return sockets;
  }

  it('sockets trickling headers from the clients\' own address (loopback) give way to real requests', async () => {
    const http = await front({ maxConnections: 60, maxConnectionsPerAddress: 20 });
    const port = Number(new URL(http.url).port);
    const slow = await trickle(port, 80, '127.0.0.1');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(port, '/mcp').then((answer) => answer.status, (error: Error) => error.message)));
    expect(answers).toEqual(Array(20).fill(200));
    // The trickling sockets were the ones displaced: at most the address's share of them is left open.
    expect(slow.filter((socket) => !socket.destroyed && socket.readyState === 'open').length).toBeLessThanOrEqual(20);
  });

  it('80 sockets trickling headers from 127.0.0.2 do not starve requests from 127.0.0.1', async () => {
    const http = await front({ maxConnections: 60, maxConnectionsPerAddress: 20 });
    const port = Number(new URL(http.url).port);
    await trickle(port, 80, '127.0.0.2');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(port, '/mcp').then((answer) => answer.status, (error: Error) => error.message)));
    expect(answers).toEqual(Array(20).fill(200));
  });
});

describe('a 2025 session\'s JSON-RPC batch shares the gateway', () => {
  it('another client is answered while a batch of 100 mode switches over 3,000 tools runs (it waited for the whole batch)', async () => {
    const upstream = new Server({ name: 'gen', version: '1.0.0' }, { capabilities: { tools: {} } });
    upstream.setRequestHandler(ListToolsRequestSchema, () => ({ tools: generatedTools(1, 3_000) as never }));
    upstream.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const curated = await curate(upstream, { name: 'gen', config: { groups: { g: { servers: ['gen'] } }, modes: { work: { groups: ['g'], budget: 5_000 } }, defaultMode: 'work' }, strategy: 'notify' });
    const http = await serveHttp(curated.gateway, { port: 0 });
    cleanups.push(() => curated.close(), () => http.close());
    const port = Number(new URL(http.url).port);
    // A client of 2025-03-26, the last revision with batches, opens its session.
    const sessionId = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT } }, (res) => {
        res.resume().on('end', () => resolve(String(res.headers['mcp-session-id'])));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch', version: '1' } } }));
    });
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    await post(port, '/mcp', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const victim = new Client({ name: 'victim', version: '1' });
    await victim.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    cleanups.push(() => victim.close());

    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'focus_mode', arguments: { mode: i % 2 === 0 ? 'all' : 'work' } } }));
    const firstBytes = deferred();
    const order: string[] = [];
    const batchDone = new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } }, (res) => {
        res.once('data', () => firstBytes.resolve());
        res.on('data', () => {}).on('end', () => {
          order.push('batch');
          resolve();
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(batch));
    });
    // The batch's first answers are out: its switches are under way.
    await firstBytes.promise;
    await victim.ping();
    order.push('victim');
    await batchDone;
    expect(order, 'the other client was answered after the whole batch').toEqual(['victim', 'batch']);
  }, 120_000);
});
