import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type BuiltCatalog, type ServerTools } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock, type LockFile } from '../../src/catalog/lock.js';
import { readStamp, stampFolder, writeStamp } from '../../src/catalog/lock-stamp.js';
import { groupsDigest, placementVersion } from '../../src/catalog/placement-cache.js';
import { codeDigest, placementCode, PLACEMENT_MODULES } from '../../src/catalog/placement-code.js';
import { resolveConfig } from '../../src/config/resolve.js';

// A verified lock earns a stamp outside the project (lock-stamp.ts) so later starts of the same
// bytes skip the topic recompute and group confirmations. The stamp vouches for exact bytes only.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'catalogs');
const reference = (): ServerTools[] => parseCatalog(JSON.parse(readFileSync(path.join(FIXTURES, 'reference-servers.json'), 'utf8')));
const config = resolveConfig({ groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true }, wikis: { topics: ['wiki'] } } });

/** Reads lock `bytes` as readCatalogFile does, with the stamps of `folder`. */
function read(bytes: Buffer, folder: string, warnings: string[] = []): ServerTools[] {
  return parseCatalog(JSON.parse(bytes.toString('utf8')), 'lazytools.lock.json', warnings, { folder, stamp: readStamp(folder, placementVersion(), bytes) });
}

const placements = ({ catalog }: BuiltCatalog) => catalog.tools.map((tool) => ({ id: tool.id, readOnly: tool.readOnly, topics: tool.topics, placements: tool.placements }));
const tool = ({ catalog }: BuiltCatalog, id: string) => catalog.byId.get(id);
const bytesOf = (lock: LockFile) => Buffer.from(JSON.stringify(lock));

function forged(): LockFile {
  const lock = makeLock(reference(), config);
  const entry = lock.placement.servers.memory?.delete_entities;
  if (!entry) throw new Error('no placement for memory:delete_entities');
  entry.topics = [{ topic: 'wiki', score: 12, reason: 'forged' }, ...entry.topics.filter((t) => t.topic !== 'wiki')];
  entry.groups = [...(entry.groups ?? []), { group: 'wikis', reason: 'topic wiki 12 (forged)', score: 12 }];
  return lock;
}

describe('verified-lock stamps', () => {
  it('a lock whose every entry verifies is stamped with its groups digest, and a stamped start builds the same catalog', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamp-'));
    const bytes = bytesOf(makeLock(reference(), config));
    expect(readStamp(folder, placementVersion(), bytes).groups).toBeUndefined();
    const first = buildCatalog(read(bytes, folder), config);
    expect([...(readStamp(folder, placementVersion(), bytes).groups ?? [])]).toEqual([groupsDigest(config)]);
    const stamped = buildCatalog(read(bytes, folder), config);
    expect(placements(stamped)).toEqual(placements(first));
    expect(placements(stamped)).toEqual(placements(buildCatalog(reference(), config)));
  });

  it('an edited lock finds no stamp (the one of its bytes before the edit does not fit): the forged entry is dropped, and it earns none', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamp-'));
    buildCatalog(read(bytesOf(makeLock(reference(), config)), folder), config);
    expect(readdirSync(folder)).toHaveLength(1);
    const edited = bytesOf(forged());
    const warnings: string[] = [];
    const built = buildCatalog(read(edited, folder, warnings), config);
    expect(warnings.join('\n')).toMatch(/delete_entities: cached topics do not match/);
    expect(tool(built, 'memory:delete_entities')?.groups).not.toContain('wikis');
    expect(readStamp(folder, placementVersion(), edited).groups).toBeUndefined();
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('a forged group placement alone is confirmed on every start: the topics stamp never covers groups that failed', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamp-'));
    const lock = makeLock(reference(), config);
    const entry = lock.placement.servers.memory?.delete_relations;
    if (!entry) throw new Error('no placement for memory:delete_relations');
    entry.groups = [...(entry.groups ?? []), { group: 'wikis', reason: 'topic wiki 12 (forged)', score: 12 }];
    const bytes = bytesOf(lock);
    for (let start = 0; start < 2; start++) expect(tool(buildCatalog(read(bytes, folder), config), 'memory:delete_relations')?.groups).not.toContain('wikis');
    expect([...(readStamp(folder, placementVersion(), bytes).groups ?? [])]).toEqual([]);
  });

  it('the stamp is what skips the recompute, and never the write-status check: a stamp in the user cache vouches for its bytes', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamp-'));
    const lock = forged();
    const writer = lock.placement.servers.memory?.create_entities;
    if (!writer) throw new Error('no placement for memory:create_entities');
    writer.write = { readOnly: true, kind: 'read', reason: 'readOnlyHint: true' };
    const bytes = bytesOf(lock);
    // Only someone who can write the user's cache folder can do this (not a lock's author).
    writeStamp(folder, readStamp(folder, placementVersion(), bytes).key, [groupsDigest(config)]);
    const warnings: string[] = [];
    const built = buildCatalog(read(bytes, folder, warnings), config);
    expect(tool(built, 'memory:delete_entities')?.groups).toContain('wikis');
    expect(warnings.join('\n')).toMatch(/create_entities: cached write status "read" does not match/);
    expect(tool(built, 'memory:create_entities')?.readOnly).toBe(false);
    expect(tool(built, 'memory:create_entities')?.groups).not.toContain('reading');
  });

  it('lives in LAZYTOOLS_CACHE_DIR, else the XDG cache folder, else ~/.cache; LAZYTOOLS_CACHE_DIR="" turns stamps off', () => {
    expect(stampFolder({ LAZYTOOLS_CACHE_DIR: '/c' })).toBe(path.join('/c', 'verified-locks'));
    expect(stampFolder({ LAZYTOOLS_CACHE_DIR: '' })).toBeUndefined();
    expect(stampFolder({ XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'lazytools', 'verified-locks'));
    expect(stampFolder({ XDG_CACHE_HOME: 'relative' })).toBe(path.join(os.homedir(), '.cache', 'lazytools', 'verified-locks'));
  });

  it('is keyed on the placement code: an edit to a placement module changes the key, and the stamp of the old code does not fit', () => {
    const sources = PLACEMENT_MODULES.map((name) => path.join(import.meta.dirname, '..', '..', 'src', `${name}.ts`));
    expect(placementCode()).toBe(codeDigest(sources));
    expect(placementVersion()).toContain(placementCode());
    // The same modules with one rule changed (a copy of groups.ts, say a new glob rule).
    const copies = mkdtempSync(path.join(os.tmpdir(), 'lazytools-code-'));
    const edited = sources.map((file, i) => {
      const copy = path.join(copies, `${i}.ts`);
      writeFileSync(copy, readFileSync(file, 'utf8') + (PLACEMENT_MODULES[i] === 'catalog/groups' ? '\n// a changed rule\n' : ''));
      return copy;
    });
    const changed = codeDigest(edited);
    expect(changed).not.toBe(placementCode());
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamp-'));
    const bytes = bytesOf(makeLock(reference(), config));
    buildCatalog(read(bytes, folder), config);
    expect(readStamp(folder, placementVersion(), bytes).groups).toBeDefined();
    expect(readStamp(folder, placementVersion().replace(placementCode(), changed), bytes).groups).toBeUndefined();
  });
});
