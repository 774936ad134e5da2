import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STALLED_REQUEST_BYTES } from '../../src/transports/http-unread.js';
import { ACCEPT, FIXTURES, modernMeta, rcProject, serveHttpCli, stopAll } from '../harness/index.js';

/**
 * A 2026-07-28 client that calls a tool reporting progress and never reads its answer stream: the
 * SDK queues each notification for the stream in memory while the socket is full. On the old code
 * nothing bounded that queue: a tool reporting verbose progress (or, before progress tokens were
 * bounded, a client's 1 MB token repeated in every notification: past 2 GB in 17 s) grew the
 * gateway towards the heap limit. Now, once the stream stalls, notifications pass until about
 * MAX_STALLED_REQUEST_BYTES of them wait, and the rest are dropped; the answer still comes.
 * (Real upstream over stdio, the built CLI on 127.0.0.1; fails on the old code: every
 * notification was queued and delivered.)
 */

afterEach(() => stopAll());

const TOKEN = 'progress-of-the-unread-call';
const COUNT = 4_000;

describe('a 2026-07-28 answer stream its client does not read', () => {
  it(`drops progress past about ${MAX_STALLED_REQUEST_BYTES / 1024 / 1024} MiB waiting, and still answers`, async () => {
    const { dir } = rcProject({ servers: { noisy: { command: process.execPath, args: [FIXTURES.flood], env: { FLOOD_NAME: 'noisy' } } }, defaultMode: 'all', strategy: 'notify' });
    const gateway = await serveHttpCli([], { cwd: dir, env: { LAZYTOOLS_CACHE_DIR: '' } });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'noisy_progress', arguments: { count: COUNT, bytes: 64 * 1024 }, _meta: { ...modernMeta(), progressToken: TOKEN } } });
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'noisy_progress' };
    const answered = new Promise<{ progress: number; text: string }>((resolve, reject) => {
      const req = request(gateway.url, { method: 'POST', headers }, (res) => {
        // Not read until the upstream has reported every time and answered.
        res.socket.pause();
        void gateway.stderrMatching(new RegExp(`progress done ${COUNT}`)).then(() => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            // Keep only what follows the last progress event: the answer.
            const events = (text + chunk).split('\n\n');
            text = events.pop() ?? '';
            for (const event of events) if (event.includes('notifications/progress')) counted++;
              else text = `${event}\n\n${text}`;
          });
          res.on('end', () => resolve({ progress: counted, text }));
          res.socket.resume();
        }, reject);
      });
      let counted = 0;
      req.on('error', reject);
      req.end(body);
    });
    const { progress, text } = await answered;
    expect(text).toContain(`reported ${COUNT} times`);
    // Each notification carries a 64 KB message (256 MB in all): what reached the client is what the
    // kernel's socket buffers took before the stream stalled (575 of them with a 32 MB tcp_rmem)
    // and the bound's 1 MiB after.
    expect(progress, 'progress notifications delivered to a client that did not read').toBeLessThan(COUNT / 2);
    expect(progress).toBeGreaterThan(0);
  }, 120_000);
});
