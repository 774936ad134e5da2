import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../../bench/generate.mjs';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { PAGE_MAX_BYTES } from '../../src/handlers/paging.js';
import { buildResourceIndex } from '../../src/handlers/resources.js';
import { inMemoryClient } from '../harness/index.js';

/** 10,000 generated tools: the preset catch-all group `all` holds every one. */
const sources = parseCatalog(generateCatalog(10_000));

// Catalog work at 10,000 tools beside other suites on 2 cores: an upper bound only, nothing here is timed.
describe('lazytools://groups/<group> is bounded whatever the group holds', { timeout: 120_000 }, () => {
  it('a group of 10,000 tools answers within the page bound, with how many tools it left out and where to find them', async () => {
    const gateway = new Gateway({ config: resolveConfig({}), upstreams: [], locked: sources });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'resource-test' });
    try {
      const read = await client.readResource({ uri: 'lazytools://groups/all' });
      const body = (read.contents[0] as { text: string }).text;
      // Whole, it was about 12 MB: past the 10 MiB an SDK stdio client takes before it drops the connection.
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(PAGE_MAX_BYTES + 1_024);
      const group = JSON.parse(body) as { name: string; tools: unknown[]; omitted?: number; note?: string };
      expect(group.name).toBe('all');
      expect(group.tools.length).toBeGreaterThan(100);
      expect(group.tools.length + (group.omitted ?? 0)).toBe(gateway.catalog.tools.length);
      expect(group.note).toMatch(/search_tools/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('the group index of an rc of 12,000 groups with long descriptions answers within the page bound, counting the rest', async () => {
    const groups = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`group_${i}`, { tools: [`notes:note_${i % 50}`], description: `Group ${i} `.padEnd(1_000, 'd') }]));
    const tools = Array.from({ length: 50 }, (_, i) => ({ name: `note_${i}`, description: 'A note.', inputSchema: { type: 'object' as const } }));
    const gateway = new Gateway({ config: resolveConfig({ groups }), upstreams: [], locked: [{ server: 'notes', tools }] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'resource-test' });
    try {
      const body = ((await client.readResource({ uri: 'lazytools://groups' })).contents[0] as { text: string }).text;
      // Whole, it was 12.7 MB.
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(PAGE_MAX_BYTES);
      const index = JSON.parse(body) as { groups: unknown[]; omitted?: number; note?: string };
      expect(index.groups.length + (index.omitted ?? 0)).toBe(gateway.catalog.groups.size);
      expect(index.note).toMatch(/more groups left out/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

describe('lazytools:// is the gateway\'s own scheme, in any case', () => {
  it('an upstream\'s LAZYTOOLS://groups (a scheme is case-insensitive) is left out, as its lazytools://groups is', () => {
    const resources = ['LAZYTOOLS://groups', 'Lazytools://groups/vault', 'lazytools://groups/x', 'notes://one'].map((uri) => ({ uri, name: uri }));
    const templates = [{ uriTemplate: 'LazyTools://groups/{group}', name: 't' }, { uriTemplate: 'notes://{id}', name: 'n' }];
    const index = buildResourceIndex([{ name: 'notes', primitives: { resources, templates, prompts: [] } as never }]);
    // They were listed beside the gateway's own index and group template, read from the upstream.
    expect(index.resources.map((resource) => resource.uri)).toEqual(['lazytools://groups', 'notes://one']);
    expect(index.templates.map((template) => template.uriTemplate)).toEqual(['lazytools://groups/{group}', 'notes://{id}']);
  });
});

