import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Upstream } from '../../src/upstream/upstream.js';
import { LIST_TIMEOUTS } from '../../src/upstream/lister.js';
import { cleanupAfterEach } from '../harness/index.js';

/**
 * One whole list of an upstream is bounded (lister.ts LIST_TIMEOUTS), not only each of its pages:
 * a server answering every tools/list page well within the start timeout, with a cursor to one more
 * page each time, held its start (and every call waiting on it) for 1,000 pages.
 */

const cleanups = cleanupAfterEach();

/** Pages of one tool each, forever, each answered after `pageMs`; counts the pages it answered. */
function endlessPages(pageMs: number): { server: Server; answered: () => number } {
  let answered = 0;
  const server = new Server({ name: 'slow-pages', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const page = Number(request.params?.cursor ?? 0);
    await new Promise((resolve) => setTimeout(resolve, pageMs));
    answered++;
    return { tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' as const } }], nextCursor: String(page + 1) };
  });
  return { server, answered: () => answered };
}

describe('an upstream listing tools page after page', () => {
  it('starts with the pages read by the deadline, and says so naming the server', async () => {
    // Each page takes a tenth of the per-page timeout: 1,000 of them would take 100 timeouts.
    const startTimeoutMs = 1_000;
    const { server, answered } = endlessPages(startTimeoutMs / 10);
    const warnings: string[] = [];
    const upstream = new Upstream('slow-pages', {
      connect: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void server.connect(serverSide);
        return clientSide;
      },
      startTimeoutMs,
      logger: { info: () => {}, warn: (message) => warnings.push(message), error: () => {} },
    });
    cleanups.push(() => upstream.stop());
    await upstream.start();
    const names = upstream.tools.map((tool) => tool.name);
    // The pages read before the deadline, in order; a page answered after it is not taken.
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(answered());
    expect(names).toEqual(names.map((_, i) => `tool_${i}`));
    expect(answered(), 'pages asked for').toBeLessThan(LIST_TIMEOUTS * 10 + 2);
    const said = warnings.filter((line) => line.includes('listing its tools took longer'));
    expect(said).toEqual([`slow-pages: listing its tools took longer than ${LIST_TIMEOUTS} x its start timeout (${LIST_TIMEOUTS * startTimeoutMs} ms): only the ${names.length} tools of its first ${names.length} pages are served`]);
  });
});
