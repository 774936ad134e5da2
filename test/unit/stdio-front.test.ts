import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { openSession } from '../../src/callers/session.js';
import { MAX_UNREAD_BYTES } from '../../src/protocol/lines.js';
import { StdioFrontTransport } from '../../src/transports/stdio.js';
import { serveStdioEras } from '../../src/transports/stdio-eras.js';
import { cleanupAfterEach, namedToolsApp, stalledPipe } from '../harness/index.js';

const cleanups = cleanupAfterEach();

const logLine = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: `line ${i}` } });

describe('the stdio front transport (transports/stdio.ts) under a client that reads slowly', () => {
  it('waits for a drain with one listener, however many sends wait, and settles them all when it drains', async () => {
    const { stream: output, flush } = stalledPipe();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    await transport.start();
    const sends = Array.from({ length: 20 }, (_, i) => transport.send(logLine(i)));
    expect(output.listenerCount('drain'), 'drain listeners while 20 sends wait').toBeLessThanOrEqual(1);
    flush();
    await Promise.all(sends);
    expect(output.listenerCount('drain')).toBe(0);
    await transport.close();
  });

  it('settles the sends still waiting when it closes (an output that errored or went away never drains)', async () => {
    const { stream: output } = stalledPipe();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    await transport.start();
    const sends = Array.from({ length: 5 }, (_, i) => transport.send(logLine(i)));
    let settled = 0;
    for (const send of sends) void send.then(() => settled++);
    await transport.close();
    await Promise.all(sends);
    expect(settled).toBe(5);
    expect(output.listenerCount('drain')).toBe(0);
  });
});

describe('the stdio front transport under an upstream that logs faster than its client reads', () => {
  it('drops notifications while more than MAX_UNREAD_BYTES wait unread, says so once per stall, and still writes answers', async () => {
    const { stream: output, flush, lines } = stalledPipe();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    const warnings: string[] = [];
    transport.warn = (message) => warnings.push(message);
    await transport.start();
    // 900 KB lines, each under the 1 MiB a notification may hold: 40 of them are 36 MB.
    const big = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: `${i} ${'x'.repeat(900_000)}` } });
    for (let i = 0; i < 40; i++) void transport.send(big(i));
    expect(output.writableLength, 'bytes queued for a client that does not read').toBeLessThanOrEqual(MAX_UNREAD_BYTES + 1_000_000);
    const answer = { jsonrpc: '2.0' as const, id: 7, result: { content: [] } };
    const before = output.writableLength;
    void transport.send(answer);
    expect(output.writableLength, 'the answer is queued all the same').toBeGreaterThan(before);
    // A list change still goes: dropped, the client's list would stay stale.
    const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' };
    void transport.send(changed);
    void transport.send(big(99));
    expect(warnings).toEqual([`the stdio client left more than ${MAX_UNREAD_BYTES} bytes unread: notifications to it are dropped until it reads`]);
    flush();
    await new Promise<void>((resolve) => (output.writableLength === 0 ? resolve() : output.once('drain', resolve)));
    expect(lines.filter((line) => line.includes('notifications/message')).length, 'notifications written').toBeLessThan(12);
    expect(lines.slice(-2)).toEqual([`${JSON.stringify(answer)}\n`, `${JSON.stringify(changed)}\n`]);
    // It reads again: notifications pass.
    await transport.send(logLine(1));
    expect(lines.at(-1)).toBe(`${JSON.stringify(logLine(1))}\n`);
    await transport.close();
  });
});

// adv31: a resources/updated was dropped with the log lines while the client was behind (two large
// answers at once put a reader that keeps up there for a moment): the subscriber never re-read
// that resource. They are held by URI while notifications drop, and sent once it reads.
describe('resource updates to a stdio client that is behind', () => {
  it('holds them by URI while notifications are dropped and sends each once the client reads', async () => {
    const { stream: output, flush, lines } = stalledPipe();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    await transport.start();
    const big = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: `${i} ${'x'.repeat(900_000)}` } });
    for (let i = 0; i < 12; i++) void transport.send(big(i));
    const updated = (uri: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri } });
    for (const uri of ['file:///a', 'file:///b', 'file:///a']) void transport.send(updated(uri));
    void transport.send(big(99));
    expect(lines.some((line) => line.includes('resources/updated')), 'nothing written past the bound yet').toBe(false);
    flush();
    await new Promise<void>((resolve) => (output.writableLength === 0 ? resolve() : output.once('drain', resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((line) => line.includes('resources/updated'))).toEqual([`${JSON.stringify(updated('file:///b'))}\n`, `${JSON.stringify(updated('file:///a'))}\n`]);
    await transport.close();
  });
});

