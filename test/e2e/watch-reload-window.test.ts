import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { allText, rcProject, serveHttpGateway, serverEntry } from '../harness/index.js';

/**
 * serve --watch: a reload that narrows a mode takes effect at once, even when the same edit adds
 * a server that takes its whole start timeout to come up. Before, the new rules were read with the
 * old catalog (tool groups placed under the old rc) until every new server had started, so a tool
 * the edit took out of a `hiddenTools: "reject"` mode still ran there meanwhile.
 */
function rc(memoryGroup: string[], extra: Record<string, unknown> = {}) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } }, ...extra },
    groups: { notes: { tools: memoryGroup } },
    modes: { notes: { description: 'Knowledge graph notes', groups: ['notes'] } },
    defaultMode: 'notes',
    policy: { hiddenTools: 'reject' },
  };
}

// Never answers initialize: its start lasts the whole start timeout.
const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1 << 30)'], startTimeout: 60_000 };

describe('serve --watch while a new server is still starting', () => {
  it('a tool the edit took out of a reject mode is refused at once in an open session', async () => {
    const { file } = rcProject(rc(['memory:*']));
    const served = await serveHttpGateway(file, { watch: true });
    const client = new Client({ name: 'reload-window', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_entities');
      writeFileSync(file, JSON.stringify(rc(['memory:read_graph'], { slow: silent })));
      await vi.waitFor(() => expect(Object.keys(served.gateway.config.servers)).toContain('slow'), { timeout: 10_000, interval: 20 });
      const call = await client.callTool({ name: 'execute_tool', arguments: { name: 'create_entities', arguments: { entities: [] } } });
      expect(call.isError).toBe(true);
      expect(allText(call)).toMatch(/not part of mode "notes"/);
      const direct = await client.callTool({ name: 'create_entities', arguments: { entities: [] } });
      expect(direct.isError).toBe(true);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('create_entities');
    } finally {
      await client.close().catch(() => {});
      await served.close();
    }
  }, 120_000);
});
