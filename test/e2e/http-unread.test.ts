import { request, type IncomingMessage } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { serveHttp } from '../../src/transports/http.js';
import { MAX_UNREAD_BYTES } from '../../src/transports/http-unread.js';
import { ACCEPT, cleanupAfterEach, deferred, rawPost } from '../harness/index.js';

/**
 * A client that never reads its GET stream while its servers log: the SDK queues every message
 * for the stream in memory. On the old main the queue grew without bound (55 MB a second under
 * one logging upstream, 965 MB after 15 s, until the process died). Now, past MAX_UNREAD_BYTES
 * left unread, notifications to that client are dropped until it reads (fails on the old main:
 * every line is queued and delivered).
 */

const cleanups = cleanupAfterEach();
const LINE = 'n'.repeat(60_000);
/** Lines logged while the stream is not read: six times the bound. */
const LINES = Math.ceil((6 * MAX_UNREAD_BYTES) / LINE.length);

async function loggingFront(warnings: string[]) {
  const app = new McpServer({ name: 'chatty', version: '1.0.0' }, { capabilities: { logging: {} } });
  const logged = deferred<void>();
  /** A tool the server adds: its tools/list_changed reaches the gateway, which tells each session. */
  const addTool = () => app.registerTool('late', { description: 'Added later.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'late' }] }));
  app.registerTool('spam', { description: 'Log many lines, after answering.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => {
    setImmediate(async () => {
      for (let i = 0; i < LINES; i++) {
        // Halfway, while the client is behind, the server adds a tool: its list change must still reach the client.
        if (i === Math.floor(LINES / 2)) addTool();
        await app.server.sendLoggingMessage({ level: 'info', data: `${i} ${LINE}` });
      }
      logged.resolve();
    });
    return { content: [{ type: 'text', text: 'logging' }] };
  });
  app.registerTool('ok', { description: 'Answer ok.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const logger = { info: () => {}, warn: (message: string) => void warnings.push(message), error: () => {} };
  const curated = await curate(app, { name: 'chatty', config: { defaultMode: 'all' }, logger });
  const http = await serveHttp(curated.gateway, { port: 0 });
  cleanups.push(() => curated.close(), () => http.close());
  return { url: http.url, logged: logged.promise };
}

const message = (id: number, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A GET stream of `session`, not read until `read()`: which resolves with the log lines it carried once it ends. */
function unreadStream(url: string, session: string): Promise<{ status: number; read: () => Promise<{ lines: number; listChanged: number }> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } }, (res: IncomingMessage) => {
      res.pause();
      res.socket.pause();
      const read = () =>
        new Promise<{ lines: number; listChanged: number }>((done) => {
          let text = '';
          let lines = 0;
          let listChanged = 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            const events = text.split('\n\n');
            text = events.pop() ?? '';
            lines += events.filter((event) => event.includes('notifications/message')).length;
            listChanged += events.filter((event) => event.includes('notifications/tools/list_changed')).length;
          });
          res.once('end', () => done({ lines, listChanged }));
          res.socket.resume();
          res.resume();
        });
      resolve({ status: res.statusCode ?? 0, read });
    });
    req.on('error', reject);
    req.end();
    cleanups.push(() => void req.destroy());
  });
}

describe('HTTP front: what a client leaves unread', () => {
  it('drops notifications to a client that leaves its GET stream unread past the bound; calls still answer', async () => {
    const warnings: string[] = [];
    const front = await loggingFront(warnings);
    const opened = await new Promise<string>((resolve, reject) => {
      const req = request(front.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT } }, (res) => {
        res.resume();
        resolve(String(res.headers['mcp-session-id']));
      });
      req.on('error', reject);
      req.end(message(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unread', version: '1' } }));
    });
    const headers = { 'mcp-session-id': opened, 'mcp-protocol-version': '2025-06-18' };
    await rawPost(front.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
    const stream = await unreadStream(front.url, opened);
    expect(stream.status).toBe(200);

    expect((await rawPost(front.url, message(2, 'tools/call', { name: 'spam', arguments: {} }), headers)).body).toContain('logging');
    await front.logged;
    // A call through the same upstream after the last line: every line reached the session by its answer.
    expect((await rawPost(front.url, message(3, 'tools/call', { name: 'ok', arguments: {} }), headers)).body).toContain('ok');
    expect(warnings.filter((line) => line.includes('unread'))).toEqual([expect.stringMatching(/^an HTTP session's client left more than \d+ bytes unread: notifications to it are dropped until it reads$/)]);
    // The tool added halfway through the flood is listed: the gateway has told the session.
    const listed = async () => (await rawPost(front.url, message(4, 'tools/list'), headers)).body.includes('"late"');
    while (!(await listed())) await new Promise((resolve) => setImmediate(resolve));

    // Ending the session ends the stream after what it queued: the client reads it all now.
    const request_ = new Promise<number>((resolve, reject) => {
      const req = request(front.url, { method: 'DELETE', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(await request_).toBe(200);
    const heard = await stream.read();
    expect(heard.lines).toBeGreaterThan(0);
    expect(heard.lines).toBeLessThan(LINES / 2);
    // The list change met while the client was behind still went (a few bytes): dropped, its list stays stale.
    expect(heard.listChanged).toBe(1);
  });
});
