import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../util/root.js';
import { stem } from './words.js';

/**
 * Static word vectors: how close two words are in meaning, for words nobody listed in the
 * vocabulary data ("rebate" near "refund"). Distilled at build time from a local sentence encoder
 * (scripts/build-word-vectors.mjs; provenance and licence in vocabulary/word-vectors.json), so
 * nothing here runs a model: a lookup and a dot product. Loaded on first use, once per process;
 * a gateway serving from a lock never loads them (placements come from the lock).
 */
export interface WordVectors {
  readonly dims: number;
  readonly count: number;
  /** The word's vector (its stem's), or undefined when the vocabulary lacks it. */
  vector(word: string): Int8Array | undefined;
  /** How common the word is: 0 (most common English) to 4 (rarer English), 5 software terms, 6 company names. */
  tier(word: string): number | undefined;
  /** Cosine similarity of two words, or undefined when either is unknown. */
  similarity(a: string, b: string): number | undefined;
  /** sha256 of the vectors and their words: placements computed with other vectors are not reused. */
  readonly digest: string;
}

const FOLDER = 'vocabulary';
const NAME = 'word-vectors';

let loaded: WordVectors | null | undefined;

/**
 * The word vectors shipped with lazytools, or undefined when their files are missing or malformed
 * (placement then goes without similarity evidence; it never fails for it).
 */
export function wordVectors(): WordVectors | undefined {
  if (loaded === undefined) loaded = load(path.join(packageRoot(), FOLDER)) ?? null;
  return loaded ?? undefined;
}

/** Reads the vectors from `folder` (tests pass their own); undefined when they are unusable. */
export function load(folder: string): WordVectors | undefined {
  let meta: unknown;
  let bytes: Buffer;
  try {
    meta = JSON.parse(readFileSync(path.join(folder, `${NAME}.json`), 'utf8'));
    bytes = readFileSync(path.join(folder, `${NAME}.bin`));
  } catch {
    return undefined;
  }
  if (!isMeta(meta)) return undefined;
  const words = meta.words.split(' ');
  const { dims } = meta;
  if (words.length !== meta.count || bytes.length !== meta.count * dims || meta.tier.length !== meta.count) return undefined;
  const data = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const rows = new Map<string, number>();
  words.forEach((word, row) => rows.set(word, row));
  const norms = new Float32Array(meta.count);
  for (let row = 0; row < meta.count; row++) {
    let sum = 0;
    for (let d = row * dims, end = d + dims; d < end; d++) sum += data[d]! * data[d]!;
    norms[row] = Math.sqrt(sum) || 1;
  }
  const digest = createHash('sha256').update(bytes).update(meta.words).digest('base64url').slice(0, 22);
  const rowOf = (word: string) => rows.get(stem(word.toLowerCase()));
  return {
    dims,
    count: meta.count,
    digest,
    vector(word) {
      const row = rowOf(word);
      return row === undefined ? undefined : data.subarray(row * dims, (row + 1) * dims);
    },
    tier(word) {
      const row = rowOf(word);
      return row === undefined ? undefined : Number(meta.tier[row]);
    },
    similarity(a, b) {
      const ra = rowOf(a);
      const rb = rowOf(b);
      if (ra === undefined || rb === undefined) return undefined;
      let dot = 0;
      for (let i = 0, x = ra * dims, y = rb * dims; i < dims; i++) dot += data[x + i]! * data[y + i]!;
      return dot / (norms[ra]! * norms[rb]!);
    },
  };
}

interface Meta {
  dims: number;
  count: number;
  words: string;
  tier: string;
}

function isMeta(value: unknown): value is Meta {
  if (typeof value !== 'object' || value === null) return false;
  const meta = value as Record<string, unknown>;
  return Number.isInteger(meta.dims) && (meta.dims as number) > 0 && Number.isInteger(meta.count) && typeof meta.words === 'string' && typeof meta.tier === 'string';
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * The weighted mean of the words' vectors (each normalized first), or undefined when none is known:
 * a text's meaning as one vector, for comparing a tool with a mode's description and tasks.
 */
export function meanVector(vectors: WordVectors, words: Iterable<readonly [word: string, weight: number]>): Float32Array | undefined {
  const out = new Float32Array(vectors.dims);
  let total = 0;
  for (const [word, weight] of words) {
    const vector = vectors.vector(word);
    if (!vector || weight <= 0) continue;
    let norm = 0;
    for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
    const scale = weight / (Math.sqrt(norm) || 1);
    for (let i = 0; i < vector.length; i++) out[i] = out[i]! + vector[i]! * scale;
    total += weight;
  }
  return total > 0 ? out : undefined;
}
