import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';

// A session's first tools/list makes the listed (compacted) definitions of the page it sends, not
// of every tool: at 10,000 tools compacting all of them was most of a cold start's first answer.
// Each tool's schema field notes when its description is read (compaction reads it; the
// catalog and placement read only field names).

describe('tools/list makes listed definitions per page', () => {
  it('the first page of a 2,500-tool catalog reads the schemas of that page only, and the pages still add up to every listed definition', async () => {
    const read = new Set<number>();
    const tools: ToolDefinition[] = Array.from({ length: 2_500 }, (_, i) => ({
      name: `lookup_${i}`,
      description: `Looks up record ${i} by id.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: {
            type: 'string',
            get description() {
              read.add(i);
              return 'Record id, like r-42.';
            },
          },
        },
      },
    }));
    const gateway = new Gateway({ config: resolveConfig({ defaultMode: 'all' }), upstreams: [], locked: [{ server: 'records', tools }] });
    const session = gateway.createSession({});
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.connect(serverSide);
    const client = new Client({ name: 'per-page', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const first = await client.listTools();
      expect(first.nextCursor).toBeDefined();
      const listedOnFirstPage = first.tools.filter((tool) => tool.name.startsWith('lookup_')).length;
      expect(read.size).toBeGreaterThan(0);
      expect(read.size).toBeLessThanOrEqual(listedOnFirstPage + 1);
      const all = [...first.tools];
      for (let cursor = first.nextCursor; cursor !== undefined; ) {
        const page = await client.listTools({ cursor });
        all.push(...page.tools);
        cursor = page.nextCursor;
      }
      const listed = all.filter((tool) => tool.name.startsWith('lookup_'));
      expect(listed.map((tool) => tool.name)).toEqual(gateway.catalog.tools.map((tool) => tool.exposedName));
      expect(listed).toEqual(gateway.catalog.tools.map((tool) => JSON.parse(JSON.stringify(tool.listed)) as unknown));
    } finally {
      await client.close();
      await gateway.close?.();
    }
  });
});
