import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { SearchIndex } from '../../src/search/engine.js';
import { serveHttp } from '../../src/transports/http.js';
import { ACCEPT, cleanupAfterEach, deferred, text } from '../harness/index.js';

/**
 * A 2025 session's POST that its client drops before the answer is cancelled (transports/
 * http-cancel.ts): the handler behind it stops, as for a notifications/cancelled. Over a real
 * listener on 127.0.0.1, a v1 SDK client's session and a fetch aborted mid-search.
 */

const cleanups = cleanupAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a POST its client drops', () => {
  it('stops the search_tools call it carried at the next pass; the session answers the next call', async () => {
    const app = new McpServer({ name: 'records', version: '1.0.0' });
    for (let i = 0; i < 40; i++) app.registerTool(`read_record_${i}`, { description: `Read record ${i} of the ledger.`, inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a record' }] }));
    const curated = await curate(app, { name: 'records', config: {} });
    const http = await serveHttp(curated.gateway, { port: 0 });
    cleanups.push(() => curated.close(), () => http.close());
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    const client = new Client({ name: 'dropper', version: '1' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    // The search yields many turns after its first pass: room for the dropped socket to be seen.
    const original = SearchIndex.prototype.rankMany;
    const started = deferred();
    const outcome = deferred<'finished' | 'stopped'>();
    vi.spyOn(SearchIndex.prototype, 'rankMany').mockImplementationOnce(function* (this: SearchIndex, ...args: Parameters<SearchIndex['rankMany']>) {
      let finished = false;
      try {
        yield;
        started.resolve();
        for (let turn = 0; turn < 20_000; turn++) yield;
        const hits = yield* original.apply(this, args);
        finished = true;
        return hits;
      } finally {
        outcome.resolve(finished ? 'finished' : 'stopped');
      }
    });
    const controller = new AbortController();
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': transport.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'dropped', method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'read the ledger record' } } });
    const dropped = fetch(http.url, { method: 'POST', headers, body, signal: controller.signal }).then((res) => res.text()).catch(() => 'aborted');
    await started.promise;
    controller.abort();
    expect(await dropped).toBe('aborted');
    expect(await outcome.promise, 'the search of the dropped POST').toBe('stopped');
    const next = await client.callTool({ name: 'search_tools', arguments: { query: 'read the ledger record' } });
    expect(text(next as never)).toContain('read_record_');
  });
});
