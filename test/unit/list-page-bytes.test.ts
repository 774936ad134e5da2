import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Upstream } from '../../src/upstream/upstream.js';
import { MAX_LIST_PAGE_BYTES } from '../../src/upstream/lister.js';
import { cleanupAfterEach } from '../harness/index.js';

/**
 * What one whole list of an upstream may make the gateway read is bounded (lister.ts
 * MAX_LIST_PAGE_BYTES, MAX_PAGES), not only what it keeps: pages of no tools, with megabytes
 * beside them or in their cursor, once cost the gateway up to 1,000 pages of 64 MiB each, for two
 * minutes after every tools/list_changed; a cursor handed out again was followed 1,000 times.
 */

const cleanups = cleanupAfterEach();

/** A server whose pages are `page(n)`; counts the pages it answered. */
function pagedServer(page: (n: number, cursor: string | undefined) => Record<string, unknown>): { server: Server; answered: () => number } {
  let answered = 0;
  const server = new Server({ name: 'pages', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => page(answered++, request.params?.cursor) as never);
  return { server, answered: () => answered };
}

async function started(server: Server): Promise<{ upstream: Upstream; warnings: string[] }> {
  const warnings: string[] = [];
  const upstream = new Upstream('pages', {
    connect: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void server.connect(serverSide);
      return clientSide;
    },
    startTimeoutMs: 30_000,
    logger: { info: () => {}, warn: (message) => warnings.push(message), error: () => {} },
  });
  cleanups.push(() => upstream.stop());
  await upstream.start();
  return { upstream, warnings };
}

describe('an upstream whose pages carry what no list holds', () => {
  it('is read up to MAX_LIST_PAGE_BYTES for the whole list, its tools so far served, and says so naming the server', async () => {
    const junkBytes = 4 * 1024 * 1024;
    const junk = 'j'.repeat(junkBytes);
    const { server, answered } = pagedServer((n) => ({ tools: n === 0 ? [{ name: 'first', inputSchema: { type: 'object' } }] : [], junk, nextCursor: `c${n + 1}` }));
    const { upstream, warnings } = await started(server);
    expect(upstream.tools.map((tool) => tool.name)).toEqual(['first']);
    expect(answered(), 'pages asked for').toBeLessThanOrEqual(Math.ceil(MAX_LIST_PAGE_BYTES / junkBytes) + 1);
    expect(warnings.filter((line) => line.includes('pages of more than'))).toEqual([
      `pages: listing its tools sent pages of more than ${(MAX_LIST_PAGE_BYTES / 1024 / 1024).toFixed(1)} MiB in all: only the 1 tools of its first ${answered()} pages are served`,
    ]);
  });

  it('stops at a cursor it handed out before, keeping the tools of the pages read', async () => {
    const { server, answered } = pagedServer((n, cursor) => ({ tools: [{ name: `t_${cursor ?? 'start'}`, inputSchema: { type: 'object' } }], nextCursor: n === 0 ? 'a' : 'b' }));
    const { upstream, warnings } = await started(server);
    // Pages: start -> a, a -> b, b -> b (again): the third page's cursor was handed out already.
    expect(answered(), 'pages asked for').toBe(3);
    expect(upstream.tools.map((tool) => tool.name)).toEqual(['t_start', 't_a', 't_b']);
    expect(warnings.filter((line) => line.includes('cursor'))).toEqual(['pages: listing its tools handed out a cursor it had handed out before: only the 3 tools of its first 3 pages are served']);
  });
});
