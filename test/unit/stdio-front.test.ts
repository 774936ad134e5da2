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
