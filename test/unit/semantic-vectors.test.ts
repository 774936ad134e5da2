import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cosine, load, meanVector, wordVectors } from '../../src/semantic/vectors.js';
import { packageRoot } from '../../src/util/root.js';

const folder = path.join(packageRoot(), 'vocabulary');

describe('word vectors shipped in vocabulary/', () => {
  const vectors = wordVectors();

  it('load, with their provenance and licence beside them', () => {
    expect(vectors).toBeDefined();
    expect(vectors?.dims).toBeGreaterThan(0);
    expect(vectors?.count).toBeGreaterThan(20_000);
    const meta = JSON.parse(readFileSync(path.join(folder, 'word-vectors.json'), 'utf8')) as Record<string, unknown>;
    for (const key of ['note', 'teacher', 'vocabulary', 'license']) expect(typeof meta[key], key).toBe('string');
  });

  it('look words up by their stem, so plurals and case meet', () => {
    expect(vectors?.similarity('refund', 'Refunds')).toBeCloseTo(1, 5);
    expect(vectors?.vector('invoices')).toEqual(vectors?.vector('invoice'));
    expect(vectors?.vector('qzxvbnmwq')).toBeUndefined();
    expect(vectors?.similarity('refund', 'qzxvbnmwq')).toBeUndefined();
  });

  it('put words of one kind of work nearer each other than words of unrelated kinds', () => {
    const near = vectors?.similarity('invoice', 'receipt') ?? 0;
    const far = vectors?.similarity('invoice', 'giraffe') ?? 1;
    expect(near).toBeGreaterThan(far);
    expect(vectors?.similarity('calendar', 'schedule') ?? 0).toBeGreaterThan(vectors?.similarity('calendar', 'volcano') ?? 1);
  });

  it('rank tiers from common English to company names', () => {
    expect(vectors?.tier('the')).toBe(0);
    expect(vectors?.tier('kubernetes') ?? 0).toBeGreaterThanOrEqual(5);
  });
});

describe('load: unusable files give no vectors, never an error', () => {
  const scratch = () => mkdtempSync(path.join(tmpdir(), 'lazytools-vectors-'));

  it('missing files', () => {
    expect(load(scratch())).toBeUndefined();
  });

  it('a malformed or inconsistent description', () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'word-vectors.bin'), Buffer.from([1, 2, 3, 4]));
    writeFileSync(path.join(dir, 'word-vectors.json'), '{"dims": 2, "count": 3, "words": "a b", "tier": "00"}');
    expect(load(dir)).toBeUndefined();
    writeFileSync(path.join(dir, 'word-vectors.json'), 'not json');
    expect(load(dir)).toBeUndefined();
  });

  it('a consistent pair of files', () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'word-vectors.bin'), Buffer.from(Int8Array.from([10, 0, 9, 1, 0, 10]).buffer));
    writeFileSync(path.join(dir, 'word-vectors.json'), '{"dims": 2, "count": 3, "words": "alpha beta gamma", "tier": "012"}');
    const small = load(dir);
    expect(small?.similarity('alpha', 'beta')).toBeGreaterThan(0.99);
    expect(small?.similarity('alpha', 'gamma')).toBeCloseTo(0, 5);
    expect(small?.tier('gamma')).toBe(2);
  });
});

describe('meanVector and cosine', () => {
  it('average the known words by weight and skip the unknown', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-vectors-'));
    writeFileSync(path.join(dir, 'word-vectors.bin'), Buffer.from(Int8Array.from([10, 0, 0, 10]).buffer));
    writeFileSync(path.join(dir, 'word-vectors.json'), '{"dims": 2, "count": 2, "words": "east north", "tier": "00"}');
    const small = load(dir);
    if (!small) throw new Error('no vectors');
    const mean = meanVector(small, [['east', 3], ['north', 1], ['west', 5]]);
    expect(mean && Array.from(mean)).toEqual([3, 1]);
    expect(meanVector(small, [['west', 1]])).toBeUndefined();
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});
