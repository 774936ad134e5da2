import type { CatalogTool } from '../catalog/catalog.js';

/** Every tool's score for one query, and the best of them (> 0). */
export interface Scored {
  scores: Float64Array;
  best: number;
}

/**
 * One request's scores per query and step text, before a filter (undefined: nothing scores), so
 * the searches of one request (held-back.ts: beyond the caller's list, a read-only mode's
 * writers) make each pass once: they differ only in the filter, applied after. At most
 * MAX_QUERIES + MAX_STEPS entries of one number per tool, held while the request runs.
 */
export type SearchMemo = Map<string, Scored | undefined>;

/**
 * `all`'s scores among the tools `keep` accepts (0 for the rest) and the best of them, or
 * undefined when none scores: the same numbers a pass filtered as it scored would give. Without
 * `keep`, `all` itself, which the caller only reads.
 */
export function kept(all: Scored | undefined, tools: readonly CatalogTool[], keep: ((tool: CatalogTool) => boolean) | undefined): Scored | undefined {
  if (!all || !keep) return all;
  const scores = new Float64Array(all.scores.length);
  let best = 0;
  for (let doc = 0; doc < scores.length; doc++) {
    const score = all.scores[doc] ?? 0;
    if (score === 0) continue;
    const tool = tools[doc];
    if (!tool || !keep(tool)) continue;
    scores[doc] = score;
    if (score > best) best = score;
  }
  return best > 0 ? { scores, best } : undefined;
}
