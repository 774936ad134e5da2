import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { Gateway } from '../../src/app/gateway.js';
import { createMetrics } from '../../src/app/metrics.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, deferred, inMemoryClient, inProcessUpstream, namedToolsApp } from '../harness/index.js';

/**
 * /metrics labels are bounded by the current catalog. On the old main labels were never removed:
 * an upstream renaming its 200 tools made 8,000 label sets and a 10.9 MB scrape.
 */

const cleanups = cleanupAfterEach();

describe('metrics labels', () => {
  it('drop the labels of tools that left the catalog', async () => {
    const app = new McpServer({ name: 'renamer', version: '1.0.0' });
    const registered = Array.from({ length: 20 }, (_, i) => app.registerTool(`old_${i}`, { description: `Old tool ${i}.`, inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'ok' }] })));
    const curated = await curate(app, { name: 'renamer', config: { defaultMode: 'all' }, logger: silentLogger });
    cleanups.push(() => curated.close());
    const metrics = createMetrics(curated.gateway);
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'metrics-test', cleanups });
    for (let i = 0; i < 20; i++) await client.callTool({ name: `old_${i}`, arguments: {} });
    expect((await metrics.render()).body).toContain('tool="old_7"');
    // The upstream renames every tool: the catalog is rebuilt once it re-listed them.
    const rebuilt = deferred();
    curated.gateway.listChangeListeners.add((kind) => kind === 'tools' && curated.gateway.catalog.tools.some((tool) => tool.name === 'new_19') && rebuilt.resolve());
    for (const [i, tool] of registered.entries()) {
      tool.remove();
      app.registerTool(`new_${i}`, { description: `New tool ${i}.`, inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    }
    await rebuilt.promise;
    await client.callTool({ name: 'new_3', arguments: {} });
    const body = (await metrics.render()).body;
    expect(body).not.toMatch(/tool="old_\d+"/);
    expect(body).toContain('lazytools_tool_calls_total{server="renamer",tool="new_3"} 1');
  });

  it('keep the series of two servers named by same-length tokens apart, showing neither token', async () => {
    const first = `ghp_${randomBytes(18).toString('hex')}`;
    const second = `ghp_${randomBytes(18).toString('hex')}`;
    const config = resolveConfig({ groups: { both: { servers: [first, second] } }, modes: { work: { groups: ['both'] } }, defaultMode: 'work', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream(first, namedToolsApp({ read_a: true })), inProcessUpstream(second, namedToolsApp({ read_b: true }))] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const metrics = createMetrics(gateway);
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'metrics-test', cleanups });
    await client.callTool({ name: 'read_a', arguments: {} });
    await client.callTool({ name: 'read_b', arguments: {} });
    await client.callTool({ name: 'read_b', arguments: {} });
    const body = (await metrics.render()).body;
    for (const token of [first, second]) expect(body).not.toContain(token.slice(4, 20));
    const up = [...body.matchAll(/^lazytools_server_up\{server="([^"]+)"\} 1$/gm)].map((match) => match[1]);
    expect(up, 'one series per server').toHaveLength(2);
    expect(new Set(up).size, 'distinct labels').toBe(2);
    const calls = (tool: string) => new RegExp(`^lazytools_tool_calls_total\\{server="([^"]+)",tool="${tool}"\\} (\\d+)$`, 'm').exec(body);
    expect(calls('read_a')?.[2]).toBe('1');
    expect(calls('read_b')?.[2]).toBe('2');
    expect(calls('read_a')?.[1]).not.toBe(calls('read_b')?.[1]);
    // The same label on every scrape and for every metric of one server.
    expect(up).toContain(calls('read_a')?.[1]);
    expect((await metrics.render()).body).toBe(body);
  });
});
