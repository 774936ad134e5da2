import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpTransport } from '../../src/upstream/http-transport.js';
import { cleanupAfterEach, deferred } from '../harness/index.js';

/**
 * The fallback from Streamable HTTP to HTTP+SSE, against a real 127.0.0.1 listener that refuses
 * the POST as an HTTP+SSE-only server does, then opens its SSE stream and never sends the
 * `endpoint` event (keep-alive comments only). On the old code the start gave up (its timeout)
 * and closed the transport, but the SSE stream being tried stayed open for as long as the
 * gateway ran, one more at each restart.
 */
describe('httpTransport falling back to HTTP+SSE', () => {
  const cleanups = cleanupAfterEach();

  it('closing it while the SSE stream waits for its endpoint event closes that stream', async () => {
    const opened = deferred();
    const closed = deferred();
    const server = createServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': hello\n\n');
        const keepAlive = setInterval(() => res.write(': still here\n\n'), 200);
        res.on('close', () => {
          clearInterval(keepAlive);
          closed.resolve();
        });
        return void opened.resolve();
      }
      req.resume().on('end', () => res.writeHead(405, { 'content-type': 'text/plain' }).end('POST not supported'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.on('connection', (socket) => cleanups.push(() => void socket.destroy()));

    const transport = httpTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), undefined, { headers: {}, fetch });
    transport.onerror = () => {};
    await transport.start();
    // The initialize the start sends: it waits on the SSE stream's endpoint event, which never comes.
    const sent = transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    sent.catch(() => {});
    await opened.promise;
    // What the client does when its start timeout fires.
    await transport.close();
    await closed.promise;
    await expect(sent).rejects.toThrow('POST not supported');
  }, 10_000);
});

/**
 * Every POST the SDK's Streamable HTTP transport sends without a signal of its own (a
 * notification, an answer to the server's request) was given the transport's one close signal,
 * and undici adds an abort listener per fetch to it, removed only when the request is garbage
 * collected: the gateway's one long-lived signal per upstream gained a listener per message
 * (Node warns past the 1,500 undici allows). Each fetch now gets a signal of its own that follows it.
 */
describe('httpTransport signals', () => {
  const cleanups = cleanupAfterEach();

  it('a notification\'s POST adds no listener to the transport\'s own signal', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method?: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.on('connection', (socket) => cleanups.push(() => void socket.destroy()));
    const transport = httpTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), 'streamable-http', { headers: {}, fetch });
    transport.onerror = () => {};
    transport.onmessage = () => {};
    cleanups.push(() => transport.close());
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const own = (transport as unknown as { _abortController: AbortController })._abortController.signal;
    await Promise.all(Array.from({ length: 30 }, (_, i) => transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: i, progress: 1 } })));
    expect(getEventListeners(own, 'abort').length, 'abort listeners on the transport\'s signal after 30 notifications').toBeLessThan(5);
  });
});
