import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { MAX_PROGRESS_TOKEN_CHARS } from '../../src/protocol/jsonrpc.js';
import { cleanupAfterEach, inProcessUpstream } from '../harness/index.js';

/**
 * Every progress notification repeats the request's progress token. On the old code any token was
 * used: a client's 1 MB token on a tool reporting progress 3,000 times made 579 MB of output from
 * one 1 MB request and held another client's call for 6.4 s. A token over
 * MAX_PROGRESS_TOKEN_CHARS now gets no progress (the call runs and answers as before); a short one
 * gets every report, on the raw relay and through execute_tool (the SDK path) alike.
 */
const cleanups = cleanupAfterEach();

describe('progress tokens', () => {
  it(`reports progress on a token of up to ${MAX_PROGRESS_TOKEN_CHARS} characters, none on a longer one; the call answers either way`, async () => {
    const config = resolveConfig({ groups: { work: { servers: ['work'] } }, modes: { work: { groups: ['work'] } }, defaultMode: 'work', strategy: 'hybrid' });
    const work = new McpServer({ name: 'work', version: '1.0.0' });
    work.registerTool('long_job', { description: 'Run a long job, reporting progress.', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async (_args, ctx) => {
      for (let progress = 1; progress <= 3; progress++) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: ctx.mcpReq._meta?.progressToken ?? 0, progress, total: 3 } });
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('work', work)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const [client, server] = InMemoryTransport.createLinkedPair();
    await gateway.createSession({}).connect(server);
    const progress = new Map<unknown, number>();
    const answered = new Map<unknown, () => void>();
    client.onmessage = (message) => {
      if ('method' in message && message.method === 'notifications/progress') {
        const token = (message.params as { progressToken: unknown }).progressToken;
        progress.set(token, (progress.get(token) ?? 0) + 1);
      } else if ('id' in message) answered.get(message.id)?.();
    };
    await client.start();
    cleanups.push(() => client.close());
    let id = 0;
    const request = async (method: string, params: Record<string, unknown>) => {
      const done = new Promise<void>((resolve) => answered.set(++id, resolve));
      await client.send({ jsonrpc: '2.0', id, method, params });
      await done;
    };
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const fits = 'p'.repeat(MAX_PROGRESS_TOKEN_CHARS);
    const over = 'q'.repeat(MAX_PROGRESS_TOKEN_CHARS + 1);
    for (const token of [fits, over]) {
      await request('tools/call', { name: 'long_job', arguments: {}, _meta: { progressToken: token } });
      await request('tools/call', { name: 'execute_tool', arguments: { name: 'long_job', arguments: {} }, _meta: { progressToken: token } });
    }
    expect(progress.get(fits)).toBe(6);
    expect(progress.has(over)).toBe(false);
  });
});
