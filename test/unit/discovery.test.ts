import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { Gateway } from '../../src/app/gateway.js';
import { countToolTokens } from '../../src/util/tokens.js';
import { inMemoryClient, referenceSources, text } from '../harness/index.js';

const tokensOf = (tools: ToolDefinition[]) => tools.reduce((sum, tool) => sum + countToolTokens(tool), 0);

/** A session of a gateway over the reference catalogs with no upstream process. */
async function connect(gateway: Gateway) {
  return { client: await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'discovery-test' }) };
}

describe('discovery on the reference catalogs (offline)', () => {
  it('keeps the group index under 500 tokens and the proxy list constant as catalogs grow', async () => {
    const sources = await referenceSources();
    const small = new Gateway({ config: resolveConfig({ strategy: 'proxy' } as RcConfig), upstreams: [], locked: sources });
    const { client } = await connect(small);
    const index = text(await client.callTool({ name: 'list_tool_groups', arguments: {} }));
    expect(index).toContain('security (11,');
    // One line per group holding tools: the product-team presets add groups (cloud, access) here.
    expect(countToolTokens({ name: '', description: index, inputSchema: {} })).toBeLessThan(560);
    const security = text(await client.callTool({ name: 'list_tool_groups', arguments: { group: 'security' } }));
    expect(security.split('\n')).toHaveLength(12);
    const proxyTokens = tokensOf((await client.listTools()).tools as ToolDefinition[]);
    const big = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: [...sources, { server: 'more', tools: Array.from({ length: 1000 }, (_, i) => ({ name: `tool_${i}`, description: 'x', inputSchema: { type: 'object' as const } })) }] });
    const bigClient = await connect(big);
    expect(tokensOf((await bigClient.client.listTools()).tools as ToolDefinition[])).toBe(proxyTokens);
  });
});

describe('search_tools echoes the queries it read, bounded', () => {
  it('a long query is cut at a whole character: no half emoji in "No tools match"', async () => {
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: [{ server: 'notes', tools: [{ name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' as const } }] }] });
    const { client } = await connect(gateway);
    try {
      // 199 characters, then an emoji across the 200th: cut there it was half a character (\ud83d).
      const query = `${'zq'.repeat(99)}z😀 more`;
      const answer = text(await client.callTool({ name: 'search_tools', arguments: { query } }));
      expect(answer).toMatch(/^No tools match "(zq)+z…"\.$/);
      expect(answer).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

describe('describe_tools: the work per name is bounded, not the size of the tool\'s groups', () => {
  it('names a tool\'s first 8 peers reading about as many, however big its group (a group of 5,000 cost every name 5,000)', async () => {
    const tools = Array.from({ length: 5_000 }, (_, i) => ({ name: `tool_${String(i).padStart(4, '0')}`, description: 'x', inputSchema: { type: 'object' as const } }));
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy', groups: { big: { servers: ['wide'] } }, modes: { wide: { groups: ['big'] } }, defaultMode: 'wide' }), upstreams: [], locked: [{ server: 'wide', tools }] });
    const { client } = await connect(gateway);
    try {
      // Count the reads of the big group's tools while describe_tools runs.
      const group = gateway.catalog.groups.get('big')!;
      let reads = 0;
      group.tools = new Proxy(group.tools, { get: (target, key, receiver) => (typeof key === 'string' && /^\d+$/.test(key) && reads++, Reflect.get(target, key, receiver)) });
      const answer = JSON.parse(text(await client.callTool({ name: 'describe_tools', arguments: { names: Array(100).fill('tool_0000') } }))) as { tools: Array<{ related: string[] }> };
      expect(answer.tools).toHaveLength(100);
      expect(answer.tools[0]?.related).toEqual(['tool_0001', 'tool_0002', 'tool_0003', 'tool_0004', 'tool_0005', 'tool_0006', 'tool_0007', 'tool_0008']);
      expect(reads).toBeLessThan(100 * 20);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
