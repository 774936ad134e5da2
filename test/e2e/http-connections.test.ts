import { createHash } from 'node:crypto';
import { Agent, get, request } from 'node:http';
import { connect as tcpConnect, type Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { serveHttp, type HttpOptions } from '../../src/transports/http.js';
import { KEEP_ALIVE_MS } from '../../src/transports/http-limits.js';
import type { Logger } from '../../src/util/log.js';
import { cleanupAfterEach, EventCounter, modernMeta, rawListen, rawPost } from '../harness/index.js';

/**
 * Connections one client holds cannot keep another out (http-limits.ts), over a real listener on
 * 127.0.0.1 where every client shares one address. On the old main 256 refused POSTs trickling
 * their bodies, or one token's 256 listen streams, held every connection the address may open:
 * another token's tools/list and /healthz were reset.
 */

const cleanups = cleanupAfterEach();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TOKENS = { auth: { tokens: { greedy: { sha256: sha256('greedy-token'), modes: ['all'] }, polite: { sha256: sha256('polite-token'), modes: ['all'] } } } };

async function front(options: HttpOptions = {}, logger?: Logger): Promise<{ port: number; url: string }> {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
  const curated = await curate(app, { name: 'notes', config: TOKENS, ...(logger ? { logger } : {}) });
  const http = await serveHttp(curated.gateway, { port: 0, ...options });
  cleanups.push(() => curated.close(), () => http.close());
  return { port: Number(new URL(http.url).port), url: http.url };
}

/** The polite token's 2026-07-28 tools/list and /healthz: both must answer 200. */
async function othersServed(port: number, url: string): Promise<void> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
  const list = await rawPost(url, body, { authorization: 'Bearer polite-token', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  expect(list.status).toBe(200);
  expect(list.body).toContain('read_note');
  const healthz = await new Promise<number>((resolve, reject) =>
    get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject),
  );
  expect(healthz).toBe(200);
}

/**
 * Opens `count` sockets that each write `head` once connected; resolves with them and, per socket,
 * the status line of its answer ('' when `answer` is false: it resolves once the head is written).
 */
async function sockets(port: number, count: number, head: string, answer: boolean): Promise<{ sockets: Socket[]; lines: string[] }> {
  const opened: Socket[] = [];
  cleanups.push(async () => opened.forEach((socket) => socket.destroy()));
  const lines = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve) => {
          const socket = tcpConnect({ host: '127.0.0.1', port });
          opened.push(socket);
          socket.on('error', () => {});
          socket.once('connect', () => socket.write(head.replace('PORT', String(port)), () => answer || resolve('')));
          socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
          socket.once('close', () => resolve('closed'));
        }),
    ),
  );
  return { sockets: opened, lines };
}

const TRICKLED = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n';

describe('connection bounds', () => {
  it('256 unauthenticated POSTs trickling a 10 MB body are answered 401 and closed: another token is still served', async () => {
    const { port, url } = await front();
    const trickling = await sockets(port, 256, `${TRICKLED}\r\n{`, true);
    expect(trickling.lines).toEqual(Array(256).fill('HTTP/1.1 401 Unauthorized'));
    // They go on trickling: a byte each.
    for (const socket of trickling.sockets) if (!socket.destroyed) socket.write('[');
    await othersServed(port, url);
  });

  it("256 POSTs of a token trickling a 10 MB body (no whole request yet) give way to another token's requests", async () => {
    const { port, url } = await front();
    await sockets(port, 256, `${TRICKLED}Authorization: Bearer greedy-token\r\n\r\n{`, false);
    await othersServed(port, url);
  });

  it('tells keep-alive clients a socket may idle a minute (KEEP_ALIVE_MS), not Node\'s 5 s', async () => {
    const { port } = await front();
    const agent = new Agent({ keepAlive: true });
    cleanups.push(async () => agent.destroy());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer polite-token', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const answer = await new Promise<{ status: number; hint: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, hint: String(res.headers['keep-alive']) });
      });
      req.on('error', reject);
      req.end(body);
    });
    // A client's timer firing late on a busy machine wrote into sockets Node closed after 5 s.
    expect(answer).toEqual({ status: 200, hint: `timeout=${KEEP_ALIVE_MS / 1000}` });
    expect(KEEP_ALIVE_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('256 keep-alive sockets idle after a request give way to new connections', async () => {
    const { port, url } = await front();
    const idle = await sockets(port, 256, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: keep-alive\r\n\r\n', true);
    expect(idle.lines).toEqual(Array(256).fill('HTTP/1.1 200 OK'));
    await othersServed(port, url);
  });

  it("one token's 256 listen streams: its share of one address is half the address's connections, another token is still served", async () => {
    const { port, url } = await front();
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    cleanups.push(async () => agent.destroy());
    const statuses: number[] = [];
    for (let i = 0; i < 256; i++) {
      const stream = await rawListen(port, { id: i, headers: { authorization: 'Bearer greedy-token' }, agent });
      cleanups.push(async () => stream.close());
      statuses.push(stream.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(128);
    expect(statuses.filter((status) => status === 503)).toHaveLength(128);
    await othersServed(port, url);
  });

  it("with a larger per-token share, the oldest of the biggest holder's streams gives way to a new connection", async () => {
    const { port, url } = await front({ maxListenPerToken: 512 });
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    cleanups.push(async () => agent.destroy());
    const streams = [];
    for (let i = 0; i < 256; i++) {
      const stream = await rawListen(port, { id: i, headers: { authorization: 'Bearer greedy-token' }, agent });
      cleanups.push(async () => stream.close());
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    await othersServed(port, url);
    // The greedy token's oldest streams were the ones that went; its newest are open.
    await streams[0]!.ended;
    expect(streams[255]!.isOpen()).toBe(true);
  });
});

describe('requests whose clients leave before their bodies arrive', () => {
  // Each wrote "error: HTTP POST /mcp: aborted": a client opening and dropping requests wrote lines as fast as it sent them.
  it('are counted in one info line a second at most, never an error line each', async () => {
    const lines: Array<{ level: string; message: string }> = [];
    const accounted = new EventCounter();
    const record = (level: string) => (message: string) => {
      lines.push({ level, message });
      const counted = /^HTTP: (\d+) requests? ended by/.exec(message);
      for (let i = 0; i < (counted ? Number(counted[1]) : /aborted|premature close/i.test(message) ? 1 : 0); i++) accounted.hit();
    };
    const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
    const { port } = await front({}, logger);
    const DROPPED = 60;
    await Promise.all(
      Array.from({ length: DROPPED }, (_, i) =>
        new Promise<void>((resolve) => {
          const socket: Socket = tcpConnect(port, '127.0.0.1', () => {
            // Half promise a big body (read as it comes, bounded), half a small one (read whole): each sends part, then leaves.
            const length = i % 2 === 0 ? 1_000_000 : 100;
            socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer polite-token\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n{"jsonrpc":`);
            socket.write('x'.repeat(i % 2 === 0 ? 100_000 : 10), () => socket.destroy());
          });
          socket.on('close', () => resolve());
          socket.on('error', () => {});
        }),
      ),
    );
    await accounted.reached(DROPPED);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    const counts = lines.filter((line) => /ended by/.test(line.message));
    expect(counts.length, `one line per second at most, not ${DROPPED}`).toBeLessThan(10);
    expect(counts.every((line) => line.level === 'info')).toBe(true);
  });
});
