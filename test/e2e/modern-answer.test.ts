import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { serveHttp } from '../../src/transports/http.js';
import { earlyAnswer } from '../../src/transports/early-answer.js';
import { cleanupAfterEach, modernMeta, rawPost } from '../harness/index.js';

/**
 * A 2026-07-28 request's JSON answer is written as soon as the per-request server sends it
 * (transports/early-answer), ahead of the SDK's own Response: these hold that the bytes on the
 * wire are still the SDK's (status, type, length, the message as Response.json serializes it),
 * and that what the SDK answers otherwise (an event stream, an error) is left to it.
 */

const cleanups = cleanupAfterEach();

async function front(): Promise<string> {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a "quoted" note, ünïcode' }] }));
  app.registerTool('count_notes', { description: 'Count the notes, reporting progress.', inputSchema: {}, annotations: { readOnlyHint: true } }, async (_args, extra) => {
    const progressToken = extra._meta?.progressToken;
    // Not awaited: the progress and the result reach the gateway back to back.
    if (progressToken !== undefined) void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2 } });
    return { content: [{ type: 'text', text: '2 notes' }] };
  });
  const curated = await curate(app, { name: 'notes', config: { defaultMode: 'all' } });
  const http = await serveHttp(curated.gateway, { port: 0 });
  cleanups.push(() => curated.close(), () => http.close());
  return http.url;
}

const post = (url: string, id: unknown, method: string, params: Record<string, unknown>, name?: string) =>
  rawPost(url, JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...modernMeta(), ...(params._meta as object) } } }), {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  });

describe('2026-07-28 answers over HTTP', () => {
  it("a call's JSON answer is the SDK's: 200, application/json, its exact length, the message as Response.json writes it (numeric and string ids)", async () => {
    const url = await front();
    for (const id of [7, 'call-a']) {
      const answer = await post(url, id, 'tools/call', { name: 'read_note', arguments: {} }, 'read_note');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
      const message = JSON.parse(answer.body) as { result: { content: Array<{ text: string }> }; id: unknown };
      expect(message.result.content[0]?.text).toBe('a "quoted" note, ünïcode');
      // The SDK's key order and no whitespace: what Response.json made of `{ result, jsonrpc, id }`.
      expect(answer.body).toBe(JSON.stringify({ result: message.result, jsonrpc: '2.0', id }));
    }
    const list = await post(url, 8, 'tools/list', {});
    expect(list.status).toBe(200);
    expect(list.headers['content-length']).toBe(String(Buffer.byteLength(list.body)));
    expect((JSON.parse(list.body) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it('a call that reports progress before its result is answered as an event stream: the progress, then the result', async () => {
    const url = await front();
    const answer = await post(url, 9, 'tools/call', { name: 'count_notes', arguments: {}, _meta: { progressToken: 'p1' } }, 'count_notes');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const frames = answer.body.split('\n\n').filter((frame) => frame.startsWith('event: message'));
    const messages = frames.map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { method?: string; id?: unknown; result?: { content: Array<{ text: string }> } });
    expect(messages.map((message) => message.method ?? `answer ${String(message.id)}`)).toEqual(['notifications/progress', 'answer 9']);
    expect(messages[1]?.result?.content[0]?.text).toBe('2 notes');
  });

  it("an error answer keeps the SDK's status: an unknown method, a call without a name", async () => {
    const url = await front();
    const unknown = await post(url, 10, 'tools/unknown', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ id: 10, error: { code: -32601 } });
    const nameless = await post(url, 11, 'tools/call', { arguments: {} });
    expect(JSON.parse(nameless.body)).toMatchObject({ id: 11, error: { code: -32602 } });
    // Refused by the handler (after the dispatch): a 200 answer carrying the error, as the SDK sends it.
    expect(nameless.status).toBe(200);
  });

  it('writes only the plain answer to its own request: not after a related message (the SDK streams then), not for another id', async () => {
    type Sent = Array<[JSONRPCMessage, TransportSendOptions?]>;
    const result = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });
    const progress: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
    const cases: Array<{ sent: Sent; status: number }> = [
      { sent: [[result(1)]], status: 200 },
      { sent: [[progress, { relatedRequestId: 2 }], [result(1)]], status: 200 },
      { sent: [[progress, { relatedRequestId: 1 }], [result(1)]], status: 202 },
      { sent: [[result(2)]], status: 202 },
    ];
    let sent: Sent = [];
    const server = createServer((_req, res: ServerResponse) => {
      const tap = earlyAnswer(res, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } })!;
      for (const [message, options] of sent) tap(message, options);
      if (!res.headersSent) res.writeHead(202).end('left to the SDK');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    for (const { sent: messages, status } of cases) {
      sent = messages;
      const answer = await rawPost(url, '{}');
      expect(answer.status, JSON.stringify(messages)).toBe(status);
      if (status === 200) expect(answer.body).toBe(JSON.stringify(result(1)));
    }
    expect(earlyAnswer({} as ServerResponse, { jsonrpc: '2.0', method: 'notifications/cancelled' })).toBeUndefined();
  });
});
