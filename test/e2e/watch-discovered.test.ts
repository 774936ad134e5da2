import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { allText, rcProject, serveHttpGateway, serverEntry } from '../harness/index.js';

/**
 * serve --watch: what search added to a session's list follows the reloaded rc. Before, a
 * session kept the tools search had added while the rc let it (hiddenTools "hide"), so an edit to
 * `hiddenTools: "reject"` left them listed and callable there until it ended, and one to
 * `discovery.maxEnabled: 0` left them listed.
 */
function rc(extra: Record<string, unknown>) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
    groups: { reading: { tools: ['memory:read_graph', 'memory:search_nodes'] }, cleanup: { tools: ['memory:delete_entities'] } },
    modes: { reader: { description: 'Read the knowledge graph', groups: ['reading'] }, cleanup: { description: 'Delete entities', groups: ['cleanup'] } },
    defaultMode: 'reader',
    ...extra,
  };
}

describe('serve --watch and the tools search added to a session', () => {
  for (const [label, tighter, loaded] of [
    ['hiddenTools "reject"', { policy: { hiddenTools: 'reject' } }, (config: { hiddenTools: string }) => config.hiddenTools === 'reject'],
    ['discovery.maxEnabled 0', { discovery: { maxEnabled: 0 } }, (config: { maxDiscovered: number }) => config.maxDiscovered === 0],
  ] as const) {
    it(`a reload to ${label} takes them back`, async () => {
      const { file } = rcProject(rc({}));
      const served = await serveHttpGateway(file, { watch: true });
      const client = new Client({ name: 'reload-discovered', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
        const found = await client.callTool({ name: 'search_tools', arguments: { query: 'delete entities from the knowledge graph', enable: true } });
        expect(allText(found)).toContain('delete_entities');
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('delete_entities');
        writeFileSync(file, JSON.stringify(rc(tighter)));
        await vi.waitFor(() => expect(loaded(served.gateway.config as never)).toBe(true), { timeout: 10_000, interval: 20 });
        expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('delete_entities');
        // Under "hide" a tool left out of the list may still be called; under "reject" it may not.
        if (label.startsWith('discovery')) return;
        const call = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['x'] } });
        expect(call.isError).toBe(true);
        const executed = await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_entities', arguments: { entityNames: ['x'] } } });
        expect(executed.isError).toBe(true);
      } finally {
        await client.close().catch(() => {});
        await served.close();
      }
    }, 120_000);
  }
});
