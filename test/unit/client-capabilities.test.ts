import type { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../src/config/resolve.js';
import { parseConfig } from '../../src/config/load.js';
import { Gateway } from '../../src/app/gateway.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { cleanupAfterEach, inMemoryClientV2 } from '../harness/index.js';

// Written on the v2 SDK line on both sides: a v2 McpServer upstream and a v2 Client.

const cleanups = cleanupAfterEach();

/** An upstream whose `caps` tool answers with the client capabilities it was told at initialize. */
function capsUpstream(): Upstream {
  return new Upstream('probe', {
    connect: () => {
      const server = new McpServer({ name: 'probe', version: '1.0.0' });
      server.registerTool('caps', { description: 'The client capabilities this server was told.', inputSchema: z.object({}) }, () => ({
        content: [{ type: 'text', text: JSON.stringify(server.server.getClientCapabilities() ?? null) }],
      }));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void server.connect(serverSide);
      return clientSide;
    },
  });
}

async function session(gateway: Gateway, capabilities: Record<string, unknown>) {
  return inMemoryClientV2((t) => gateway.createSession().connect(t), { name: 'caps-client', clientOptions: { capabilities }, cleanups });
}

async function toldCapabilities(client: Client): Promise<Record<string, unknown> | null> {
  const result = await client.callTool({ name: 'caps', arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? 'null') as Record<string, unknown> | null;
}

describe('client capabilities reach the upstreams', () => {
  it('tells an upstream started before any client everything lazytools can route', async () => {
    const upstream = capsUpstream();
    const gateway = new Gateway({ config: resolveConfig(parseConfig({ defaultMode: 'all' })), upstreams: [upstream] });
    cleanups.push(() => gateway.close());
    await gateway.start();
    const client = await session(gateway, { roots: {} });
    expect(await toldCapabilities(client)).toEqual({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }); // the v2 Client spells an empty elicitation as form
  });

  it('tells an upstream (re)started while clients are connected what those clients declared', async () => {
    const upstream = capsUpstream();
    const gateway = new Gateway({ config: resolveConfig(parseConfig({ defaultMode: 'all' })), upstreams: [upstream] });
    cleanups.push(() => gateway.close());
    await gateway.start();
    const rootsOnly = await session(gateway, { roots: {} });
    await upstream.stop();
    // No sampling and no elicitation: a server that adapts to its client takes its fallback path.
    expect(await toldCapabilities(rootsOnly)).toEqual({ roots: { listChanged: true } });

    const sampler = await session(gateway, { sampling: { tools: {} }, elicitation: { url: {} } });
    await upstream.stop();
    expect(await toldCapabilities(sampler)).toEqual({ roots: { listChanged: true }, sampling: { tools: {} }, elicitation: { url: {} } });
  });
});