describe('a stdio connection whose 2025 session cannot be opened (transports/stdio-eras.ts)', () => {
  it('ends the connection saying why, instead of holding the initialize unanswered', async () => {
    const curated = await curate(namedToolsApp({ read_note: true }), { name: 'notes', config: { defaultMode: 'all' } });
    cleanups.push(() => curated.close());
    const input = new PassThrough();
    const transport = new StdioFrontTransport(input, new PassThrough());
    const connection = serveStdioEras(curated.gateway, transport, {
      served: undefined,
      strategy: undefined,
      // Opening the session fails (its scope refused, its server unable to connect).
      legacy: () => Promise.reject(new Error('the session could not be opened')),
    });
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
    const { ended } = await connection;
    expect(await ended).toBe('stdio: the session could not be opened');
  });
});

describe('a stdio connection for a fixed mode a reload took away before the client came', () => {
  it('ends naming the mode, as a session open at the reload ends; it never serves a mode that is gone', async () => {
    const curated = await curate(namedToolsApp({ read_note: true }), { name: 'notes', config: { defaultMode: 'all' } });
    cleanups.push(() => curated.close());
    const input = new PassThrough();
    const transport = new StdioFrontTransport(input, new PassThrough());
    // What serve does for `serve --mode gone`, once the rc no longer has "gone".
    const connection = serveStdioEras(curated.gateway, transport, {
      served: ['gone'],
      strategy: undefined,
      legacy: async (front) => {
        const session = openSession(curated.gateway, { served: ['gone'] });
        await session.connect(front);
      },
    });
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
    const { ended } = await connection;
    expect(await ended).toBe('stdio: mode "gone" is no longer in the config; this connection served only that mode and was closed');
  });
});

describe('a client message the SDK would drop without a word (the client waited for ever)', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}', 1, 'params must be an object'],
    ['{"jsonrpc":"2.0","id":2,"method":"tools/list","params":null}', 2, 'params must be an object'],
    ['{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}', 3, 'params must be an object'],
    ['{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":"x"}}', 4, 'params._meta must be an object'],
    ['{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":{}}}}', 5, 'params._meta.progressToken must be a string or an integer'],
    ['{"jsonrpc":"2.0","id":"6","method":5}', '6', 'method must be a string'],
    ['{"jsonrpc":"2.0","id":7,"metod":"ping"}', 7, 'a message with an id needs a method (a request), or a result or an error (a response)'],
    ['{"jsonrpc":"2.0","id":8.5,"method":"ping"}', 8.5, 'id must be a string or an integer'],
    ['{"jsonrpc":"2.0","id":9,"method":"ping","extra":1}', 9, 'a request has no member "extra"'],
  ])('%s is answered with an invalid request, not handed on', async (line, id, why) => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioFrontTransport(input, output);
    const handed: unknown[] = [];
    transport.onmessage = (message) => handed.push(message);
    await transport.start();
    cleanups.push(() => transport.close());
    const answered = new Promise<string>((resolve) => output.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    input.write(`${line}\n`);
    expect(JSON.parse(await answered)).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${why}` } });
    expect(handed).toEqual([]);
  });

  it('hands on requests, answers and notifications of the usual shapes', async () => {
    const input = new PassThrough();
    const transport = new StdioFrontTransport(input, new PassThrough());
    const handed: unknown[] = [];
    transport.onmessage = (message) => handed.push(message);
    await transport.start();
    cleanups.push(() => transport.close());
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a', arguments: {}, _meta: { progressToken: 'p' } } },
      { jsonrpc: '2.0', id: 'x', method: 'ping' },
      { jsonrpc: '2.0', id: 0, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: 'not an object, and no id to answer' },
    ];
    input.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    await new Promise((resolve) => setImmediate(resolve));
    expect(handed).toEqual(messages);
  });
});
