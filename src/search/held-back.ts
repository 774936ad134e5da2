import { compareStrings } from '../util/compare.js';
import type { SearchHit, SearchIndex, SearchOptions } from './engine.js';

/** What a held-back tool's score is multiplied by: the mode's own tools come before the rest. */
export const HELD_BACK_BOOST = 2;

/**
 * Search where tools the session's mode holds back (to fit its budget) rank first: they belong
 * to the work at hand and are not in the list, so search is how the model reaches them. The
 * engine is asked for a wider pool, held-back hits are boosted, and the pool is cut to `limit`.
 * The mode's shown tools get the same boost: they belong to the work too, and a held-back
 * tool that deletes a deployment must not outrank the shown one that lists them, which a query for "recent
 * deployments" asks for (the engine's order among the mode's tools stands). Without held-back
 * tools it is the plain search. Several queries (one per step) are merged first.
 */
export function searchWithHeldBack(
  index: Pick<SearchIndex, 'searchMany'>,
  queries: readonly string[],
  options: SearchOptions,
  heldBack: ReadonlySet<string>,
  shown: ReadonlySet<string> = new Set(),
): SearchHit[] {
  if (heldBack.size === 0) return index.searchMany(queries, options);
  const limit = options.limit ?? 5;
  const pool = index.searchMany(queries, { ...options, limit: Math.max(limit * 4, 20) });
  const boosted = (id: string) => heldBack.has(id) || shown.has(id);
  return pool
    .map((hit) => (boosted(hit.tool.id) ? { tool: hit.tool, score: Math.round(hit.score * HELD_BACK_BOOST * 1000) / 1000 } : hit))
    .sort((a, b) => b.score - a.score || compareStrings(a.tool.exposedName, b.tool.exposedName))
    .slice(0, limit);
}
