import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';
import { argumentProblems } from '../../src/handlers/validate.js';
import { compareStrings } from '../../src/util/compare.js';
import { canonicalJson } from '../../src/util/canonical-json.js';

// One canonical JSON (util/canonical-json.ts) for the lock's hashes and drift and for uniqueItems.
// Locks were hashed with JSON.stringify and a replacer that rebuilt each object from its sorted
// entries; that function is kept here as the reference: every lock already written depends on
// its bytes, so the shared one must write exactly the same text.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'catalogs');

/** How catalog/lock.ts hashed before the canonical JSON had one home (the lock format). */
function lockCanonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => compareStrings(a, b))) : v,
  );
}

describe('canonical JSON', () => {
  it('writes the bytes locks were hashed over, for every tool of every fixture catalog', () => {
    let tools = 0;
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.json'))) {
      const sources = parseCatalog(JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')));
      for (const source of sources) {
        expect(canonicalJson(source.tools), `${file} ${source.server}`).toBe(lockCanonical(source.tools));
        tools += source.tools.length;
      }
    }
    expect(tools).toBeGreaterThan(5_000);
  });

  it('writes the bytes locks were hashed over at the corners: index keys, odd values, toJSON', () => {
    const cases: unknown[] = [
      { b: 1, 10: 2, 9: 3, a: { y: 1, x: 2 } },
      JSON.parse('{"4294967296":1,"4294967295":2,"4294967294":3,"01":4,"-1":5,"1":6,"":7,"1.5":8,"__proto__":{"z":1,"a":2}}'),
      { '\u{1F600}': 1, '\uFB01': 2, é: 3, z: 4, Z: 5 },
      { gone: undefined, fn: () => 1, sym: Symbol('s'), kept: null, list: [undefined, () => 1, Number.NaN, -0, Infinity] },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      { when: new Date(0), custom: { toJSON: (key: string) => ({ key, b: 1, a: 2 }) } },
      { boxed: Object('ab') as object, number: Object(5) as object },
      'text',
      42,
      null,
      [],
      {},
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(lockCanonical(value));
  });

  it('gives equal text for equal content in any key order', () => {
    expect(canonicalJson({ a: 1, b: [{ d: 1, c: 2 }], 2: 'x', 10: 'y' })).toBe(canonicalJson({ 10: 'y', b: [{ c: 2, d: 1 }], 2: 'x', a: 1 }));
    expect(canonicalJson([1, '1', [1], { 1: 1 }, null, 'null'])).toBe('[1,"1",[1],{"1":1},null,"null"]');
  });

  it('keeps the hash of a lock written before (sha256 of the sorted JSON)', () => {
    const tools: ToolDefinition[] = [{ name: 'read', description: 'Reads.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, 10: { type: 'number' }, 9: { type: 'boolean' } }, required: ['path'] } }];
    const lock = makeLock([{ server: 'files', tools }]);
    expect(lock.servers.files?.hash).toBe(`sha256-${createHash('sha256').update(lockCanonical(tools)).digest('base64')}`);
    expect(lock.servers.files?.hash).toBe('sha256-iWYPdEp2GZQYq9IZTBRGjkiJ2d7QwM0ifhQsOY4jqEU=');
  });

  it('finds duplicate items whose keys come in another order, index keys too (uniqueItems)', async () => {
    const tool: ToolDefinition = { name: 't', inputSchema: { type: 'object', properties: { rows: { type: 'array', uniqueItems: true } } } };
    expect(await argumentProblems(tool, { rows: [{ 10: 1, 9: 2, a: 3 }, { a: 3, 9: 2, 10: 1 }] })).toEqual(['rows: must NOT have duplicate items (items ## 0 and 1 are identical)']);
    expect(await argumentProblems(tool, { rows: [{ 10: 1 }, { '010': 1 }, { 1: 0 }] })).toEqual([]);
  });
});
