import { compareStrings } from '../util/compare.js';
import { Action, queryAsks, toolAction } from './action.js';
import type { SearchHit, SearchIndex, SearchOptions } from './engine.js';
import type { SearchMemo } from './memo.js';
import { finish, type Passes } from './passes.js';
import { terms } from './text.js';

/**
 * What a held-back tool's score is multiplied by: among tools the words rank alike, the mode's own
 * come first. A tie-breaker, not a lift over better words: the task's tool is often outside the
 * mode. Measured on the tuning stacks (gold shown or in the top 5, of 609): 2 -> 557, 1.5 -> 559,
 * 1.25 and 1.1 -> 561, none -> 561; the proxy tasks of bench/fit.mjs alike at each.
 */
const HELD_BACK_BOOST = 1.1;

/**
 * Search where the mode's tools the caller cannot see rank first: those it holds back to fit its
 * budget, and (`unlisted`) the ones it shows when the caller's list does not carry them (the
 * proxy strategy lists only lazytools' own tools). They belong to the work at hand and search is
 * how the model reaches them. Tools already in the caller's list get no lift: the model has them,
 * and each of the `limit` places is worth one it has not (so `heldBack` leaves out those a search
 * or an enabled group has put in the list since: search_tools' notListed). The lift never carries a destructive
 * tool the query does not ask to delete: a query for "recent deployments" must not find a held-back
 * tool that deletes them over the reader the list shows. The engine is asked for a wider pool, the
 * mode's hits are boosted, and the pool is cut to `limit`. Without such tools it is the plain
 * search. Several queries (one per step) are merged first.
 */
export function searchWithHeldBack(...args: Parameters<typeof rankWithHeldBack>): SearchHit[] {
  return finish(rankWithHeldBack(...args));
}

/** searchWithHeldBack as passes (passes.ts), sharing the request's `memo` with its other searches. */
export function* rankWithHeldBack(
  index: Pick<SearchIndex, 'rankMany'>,
  queries: readonly string[],
  options: SearchOptions,
  heldBack: ReadonlySet<string>,
  unlisted: ReadonlySet<string> = new Set(),
  memo: SearchMemo = new Map(),
): Passes<SearchHit[]> {
  if (heldBack.size === 0 && unlisted.size === 0) return yield* index.rankMany(queries, options, memo);
  const limit = options.limit ?? 5;
  const pool = yield* index.rankMany(queries, { ...options, limit: Math.max(limit * 4, 20) }, memo);
  // What the queries ask, as ranking reads it (a question asks to read, whatever its verbs), but
  // uncorrected: a misspelled "delete" gives held-back destructive tools no lift, the safe side.
  const deletes = queries.some((query) => queryAsks(query).asks === Action.Destroy);
  const boost = (hit: SearchHit): number => {
    if (!heldBack.has(hit.tool.id) && !unlisted.has(hit.tool.id)) return 1;
    return !deletes && toolAction(hit.tool, terms(hit.tool.name)) === Action.Destroy ? 1 : HELD_BACK_BOOST;
  };
  return pool
    .map((hit) => ({ tool: hit.tool, score: Math.round(hit.score * boost(hit) * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score || compareStrings(a.tool.exposedName, b.tool.exposedName))
    .slice(0, limit);
}

/** What a search for the caller's list answers: the hits it lacks, and the tools it has that matched as well. */
export interface BeyondList {
  hits: SearchHit[];
  /** Tools of the caller's list that rank among the first `limit`: named, not described again. */
  inList: SearchHit[];
}

/**
 * searchWithHeldBack for a caller whose list carries `listed`: the model calls search because its
 * list lacks what it needs, so the `limit` places go to tools it has not, and the ones it has that
 * would have ranked among them come back apart (inList), to be named in a word. Measured on the
 * stack task sets: gold tool shown or in the top 5, 552 -> 557 of 609 tuning tasks, 364 -> 367 of
 * 407 blind ones. The second search runs only when a listed tool ranks, and reads the first's
 * passes (`memo`): the two differ in their filter only, so the call makes each pass once.
 */
export function searchBeyondList(...args: Parameters<typeof rankBeyondList>): BeyondList {
  return finish(rankBeyondList(...args));
}

/** searchBeyondList as passes (passes.ts), sharing the request's `memo` with its other searches. */
export function* rankBeyondList(
  index: Pick<SearchIndex, 'rankMany'>,
  queries: readonly string[],
  options: SearchOptions,
  heldBack: ReadonlySet<string>,
  unlisted: ReadonlySet<string>,
  listed: ReadonlySet<string>,
  memo: SearchMemo = new Map(),
): Passes<BeyondList> {
  const first = yield* rankWithHeldBack(index, queries, options, heldBack, unlisted, memo);
  const inList = first.filter((hit) => listed.has(hit.tool.id));
  if (inList.length === 0) return { hits: first, inList };
  const filter = options.filter;
  const beyond = (tool: SearchHit['tool']) => !listed.has(tool.id) && (filter === undefined || filter(tool));
  return { hits: yield* rankWithHeldBack(index, queries, { ...options, filter: beyond }, heldBack, unlisted, memo), inList };
}
