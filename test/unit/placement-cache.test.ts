import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type BuiltCatalog, type ServerTools } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock, type LockFile } from '../../src/catalog/lock.js';
import type { RcConfig } from '../../src/config/schema.js';
import { resolveConfig } from '../../src/config/resolve.js';

// Lock files carry each tool's placement so a gateway starting on one skips scoring. These tests
// build catalogs from a lock (its JSON, as a gateway reads it) and from the same tools without the
// cache, and require equal results; a tampered cache entry shows whether the cache was read.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'catalogs');
const readFixture = (file: string): ServerTools[] => parseCatalog(JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')));
const allTools = (): ServerTools[] => [...readFixture('real-world.json'), ...readFixture('github-mcp-server.json'), ...readFixture('reference-servers.json')];

/** A lock as written to disk and read back: fresh objects, the placement section seeded. */
const roundTrip = (lock: LockFile): ServerTools[] => parseCatalog(JSON.parse(JSON.stringify(lock)));
/** The lock's tools without its placement section: what building without a cache gives. */
const uncached = (lock: LockFile): ServerTools[] => parseCatalog(JSON.parse(JSON.stringify({ ...lock, placement: undefined })));

/** Everything placement decides, as plain data. */
function placementOf({ catalog, warnings }: BuiltCatalog) {
  return {
    tools: catalog.tools.map((tool) => ({ id: tool.id, exposedName: tool.exposedName, summary: tool.summary, readOnly: tool.readOnly, write: tool.write, topics: tool.topics, groups: tool.groups, placements: tool.placements })),
    groups: [...catalog.groups.values()].map((group) => ({ name: group.name, catchAll: group.catchAll, tools: group.tools.map((tool) => tool.id) })),
    warnings,
  };
}

const toolPlacement = (built: BuiltCatalog, id: string) => {
  const tool = built.catalog.byId.get(id);
  if (!tool) throw new Error(`no tool ${id}`);
  return tool;
};

/** The memory server's read_graph entry of a lock's placement section. */
const readGraphEntry = (lock: LockFile) => {
  const entry = lock.placement.servers.memory?.read_graph;
  if (!entry) throw new Error('no placement entry for memory:read_graph');
  return entry;
};

describe('placement cached in the lock', () => {
  it('gives the same catalog as placing every tool afresh (1,000 real tools, preset groups)', () => {
    const config = resolveConfig({});
    const lock = makeLock(allTools(), config);
    expect(Object.keys(lock.placement.servers).length).toBeGreaterThan(40);
    expect(placementOf(buildCatalog(roundTrip(lock), config))).toEqual(placementOf(buildCatalog(uncached(lock), config)));
  });

  it('is verified, not trusted: tampered topics or group placements of an unchanged tool never show', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const entry = readGraphEntry(lock);
    entry.topics = [{ topic: 'memory', score: 99, reason: 'from the cache' }];
    const warnings: string[] = [];
    const built = buildCatalog(parseCatalog(JSON.parse(JSON.stringify(lock)), 'lazytools.lock.json', warnings), config);
    expect(JSON.stringify(toolPlacement(built, 'memory:read_graph'))).not.toContain('from the cache');
    expect(warnings).toEqual([expect.stringMatching(/placement\.servers\.memory\.read_graph: cached topics do not match its definition/)]);
    // Topics untouched, a group placement forged: confirmed against the group, so matched afresh.
    const forged = makeLock(readFixture('reference-servers.json'), config);
    readGraphEntry(forged).groups = [{ group: 'knowledge', reason: 'from the cache' }];
    const again = buildCatalog(roundTrip(forged), config);
    expect(toolPlacement(again, 'memory:read_graph').placements).toEqual(toolPlacement(buildCatalog(uncached(forged), config), 'memory:read_graph').placements);
    expect(placementOf(again)).toEqual(placementOf(buildCatalog(uncached(forged), config)));
  });

  it('warns about the first 20 malformed cached placements of a lock and counts the rest', () => {
    const config = resolveConfig({});
    const lock = makeLock(allTools(), config);
    let spoiled = 0;
    for (const entries of Object.values(lock.placement.servers))
      for (const name of Object.keys(entries)) {
        (entries as Record<string, unknown>)[name] = 'x';
        spoiled++;
      }
    expect(spoiled).toBeGreaterThan(500);
    const warnings: string[] = [];
    parseCatalog(JSON.parse(JSON.stringify(lock)), 'lazytools.lock.json', warnings);
    // One line per tool before: a lock of 100,000 tools spoiled so printed 100,000 lines.
    expect(warnings).toHaveLength(21);
    expect(warnings[0]).toMatch(/^lazytools\.lock\.json: placement\.servers\.[^ ]+: malformed cached placement, computed afresh$/);
    expect(warnings[20]).toBe(`… and ${spoiled - 20} more cached placements of lazytools.lock.json computed afresh`);
  });

  it('is verified, not trusted: a group placement repeated or out of config order is matched afresh', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const entry = readGraphEntry(lock);
    const groups = entry.groups ?? [];
    expect(groups.length).toBeGreaterThan(1);
    const fresh = placementOf(buildCatalog(uncached(lock), config));
    for (const forged of [[...groups, ...groups], [...groups].reverse()]) {
      entry.groups = forged;
      const built = buildCatalog(roundTrip(lock), config);
      const tool = toolPlacement(built, 'memory:read_graph');
      // Each of its groups lists the tool once, and its groups are those matching gives.
      for (const group of built.catalog.groups.values()) expect(group.tools.filter((t) => t === tool).length).toBeLessThanOrEqual(1);
      expect(placementOf(built)).toEqual(fresh);
    }
  });

  it('is verified, not trusted: a forged "read" write status for a writer is dropped with a warning', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const entry = lock.placement.servers.memory?.create_entities;
    if (!entry) throw new Error('no placement entry for memory:create_entities');
    expect(entry.write.readOnly).toBe(false);
    entry.write = { readOnly: true, kind: 'read', reason: 'readOnlyHint: true' };
    entry.topics = [{ topic: 'memory', score: 99, reason: 'from the cache' }];
    const warnings: string[] = [];
    const built = buildCatalog(parseCatalog(JSON.parse(JSON.stringify(lock)), 'lazytools.lock.json', warnings), config);
    const tool = toolPlacement(built, 'memory:create_entities');
    expect(tool.readOnly).toBe(false);
    expect(JSON.stringify(tool)).not.toContain('from the cache');
    expect(warnings).toEqual([expect.stringMatching(/lazytools\.lock\.json: placement\.servers\.memory\.create_entities: cached write status "read" does not match/)]);
    // A malformed entry is dropped with its own warning; the other entries are still used.
    const malformed = makeLock(readFixture('reference-servers.json'), config);
    (malformed.placement.servers.memory as Record<string, unknown>).read_graph = { input: 5 };
    const more: string[] = [];
    parseCatalog(JSON.parse(JSON.stringify(malformed)), 'lock.json', more);
    expect(more).toEqual([expect.stringMatching(/placement\.servers\.memory\.read_graph: malformed cached placement/)]);
  });

  it('is not used for a tool whose description changed since the lock was written', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const entry = readGraphEntry(lock);
    entry.topics = [{ topic: 'memory', score: 99, reason: 'from the cache' }];
    entry.write = { readOnly: false, kind: 'unknown', reason: 'from the cache' };
    entry.groups = [{ group: 'knowledge', reason: 'from the cache' }];
    const tool = lock.servers.memory?.tools.find((t) => t.name === 'read_graph');
    if (!tool) throw new Error('no memory:read_graph');
    tool.description = 'Open a browser tab and take a screenshot of the page.';
    const built = buildCatalog(roundTrip(lock), config);
    expect(placementOf(built)).toEqual(placementOf(buildCatalog(uncached(lock), config)));
    expect(JSON.stringify(toolPlacement(built, 'memory:read_graph'))).not.toContain('from the cache');
    expect(toolPlacement(built, 'memory:read_graph').topics[0]?.topic).toBe('browser');
  });

  it('is not used for a tool whose annotations, title or input fields changed', () => {
    const config = resolveConfig({});
    const changes: Array<(tool: { annotations?: Record<string, unknown>; title?: string; inputSchema: { properties?: Record<string, unknown> } }) => void> = [
      (tool) => (tool.annotations = { readOnlyHint: false }),
      (tool) => (tool.title = 'Take a browser screenshot'),
      (tool) => (tool.inputSchema.properties = { ...tool.inputSchema.properties, selector: { type: 'string' } }),
    ];
    for (const change of changes) {
      const lock = makeLock(readFixture('reference-servers.json'), config);
      readGraphEntry(lock).write = { readOnly: true, kind: 'read', reason: 'from the cache' };
      readGraphEntry(lock).topics = [{ topic: 'memory', score: 99, reason: 'from the cache' }];
      const tool = lock.servers.memory?.tools.find((t) => t.name === 'read_graph');
      if (!tool) throw new Error('no memory:read_graph');
      change(tool);
      const built = buildCatalog(roundTrip(lock), config);
      expect(JSON.stringify(toolPlacement(built, 'memory:read_graph'))).not.toContain('from the cache');
      expect(placementOf(built)).toEqual(placementOf(buildCatalog(uncached(lock), config)));
    }
  });

  it('recomputes groups when a group rule changed since the lock was written', () => {
    const before = resolveConfig({ groups: { knowledge: { description: 'Knowledge graph', servers: ['memory'] } } });
    const lock = makeLock(readFixture('reference-servers.json'), before);
    expect(toolPlacement(buildCatalog(roundTrip(lock), before), 'memory:read_graph').groups).toContain('knowledge');

    const rc: RcConfig = { groups: { knowledge: { description: 'Knowledge graph', servers: ['memory'], readOnly: true, exclude: ['memory:read_graph'] } } };
    const after = resolveConfig(rc);
    const built = buildCatalog(roundTrip(lock), after);
    expect(placementOf(built)).toEqual(placementOf(buildCatalog(uncached(lock), after)));
    expect(toolPlacement(built, 'memory:read_graph').groups).not.toContain('knowledge');
    expect(built.catalog.groups.get('knowledge')?.tools.map((tool) => tool.id)).not.toContain('memory:read_graph');
  });

  it('recomputes groups when an rc summary changes what keywords match', () => {
    const rc: RcConfig = { groups: { graphs: { description: 'Graph readers', keywords: ['whole graph dump'] } } };
    const config = resolveConfig(rc);
    const lock = makeLock(readFixture('reference-servers.json'), config);
    expect(toolPlacement(buildCatalog(roundTrip(lock), config), 'memory:read_graph').groups).not.toContain('graphs');
    const summarized = resolveConfig({ ...rc, tools: { 'memory:read_graph': { summary: 'Whole graph dump' } } });
    const built = buildCatalog(roundTrip(lock), summarized);
    expect(toolPlacement(built, 'memory:read_graph').groups).toContain('graphs');
    expect(placementOf(built)).toEqual(placementOf(buildCatalog(uncached(lock), summarized)));
  });

  it('is not used when another lazytools version or vocabulary wrote it', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    readGraphEntry(lock).topics = [{ topic: 'memory', score: 99, reason: 'from the cache' }];
    lock.placement.version = `0.0.0+${lock.placement.version}`;
    const built = buildCatalog(roundTrip(lock), config);
    expect(JSON.stringify(toolPlacement(built, 'memory:read_graph'))).not.toContain('from the cache');
  });

  it('without a config caches topics and write status, and groups are matched afresh', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'));
    expect(lock.placement.groups).toBeUndefined();
    expect(readGraphEntry(lock).groups).toBeUndefined();
    expect(placementOf(buildCatalog(roundTrip(lock), config))).toEqual(placementOf(buildCatalog(uncached(lock), config)));
  });

  it('skips malformed entries and sections without failing', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const expected = placementOf(buildCatalog(uncached(lock), config));
    const json = JSON.parse(JSON.stringify(lock)) as { placement: { servers: Record<string, Record<string, unknown>> } };
    const memory = json.placement.servers.memory ?? {};
    const names = Object.keys(memory);
    const broken: unknown[] = [
      null,
      'x',
      { ...(memory[names[0] ?? ''] as object), topics: [{ topic: 'memory', score: 'high', reason: 'x' }] },
      { ...(memory[names[1] ?? ''] as object), write: { readOnly: 'yes', kind: 'read', reason: 'x' } },
      { ...(memory[names[2] ?? ''] as object), groups: [{ group: 3 }] },
      { ...(memory[names[3] ?? ''] as object), topics: [{ topic: 'memory', score: Infinity, reason: 'x' }] },
    ];
    broken.forEach((entry, i) => (memory[names[i] ?? ''] = entry));
    expect(placementOf(buildCatalog(parseCatalog(json), config))).toEqual(expected);
    for (const section of [null, 7, [], { version: 1 }, { version: lock.placement.version, servers: [] }, { version: lock.placement.version, servers: { memory: 'x' } }])
      expect(placementOf(buildCatalog(parseCatalog({ ...JSON.parse(JSON.stringify(lock)), placement: section }), config))).toEqual(expected);
  });

  it('keeps a hand-added key in a cached entry out of the catalog', () => {
    const config = resolveConfig({});
    const lock = makeLock(readFixture('reference-servers.json'), config);
    const entry = readGraphEntry(lock) as unknown as { write: Record<string, unknown>; topics: Array<Record<string, unknown>>; groups: Array<Record<string, unknown>> };
    entry.write.extra = 'hand-added';
    for (const topic of entry.topics) topic.extra = 'hand-added';
    for (const group of entry.groups) group.extra = 'hand-added';
    const built = buildCatalog(roundTrip(lock), config);
    expect(JSON.stringify(toolPlacement(built, 'memory:read_graph'))).not.toContain('hand-added');
    expect(placementOf(built)).toEqual(placementOf(buildCatalog(uncached(lock), config)));
  });

  it('names servers and tools like __proto__ as ordinary entries', () => {
    const config = resolveConfig({});
    const def = (name: string) => ({ name, description: `Read the ${name} file`, inputSchema: { type: 'object' as const } });
    // A server is named as in an rc (no "__proto__": readCatalogFile refuses it); "constructor" is one.
    const lock = makeLock([{ server: 'constructor', tools: [def('__proto__'), def('toString')] }], config);
    expect(Object.keys(lock.placement.servers)).toEqual(['constructor']);
    expect(placementOf(buildCatalog(roundTrip(lock), config))).toEqual(placementOf(buildCatalog(uncached(lock), config)));
  });
});
