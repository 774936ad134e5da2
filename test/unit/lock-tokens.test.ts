import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LockFile } from '../../src/catalog/lock.js';

// A lock records the token count of each tool's listed definition and of lazytools' own tools, so a
// gateway started on it fits its default mode to the budget without loading the tokenizer. Token
// counts are cached in memory per process, so every step here runs on fresh module instances
// (vi.resetModules): a lock is written by one, read by another, counted afresh by a third.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'catalogs');
const fixture = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));

async function fresh() {
  vi.resetModules();
  const [file, catalog, fit, lock, resolve] = await Promise.all([
    import('../../src/catalog/file.js'),
    import('../../src/catalog/catalog.js'),
    import('../../src/focus/fit.js'),
    import('../../src/catalog/lock.js'),
    import('../../src/config/resolve.js'),
  ]);
  return { parseCatalog: file.parseCatalog, buildCatalog: catalog.buildCatalog, modeFit: fit.modeFit, makeLock: lock.makeLock, resolveConfig: resolve.resolveConfig };
}

/** A lock of the real-world catalog and the reference servers, written under the default config. */
async function writtenLock(): Promise<LockFile> {
  const m = await fresh();
  const sources = [...m.parseCatalog(fixture('real-world.json')), ...m.parseCatalog(fixture('reference-servers.json'))];
  return JSON.parse(JSON.stringify(m.makeLock(sources, m.resolveConfig({})))) as LockFile;
}

/** The default mode fitted on a catalog read from `lock` (as a gateway starting on it does), as plain data. */
async function fitted(lock: unknown) {
  const m = await fresh();
  const config = m.resolveConfig({});
  const { catalog } = m.buildCatalog(m.parseCatalog(JSON.parse(JSON.stringify(lock))), config);
  const fit = m.modeFit(catalog, config, config.defaultMode);
  if (!fit) throw new Error('no default mode');
  return {
    ownTokens: fit.ownTokens,
    pinnedTokens: fit.pinnedTokens,
    shown: fit.shown.map((tool) => tool.id),
    heldBack: fit.heldBack,
    tokens: new Map(fit.members.map((tool) => [tool.id, tool.tokens])),
  };
}

/** The key a lock records a count under: the digest of exactly the text counted. */
const countKey = (tool: { name: string; description?: string; inputSchema?: unknown }): string =>
  createHash('sha1').update(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })).digest('base64');

const withoutCounts = (lock: LockFile): LockFile => ({ ...lock, tokens: undefined });

// Each fit loads the modules afresh and a recount loads the tokenizer's tables again: 4 to 11 s a
// test beside an e2e suite and two CPU hogs on 2 cores, against the 30 s unit default. The limit is
// an upper bound only (a passing test never waits for it).
describe('token counts recorded in the lock', { timeout: 120_000 }, () => {
  it('give the same fit, held-back list and counts as counting every tool', async () => {
    const lock = await writtenLock();
    expect(Object.keys(lock.tokens?.o200k_base ?? {}).length).toBeGreaterThan(500);
    const fromLock = await fitted(lock);
    const counted = await fitted(withoutCounts(lock));
    expect(fromLock.heldBack.length).toBeGreaterThan(0);
    expect(fromLock).toEqual(counted);
  });

  it('are read: forged (plausible) counts change which tools fit', async () => {
    const lock = await writtenLock();
    const counts = lock.tokens?.o200k_base ?? {};
    for (const key of Object.keys(counts)) counts[key] = 1;
    const forged = await fitted(lock);
    expect([...forged.tokens.values()].every((tokens) => tokens === 1)).toBe(true);
    expect(forged.heldBack).toEqual([]);
  });

  it('are not used for a definition that changed, nor when implausible; those tools are counted', async () => {
    const lock = await writtenLock();
    const counts = lock.tokens?.o200k_base ?? {};
    for (const key of Object.keys(counts)) counts[key] = 1;
    // A tool edited in the lock after its count was recorded: the digest no longer matches.
    const memory = lock.servers.memory?.tools ?? [];
    const edited = memory.find((tool) => tool.name === 'read_graph');
    if (!edited) throw new Error('no memory:read_graph');
    edited.description = `${edited.description ?? ''} Edited.`;
    // A count larger than its text's UTF-8 bytes cannot be a count of it.
    const created = memory.find((tool) => tool.name === 'create_entities');
    if (!created) throw new Error('no memory:create_entities');
    const createdKey = Object.keys(counts).find((key) => key === countKey(created));
    expect(createdKey).toBeDefined();
    counts[createdKey ?? ''] = 10_000_000;
    const fromLock = await fitted(lock);
    // Every tool counted afresh (the edit changes only read_graph's count): one recount serves both checks.
    const counted = await fitted(withoutCounts(lock));
    const editedCount = counted.tokens.get('memory:read_graph');
    expect(fromLock.tokens.get('memory:read_graph')).toBe(editedCount);
    expect(editedCount).toBeGreaterThan(1);
    expect(fromLock.tokens.get('memory:create_entities')).toBe(counted.tokens.get('memory:create_entities'));
    expect(fromLock.tokens.get('memory:create_entities')).toBeGreaterThan(1);
    // The rest still come from the lock.
    expect(fromLock.tokens.get('memory:search_nodes')).toBe(1);
  });

  it('are keyed by the listed text: a lock written for verbatim definitions is recounted under compact ones', async () => {
    const m = await fresh();
    const sources = m.parseCatalog(fixture('reference-servers.json'));
    const verbatim = JSON.parse(JSON.stringify(m.makeLock(sources, m.resolveConfig({ definitions: 'verbatim' })))) as LockFile;
    const counts = verbatim.tokens?.o200k_base ?? {};
    for (const key of Object.keys(counts)) counts[key] = 1;
    const fromLock = await fitted(verbatim);
    // The default config lists compact definitions, whose texts the verbatim lock has no count for
    // (a tool whose compact definition is its verbatim one keeps the count: it is the same text).
    expect([...fromLock.tokens.values()].some((tokens) => tokens > 1)).toBe(true);
  });
});

describe('an unfitted mode', () => {
  it('reads no token count (its start would compact and count every tool)', async () => {
    const m = await fresh();
    const config = m.resolveConfig({});
    const { catalog } = m.buildCatalog(m.parseCatalog(fixture('reference-servers.json')), config);
    const uncountable = catalog.tools.map((tool) =>
      Object.create(tool, {
        tokens: {
          get() {
            throw new Error(`${tool.id}: token count read`);
          },
        },
      }) as typeof tool,
    );
    const fit = m.modeFit({ ...catalog, tools: uncountable }, config, 'all');
    expect(fit?.fit).toBe(false);
    expect(fit?.shown.length).toBe(catalog.tools.length);
  });
});
