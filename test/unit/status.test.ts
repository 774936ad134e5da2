import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ServedStrategy } from '../../src/catalog/own-tools.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { statusReport } from '../../src/tokens/report.js';
import { inMemoryClient, referenceSources } from '../harness/index.js';

/** focus_mode's status and `lazytools status`/`check` count a list with one function. */
describe('one status computation', () => {
  it.each<ServedStrategy>(['notify', 'hybrid', 'proxy'])('focus_mode and statusReport agree under %s', async (strategy) => {
    const config = resolveConfig({ strategy, alwaysVisible: ['memory:read_graph'] });
    const gateway = new Gateway({ config, upstreams: [], locked: await referenceSources() });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'status-test' });
    const report = statusReport(gateway.catalog, config, strategy);
    try {
      for (const row of report.modes) {
        const result = (await client.callTool({ name: 'focus_mode', arguments: { mode: row.name } })) as CallToolResult;
        const listed = (await client.listTools()).tools.length;
        expect(result.structuredContent, row.name).toMatchObject({
          mode: row.name,
          visibleTools: row.tools,
          totalTools: row.totalTools,
          tokens: row.tokens,
          totalTokens: row.totalTokens,
          reduction: row.reduction,
        });
        // What the client receives: the catalog tools counted plus lazytools' own tools.
        expect(listed, row.name).toBe(row.tools + (strategy === 'notify' ? 2 : strategy === 'hybrid' ? 3 : 5));
      }
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
