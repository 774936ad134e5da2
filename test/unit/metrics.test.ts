import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/front/curate.js';
import { createMetrics } from '../../src/front/metrics.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, deferred, inMemoryClient } from '../harness/index.js';

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
});
