import { readFileSync } from 'node:fs';
import { connect as tcpConnect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { curate } from '../../src/app/curate.js';
import { serveHttp, type HttpFront, type HttpOptions } from '../../src/transports/http.js';
import type { Served } from '../../src/app/serve.js';
import { resolveScope } from '../../src/focus/scope.js';
import type { Gateway } from '../../src/app/gateway.js';
import { childPids, cleanupAfterEach, deferred, EventCounter, FIXTURES, serveHttpGateway, rcProject, rawPost, ACCEPT } from '../harness/index.js';

/** The HTTP front's limits over a real listener on 127.0.0.1: inherited names in paths, fixed modes, sessions, hung upstreams. */

const RAW_SERVER = FIXTURES.rawServer;
const cleanups = cleanupAfterEach();

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

const post = (url: string, headers: Record<string, string> = {}, body = initialize) => rawPost(url, body, headers);

const modesConfig = {
  groups: { reading: { tools: ['*read*'] }, deleting: { tools: ['*delete*'] } },
  modes: { notes_only: { groups: ['reading'], readOnly: true }, cleanup: { groups: ['reading', 'deleting'] } },
  defaultMode: 'cleanup',
};

async function front(options: HttpOptions = {}): Promise<HttpFront & { gateway: Gateway }> {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
  app.registerTool('delete_note', { description: 'Delete a note.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  const curated = await curate(app, { name: 'notes', config: modesConfig });
  const http = await serveHttp(curated.gateway, { port: 0, ...options });
  cleanups.push(() => curated.close(), () => http.close());
  return Object.assign(http, { gateway: curated.gateway });
}

describe('inherited names in paths', () => {
  it('/mcp/toString and friends answer 404 and the gateway stays up', async () => {
    const http = await front();
    for (const name of ['toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty'])
      expect((await post(`${http.url}/${name}`)).status, name).toBe(404);
    expect((await post(http.url)).status).toBe(200);
  });

  it('/mcp/%E0%A4%A (broken percent-encoding) answers 404, not 500', async () => {
    const http = await front();
    expect((await post(`${http.url}/%E0%A4%A`)).status).toBe(404);
    // The segment is quoted cut: a 10 KB path (Node takes 16 KB of headers) came back whole in the 404.
    const long = await post(`${http.url}/${'x'.repeat(10_000)}%E0%A4%A`);
    expect(long.status).toBe(404);
    expect(long.body.length).toBeLessThan(1_000);
  });

  it('an unknown ?strategy= is quoted cut and on one line in its 400', async () => {
    const http = await front();
    const answer = await post(`${http.url}?strategy=${'x'.repeat(10_000)}%0A::error::injected`);
    expect(answer.status).toBe(400);
    expect(answer.body.length, 'a 10 KB strategy came back whole').toBeLessThan(1_000);
    const message = (JSON.parse(answer.body) as { error: { message: string } }).error.message;
    expect(message).toMatch(/^Unknown strategy "x+/);
    expect(message).not.toContain('\n');
  });
});

describe('404 answers are bounded whatever the rc holds', () => {
  it('a wrong path and an unknown mode name some of 3,000 modes, and how many more', async () => {
    const app = new McpServer({ name: 'notes', version: '1.0.0' });
    app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
    const many = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`notes_${String(i).padStart(4, '0')}`, { groups: ['reading'] }]));
    const curated = await curate(app, { name: 'notes', config: { ...modesConfig, modes: { ...modesConfig.modes, ...many } } });
    const http = await serveHttp(curated.gateway, { port: 0 });
    cleanups.push(() => curated.close(), () => http.close());
    for (const url of [`${http.url}/a/b`, `${http.url}/nope`]) {
      const answer = await post(url);
      expect(answer.status, url).toBe(404);
      // Every mode named made a 40 KB answer.
      expect(answer.body.length, url).toBeLessThan(3_000);
      expect(answer.body, url).toMatch(/notes_0000, .* and \d+ more/);
    }
  });
});

describe('bodies that are JSON but no message', () => {
  it('null, a number, a string or false as the body answer 400 as not JSON-RPC, not 500 with an error logged', async () => {
    // `null` reached the 2026-07-28 front, which read its method: 500 Internal error and an error
    // line per request (any client could fill the log).
    const http = await front();
    const errors: string[] = [];
    const logger = http.gateway.logger;
    const error = logger.error;
    logger.error = (message: string) => void errors.push(message);
    cleanups.push(() => (logger.error = error));
    for (const body of ['null', '7', '"x"', 'false']) {
      for (const headers of [{}, { 'mcp-protocol-version': '2026-07-28' }] as Array<Record<string, string>>) {
        const answer = await post(http.url, headers, body);
        expect(answer.status, `${body} ${JSON.stringify(headers)}`).toBe(400);
        expect(JSON.parse(answer.body).error.code, body).toBe(-32600);
      }
    }
    expect(errors).toEqual([]);
    expect((await post(http.url)).status).toBe(200);
  });
});

describe('serve --http --mode M serves only M', () => {
  it('/mcp and /mcp/M serve the fixed mode without focus_mode; other modes are 404', async () => {
    const http = await front({ modes: ['notes_only'] });
    for (const url of [http.url, `${http.url}/notes_only`]) {
      const client = new Client({ name: 'fixed', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      cleanups.push(() => client.close());
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('focus_mode');
      expect(names).toContain('read_note');
      expect(names).not.toContain('delete_note');
    }
    const other = await post(`${http.url}/cleanup`);
    expect(other.status).toBe(404);
    expect(other.body).toContain('serves only mode(s) notes_only');
    // One message for one failure: the endpoint says what a 2026-07-28 request asking for that mode is told (policy.servedRefusal).
    const resolved = resolveScope(http.gateway.config, { served: ['notes_only'], endpoint: 'cleanup' }, { era: 'modern' });
    expect(JSON.parse(other.body).error.message).toBe('This gateway serves only mode(s) notes_only; "cleanup" is not one of them.');
    expect('refusal' in resolved ? resolved.refusal : undefined).toBe(JSON.parse(other.body).error.message);
  });

  it('through serve(): the --mode option pins every HTTP session', async () => {
    const { file } = rcProject({ servers: { raw: { command: process.execPath, args: [RAW_SERVER] } }, groups: { oks: { tools: ['*ok*'] } }, modes: { only_ok: { groups: ['oks'] } } });
    const served: Served = await serveHttpGateway(file, { mode: 'only_ok', lock: false });
    cleanups.push(() => served.close());
    const client = new Client({ name: 'fixed', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'execute_tool', 'ok']);
    expect((await post(`${served.http!.url}/development`)).status).toBe(404);
  });
});

describe('HTTP sessions and limits', () => {
  it('2,000 refused initializes leave no session behind', async () => {
    const http = await front();
    for (let i = 0; i < 2_000; i += 100)
      await Promise.all(Array.from({ length: 100 }, () => post(http.url, { accept: 'text/plain' }).then((r) => expect(r.status).toBe(406))));
    expect(http.sessions.size).toBe(0);
    expect(http.gateway.sessions.size).toBe(0);
  }, 120_000);

  it('refused initializes do not count, and past --max-sessions initialize answers 503', async () => {
    const http = await front({ maxSessions: 2 });
    await post(http.url, { accept: 'text/plain' });
    expect((await post(http.url)).status).toBe(200);
    expect((await post(http.url)).status).toBe(200);
    const third = await post(http.url);
    expect(third.status).toBe(503);
    expect(third.body).toContain('--max-sessions');
  });

  it('large bodies held at once are bounded: past the budget one answers 503, small requests still pass, and it fits again once the held ones end', async () => {
    const release = deferred();
    const holding = deferred();
    let started = 0;
    const app = new McpServer({ name: 'notes', version: '1.0.0' });
    app.registerTool('save_note', { description: 'Save a long note.', inputSchema: { text: z.string() } }, async () => {
      if (++started === 2) holding.resolve();
      await release.promise;
      return { content: [{ type: 'text', text: 'saved' }] };
    });
    app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
    const curated = await curate(app, { name: 'notes', config: { groups: { notes: { tools: ['*note*'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes' } });
    const http = await serveHttp(curated.gateway, { port: 0, maxBodiesInFlightBytes: 256 * 1024 });
    cleanups.push(() => curated.close(), () => http.close());
    const client = new Client({ name: 'big-bodies', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    cleanups.push(() => client.close());
    const big = { name: 'save_note', arguments: { text: 'x'.repeat(100_000) } };
    const held = [client.callTool(big), client.callTool(big)];
    await holding.promise;
    await expect(client.callTool(big)).rejects.toThrow('Busy: the gateway holds 0.3 MiB of large request bodies already');
    expect(await client.callTool({ name: 'read_note', arguments: {} })).toMatchObject({ content: [{ text: 'a note' }] });
    release.resolve();
    for (const answer of await Promise.all(held)) expect(answer).toMatchObject({ content: [{ text: 'saved' }] });
    expect(await client.callTool(big)).toMatchObject({ content: [{ text: 'saved' }] });
  });

  it('a request body that never ends is cut off by the request timeout', async () => {
    const http = await front({ requestTimeoutMs: 500, headersTimeoutMs: 500 });
    const { port } = new URL(http.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":`);
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('caps open connections: a newcomer displaces the oldest socket without a request or idle between requests, and is dropped when every one is serving', async () => {
    // A tool that answers only when told: its calls keep their sockets serving.
    const release = deferred();
    const running = new EventCounter();
    const app = new McpServer({ name: 'notes', version: '1.0.0' });
    app.registerTool('read_slowly', { description: 'Read a note, slowly.', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
      running.hit();
      await release.promise;
      return { content: [{ type: 'text', text: 'a note' }] };
    });
    const curated = await curate(app, { name: 'notes', config: {} });
    const http = await serveHttp(curated.gateway, { port: 0, maxConnections: 2 });
    cleanups.push(() => curated.close(), () => http.close());
    const { port } = new URL(http.url);
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = tcpConnect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
    // Two sockets that never send a request: the third connection takes the oldest one's place.
    const idle = [await open(), await open()];
    const newcomer = await open();
    await closed(idle[0]!);
    expect([idle[1]!.destroyed, newcomer.destroyed]).toEqual([false, false]);
    for (const socket of [...idle, newcomer]) socket.destroy();
    await Promise.all([idle[1]!, newcomer].map(closed));
    // A keep-alive socket that was answered waits for its next request: it gives way too.
    const answered = await open();
    await new Promise<void>((resolve) => {
      answered.once('data', () => resolve());
      answered.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    const [second, third] = [await open(), await open()];
    await closed(answered);
    for (const socket of [second, third]) socket.destroy();
    await Promise.all([second, third].map(closed));
    // Two sockets answering a request (a call in flight) are serving: a third is dropped at once.
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_slowly', arguments: {}, _meta: meta } });
    const serving = [await open(), await open()];
    for (const socket of serving)
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: read_slowly\r\nContent-Length: ${Buffer.byteLength(call)}\r\n\r\n${call}`);
    const answers = serving.map((socket) => new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
    // Both calls are running (their requests were whole): the late connection is dropped.
    await running.reached(2);
    await closed(await open());
    expect(serving.every((socket) => !socket.destroyed)).toBe(true);
    release.resolve();
    for (const answer of answers) expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of serving) socket.destroy();
  });

  it('--mode a,b serves each of them, the first also at /mcp', async () => {
    const http = await front({ modes: ['notes_only', 'cleanup'] });
    for (const [url, expected] of [[http.url, 'notes_only'], [`${http.url}/cleanup`, 'cleanup']] as const) {
      const client = new Client({ name: 'fixed', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      cleanups.push(() => client.close());
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.includes('delete_note'), url).toBe(expected === 'cleanup');
      expect(names).not.toContain('focus_mode');
    }
  });

  it('accepts the bearer scheme in any case', async () => {
    const http = await front({ token: 'sekret' });
    expect((await post(http.url, { authorization: 'bearer sekret' })).status).toBe(200);
    expect((await post(http.url, { authorization: 'BEARER sekret' })).status).toBe(200);
    expect((await post(http.url, { authorization: 'bearer wrong' })).status).toBe(401);
  });

  it('accepts only http(s) loopback Origins', async () => {
    const http = await front();
    expect((await post(http.url, { origin: 'http://localhost:3000' })).status).toBe(200);
    for (const origin of ['ftp://localhost', 'ws://127.0.0.1:1', 'chrome-extension://localhost', 'file://localhost'])
      expect((await post(http.url, { origin })).status, origin).toBe(403);
  });
});

describe('an upstream that never answers initialize', () => {
  it('does not delay the HTTP listener when there is no lock', async () => {
    const { file } = rcProject({ servers: { silent: { command: process.execPath, args: [RAW_SERVER, 'silent'] } } });
    let servedPromise: Promise<Served> | undefined;
    const listening = new Promise<string>((resolve) => {
      servedPromise = serveHttpGateway(file, { lock: false, onListening: resolve });
    });
    const url = await listening;
    let done = false;
    void servedPromise?.then(() => {
      done = true;
    });
    const answer = await post(url);
    expect(answer.status).toBe(200);
    // The upstream is still starting (its start-up timeout is 30 s): the listener did not wait.
    expect(done).toBe(false);
    // End the silent upstream so start-up fails now and serve() resolves.
    for (const pid of childPids(process.pid)) if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('silent')) process.kill(pid, 'SIGKILL');
    const served = await servedPromise;
    await served?.close();
  }, 120_000);
});
