import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpTransport, type HttpTransportKind } from '../../src/upstream/http-transport.js';
import { MAX_RECONNECT_MS, MIN_RECONNECT_MS, reconnectDelay } from '../../src/upstream/reconnect.js';
import { cleanupAfterEach, deferred } from '../harness/index.js';

/**
 * A remote server whose SSE stream (the Streamable HTTP GET stream, the HTTP+SSE stream) asks
 * for `retry: 0` and ends at once, on a real 127.0.0.1 listener. On the old code both transports
 * obeyed it: the gateway reopened the stream about 450 times a second for as long as it ran.
 */
async function reopeningServer(kind: HttpTransportKind, wanted: number): Promise<{ url: URL; opened: Promise<number[]>; server: Server }> {
  const times: number[] = [];
  const done = deferred<number[]>();
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      times.push(Date.now());
      if (times.length === wanted) done.resolve([...times]);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end(kind === 'sse' ? 'retry: 0\nevent: endpoint\ndata: /messages\n\n' : 'retry: 0\nid: 1\ndata: \n\n');
    }
    // The initialized notification (Streamable HTTP): accepted, then the SDK opens its GET stream.
    req.resume().on('end', () => res.writeHead(202).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), opened: done.promise, server };
}

describe('reopening a remote server\'s SSE stream', () => {
  const cleanups = cleanupAfterEach();

  for (const kind of ['streamable-http', 'sse'] as const) {
    it(`${kind}: a server's retry: 0 waits at least ${MIN_RECONNECT_MS} ms between openings`, async () => {
      const { url, opened, server } = await reopeningServer(kind, 3);
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      server.on('connection', (socket) => cleanups.push(() => void socket.destroy()));
      const transport = httpTransport(url, kind, { headers: {}, fetch });
      transport.onerror = () => {};
      cleanups.push(() => transport.close());
      await transport.start();
      if (kind === 'streamable-http') await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const times = await opened;
      const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
      // Paced from when the client opened; the times are taken where the server handles each GET,
      // which on a busy machine may run tens of milliseconds late (965 ms measured once under load).
      // Unpaced, the gaps were about 2 ms.
      for (const gap of gaps) expect(gap, `gaps between openings: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(MIN_RECONNECT_MS - 150);
    }, 15_000);
  }

  it('the wait is the server\'s within [MIN, MAX]: a retry past what a timer waits no longer fires after 1 ms', () => {
    expect(reconnectDelay(0)).toBe(MIN_RECONNECT_MS);
    expect(reconnectDelay(5_000)).toBe(5_000);
    expect(reconnectDelay(3_000_000_000)).toBe(MAX_RECONNECT_MS);
    expect(reconnectDelay(Number.NaN)).toBe(MAX_RECONNECT_MS);
  });
});
