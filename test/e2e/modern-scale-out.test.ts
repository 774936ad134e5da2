import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served } from '../../src/app/serve.js';
import { serverEntry, tempTree, serveHttpGateway } from '../harness/index.js';

describe('2026-07-28 scale-out: no per-client state between requests', () => {
  const gateways: Served[] = [];

  beforeAll(async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const file = path.join(dir, '.lazytoolsrc.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
        groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true } },
        modes: { notes: { groups: ['notes'] }, audit: { groups: ['reading'], readOnly: true } },
        defaultMode: 'notes',
        variants: { enabled: true },
      }),
    );
    for (let i = 0; i < 2; i++) gateways.push(await serveHttpGateway(file));
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(gateways.map((served) => served.close()));
  });

  it('one client alternates its requests between two gateway processes and sees one server', async () => {
    const [a, b] = gateways.map((served) => new URL(served.http!.url));
    const hits = [0, 0];
    let next = 0;
    // Every request goes to the other gateway than the one before (a load balancer without stickiness).
    const alternating: typeof fetch = (input, init) => {
      const target = next++ % 2;
      hits[target]!++;
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = (target === 0 ? a : b)!.port;
      return fetch(url, init);
    };
    const client = new Client({ name: 'scale-out', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(a!, { fetch: alternating }));
    // One list only: the v2 Client caches tools/list answers for their ttlMs, whatever _meta asked.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_entities');
    for (let i = 0; i < 4; i++) {
      const audit = await client.callTool({ name: 'create_entities', arguments: { entities: [] }, _meta: { 'io.modelcontextprotocol/server-variant': 'audit' } });
      expect(audit.isError).toBe(true);
      const read = await client.callTool({ name: 'read_graph', arguments: {} });
      expect(read.isError).toBeFalsy();
    }
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'open nodes' } });
    expect(JSON.stringify(found.structuredContent)).toContain('open_nodes');
    expect(hits[0]).toBeGreaterThan(3);
    expect(hits[1]).toBeGreaterThan(3);
    await client.close();
  });
});
