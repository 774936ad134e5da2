import type { CatalogTool } from '../catalog/catalog.js';
import { compareStrings } from '../util/compare.js';

/**
 * Meaning next to words: a query's embedding against the catalog's tool embeddings (an
 * embeddings endpoint, tool-vectors.ts), fused with the lexical ranking. Lexical search stays
 * the base: a weak model can only reorder and add a few candidates, a strong one more.
 */
export interface DenseQuery {
  /** Cosine of tool `doc` (its index in the catalog's tools) with the query, when it has a vector. */
  similarity(doc: number): number | undefined;
  /** The tools closest to the query, best first (DENSE_POOL of them). */
  nearest: ReadonlyArray<{ doc: number; similarity: number }>;
  /** How much meaning counts against words, 0..1. */
  weight: number;
}

/** The dense side of a search, per query text (undefined: words alone). */
export type DenseLookup = (query: string) => DenseQuery | undefined;

/** Candidates taken from each side before fusing. */
export const DENSE_POOL = 50;

/** A lexical hit with its tool's index. */
export interface RankedDoc {
  tool: CatalogTool;
  score: number;
  doc: number;
}

/**
 * Fuses the lexical pool (best first) with the dense pool: each side normalized to 0..1 (words by
 * the best lexical score, meaning from the pool's last similarity to its first), added with the
 * dense weight. Measured with a weak sentence encoder on the tuning halves, a small weight helps
 * and rank fusion (RRF) hurts: the lexical score keeps its scale.
 */
export function fuseDense(lexical: readonly RankedDoc[], dense: DenseQuery, tools: readonly CatalogTool[], keep: (doc: number) => boolean, limit: number): Array<{ tool: CatalogTool; score: number }> {
  const best = lexical[0]?.score ?? 0;
  const high = dense.nearest[0]?.similarity ?? 0;
  const low = dense.nearest[dense.nearest.length - 1]?.similarity ?? 0;
  const spread = high - low > 1e-9 ? high - low : 1;
  const words = new Map<number, number>();
  for (const hit of lexical) words.set(hit.doc, best > 0 ? hit.score / best : 0);
  for (const { doc } of dense.nearest) if (!words.has(doc) && keep(doc)) words.set(doc, 0);
  const out: Array<{ tool: CatalogTool; score: number }> = [];
  for (const [doc, lexicalPart] of words) {
    const tool = tools[doc];
    if (!tool) continue;
    const similarity = dense.similarity(doc);
    const meaning = similarity === undefined ? 0 : Math.max(0, (similarity - low) / spread);
    out.push({ tool, score: lexicalPart + dense.weight * meaning });
  }
  out.sort((a, b) => b.score - a.score || compareStrings(a.tool.exposedName, b.tool.exposedName));
  return out.slice(0, limit);
}
