import type { CatalogGroup, CatalogTool } from '../catalog/catalog.js';
import { expandQuery, stem, terms } from './text.js';
import { Speller } from './spelling.js';
import { FIELDS, groupFieldTerms, MAX_SERVER_TEXT, serverKey, toolFields } from './tool-text.js';
import { Action, actionFactor, queryAsks, queryReadVerbs, toolAction, toolReadVerbs } from './action.js';
import { DENSE_POOL, fuseDense, type DenseLookup, type RankedDoc } from './dense.js';
import { distinctQueries, MAX_STEPS, taskSteps } from './clauses.js';
import { synonymIdf } from './synonym-idf.js';
import { before, keepTop } from './top.js';
import { finish, type Passes } from './passes.js';
import { kept, type Scored, type SearchMemo } from './memo.js';

/** One ranked search hit. */
export interface SearchHit {
  tool: CatalogTool;
  score: number;
}

/** How a search is narrowed and how many hits it returns (5 unless `limit` says). */
export interface SearchOptions {
  limit?: number | undefined;
  /** Only tools of this group. */
  group?: string | undefined;
  /** Only tools this predicate keeps (e.g. a read-only mode's). */
  filter?: ((tool: CatalogTool) => boolean) | undefined;
  /** Meaning next to words, per query (an embeddings endpoint; see dense.ts). */
  dense?: DenseLookup | undefined;
  /**
   * Whether a task of several steps is ranked per step too (see `search`; default true). A mode's
   * typical tasks, read to fit it, are one thing each, and fitting is measured as it ranks them.
   * `false` also leaves a synonym's idf uncapped (see synonymIdf) and reads no related words
   * (related.ts) for words the catalog lacks: the ranking fitting and a task's tools were tuned
   * with. Intent's evidence reads a phrase as search_tools does (focus/intent-catalog.ts).
   */
  steps?: boolean | undefined;
  /**
   * Whether the query is a person's words, whose typos are corrected against the catalog's
   * (spelling.ts; default true). A mode's fitting reads the rc's reviewed task texts: false.
   */
  typed?: boolean | undefined;
}

/** BM25: how soon more occurrences of a term stop adding (K1), and how much a tool's text length damps them (B). */
const K1 = 1.2;
const B = 0.6;
/** A tool leading with the query's own read verb ("list" -> "Get or list resources") ranks first among equals. */
const VERB_MATCH = 1.2;
/** A query that names a tool's server ("in Notion", "the Figma file") wants that server's tools. */
const SERVER_NAMED = 2;
/**
 * How much a task step lifts a tool's whole-task score: x (1 + STEP_WEIGHT x its step score / the
 * step's best). Measured on the tuning side (LiveMCPBench dev hit@5 / recall@10, stacks' tuning
 * sets search alone top 5 of 609): none 0.773 / 0.621, 450; 0.3 0.773 / 0.646, 450; 0.6 0.818 /
 * 0.653, 451; 1 0.818 / 0.653, 453; 2 0.841 / 0.665, 452. Adding the steps' scaled scores to the
 * whole's instead (0.6: 0.864 / 0.665, 451) let step tools that fit the task as a whole poorly
 * push the whole ranking's tail out (LiveMCPBench test recall@10 0.581 -> 0.554); each tool's
 * best step instead of the sum, and reciprocal rank fusion, measured lower.
 */
const STEP_WEIGHT = 1;

/** How a search reads its query: synonyms' idf capped, typos corrected by `correct` (spelling.ts). */
interface Reading {
  /**
   * search_tools' reading (SearchOptions.steps not false): a synonym's idf capped (synonymIdf) and
   * a word no tool says read as its related words (related.ts). False: neither, as fitting was tuned.
   */
  capped: boolean;
  correct: ((word: string) => string | undefined) | undefined;
}

/** The tools a search may offer; undefined: all. */
type Keep = ((tool: CatalogTool) => boolean) | undefined;

/** Step passes a search may still make (see `SearchIndex.search`): one budget for all the queries of a `searchMany`. */
interface StepBudget {
  left: number;
}

/**
 * Ranked tool search over name words (snake, camel, kebab split), title, summary, description,
 * group and server names: BM25 over field-weighted term counts, with stemming and synonym
 * expansion. Built once per catalog; a query touches only the postings of its terms. Ties break
 * by exposed name, so results are deterministic.
 *
 * @example
 * const index = new SearchIndex(catalog.tools, catalog.groups);
 * index.search('leaked credentials', { limit: 5 });
 */
export class SearchIndex {
  private readonly postings = new Map<string, { docs: Int32Array; tf: Float32Array }>();
  private readonly nameTerms: string[][];
  /** Per tool: what it does (read, write, destroy) and the read verbs it leads with. */
  private readonly actions: Uint8Array;
  private readonly readVerbs: string[][];
  /** Per tool: the word a query names its server by (the server name's first term), or ''. */
  private readonly serverKeys: string[];
  private readonly lengths: Float32Array;
  private readonly avgLength: number;
  /** The catalog's words as written, to correct a query's typos by (spelling.ts). */
  private readonly speller = new Speller(() => this.tools, (word) => this.termCount(stem(word)));

  constructor(
    readonly tools: readonly CatalogTool[],
    groups: ReadonlyMap<string, CatalogGroup> = new Map(),
  ) {
    const groupTerms = groupFieldTerms(groups);
    // Per term, the docs holding it (in doc order: a doc's terms are all added before the next doc's)
    // and their counts, in plain arrays: a Map entry per (tool, group word) made the index take 32 s
    // and 1.4 GB at 5,000 rc groups x 3,000 tools (13 s, 0.45 GB so). Same sums in the same order.
    const building = new Map<string, { docs: number[]; tf: number[] }>();
    const add = (term: string, doc: number, weight: number): void => {
      let posting = building.get(term);
      if (!posting) building.set(term, (posting = { docs: [], tf: [] }));
      const last = posting.docs.length - 1;
      if (last >= 0 && posting.docs[last] === doc) posting.tf[last] = (posting.tf[last] ?? 0) + weight;
      else {
        posting.docs.push(doc);
        posting.tf.push(0 + weight);
      }
    };
    this.lengths = new Float32Array(tools.length);
    this.actions = new Uint8Array(tools.length);
    this.readVerbs = [];
    this.nameTerms = [];
    const keys = new Map<string, string>();
    this.serverKeys = tools.map((tool) => {
      let key = keys.get(tool.server);
      if (key === undefined) keys.set(tool.server, (key = serverKey(tool.server)));
      return key;
    });
    // Description and schema characters read per server (MAX_SERVER_TEXT).
    const read = new Map<string, number>();
    tools.forEach((tool, doc) => {
      let length = 0;
      const spent = read.get(tool.server) ?? 0;
      for (const group of tool.groups) {
        const entry = groupTerms.get(group);
        if (!entry) continue;
        for (const term of entry.terms) {
          add(term, doc, entry.weight);
          length += entry.weight;
        }
      }
      for (const [field, text] of toolFields(tool, spent < MAX_SERVER_TEXT)) {
        if (field === 'description' || field === 'schema') read.set(tool.server, (read.get(tool.server) ?? 0) + text.length);
        const fieldTerms = terms(text);
        if (field === 'name') {
          this.nameTerms.push(fieldTerms);
          this.actions[doc] = toolAction(tool, fieldTerms);
          this.readVerbs.push(toolReadVerbs(tool, fieldTerms));
        }
        const weight = FIELDS[field];
        // Long descriptions should not drown the name: damp their counts.
        const damp = field === 'description' || field === 'schema' ? 1 / Math.sqrt(Math.max(1, fieldTerms.length / 12)) : 1;
        for (const term of fieldTerms) {
          add(term, doc, weight * damp);
          length += weight * damp;
        }
      }
      this.lengths[doc] = length;
    });
    let total = 0;
    for (const length of this.lengths) total += length;
    this.avgLength = tools.length > 0 ? total / tools.length : 1;
    for (const [term, posting] of building) {
      this.postings.set(term, { docs: Int32Array.from(posting.docs), tf: Float32Array.from(posting.tf) });
      building.delete(term);
    }
  }

  /**
   * Tools best matching `query`, best first. A task of several steps ("read the PDFs in /x,
   * compare them, then write a report", see clauses.ts) is ranked as a whole and per step: a
   * tool's score for the whole task is lifted by how well it serves each step, so a step's best
   * tool climbs past the tools the wordiest step alone would fill the page with. `stepBudget`:
   * the step passes left to spend (searchMany shares one among its queries).
   */
  search(query: string, options: SearchOptions = {}, stepBudget: StepBudget = { left: MAX_STEPS }): SearchHit[] {
    return finish(this.ranking(query, options, stepBudget, new Map()));
  }

  /** `search` as passes (passes.ts), reading and filling `memo`. */
  private *ranking(query: string, options: SearchOptions, stepBudget: StepBudget, memo: SearchMemo): Passes<SearchHit[]> {
    const limit = options.limit ?? 5;
    if (!(limit >= 1) || this.tools.length === 0) return [];
    // Undefined: every tool (the memo's scores are read as they are, not copied).
    const keep = options.group === undefined && !options.filter ? undefined : (tool: CatalogTool) => (options.group === undefined || tool.groups.includes(options.group)) && (!options.filter || options.filter(tool));
    // search_tools' ranking caps synonyms' idf (synonymIdf); a mode's fitting (steps: false) ranks as it was tuned.
    const capped = options.steps !== false;
    const read: Reading = { capped, correct: options.typed === false ? undefined : this.speller.correct };
    const whole = yield* this.scored(query, keep, read, memo);
    const dense = options.dense?.(query);
    if (!whole && !dense) return [];
    const scores = !whole ? new Float64Array(0) : options.steps === false ? whole.scores : yield* this.withSteps(whole, query, keep, read, stepBudget, memo);
    const hits: RankedDoc[] = [];
    // With meaning to fuse, a pool of lexical candidates; else the page asked for.
    const depth = dense ? Math.max(limit, DENSE_POOL) : limit;
    // Up to a page of results: keep the best ones while scoring; for more, sort once at the end.
    const small = depth <= 64;
    for (let doc = 0; doc < scores.length; doc++) {
      const score = scores[doc] ?? 0;
      if (score <= 0) continue;
      const tool = this.tools[doc] as CatalogTool;
      if (small) keepTop(hits, { tool, score, doc }, depth);
      else hits.push({ tool, score, doc });
    }
    if (!small) hits.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const ranked = dense ? fuseDense(hits.slice(0, depth), dense, this.tools, (doc) => !keep || keep(this.tools[doc] as CatalogTool), limit) : hits;
    return ranked.slice(0, limit).map((hit) => ({ tool: hit.tool, score: Math.round(hit.score * 1000) / 1000 }));
  }

  /**
   * The whole query's scores, each times 1 + STEP_WEIGHT x the tool's score for each step of the
   * query (see `search`; each step's scores divided by its best). A query of one step keeps its
   * scores. Its steps spend `budget`'s passes, all or none: a task whose steps do not all fit is
   * ranked as a whole (some steps' lift alone would favour those steps' tools over the others').
   */
  private *withSteps(whole: Scored, query: string, keep: Keep, read: Reading, budget: StepBudget, memo: SearchMemo): Passes<Float64Array> {
    const steps = budget.left >= 2 ? taskSteps(query) : [];
    if (steps.length === 0 || steps.length > budget.left) return whole.scores;
    budget.left -= steps.length;
    const lift = new Float64Array(whole.scores.length).fill(1);
    for (const step of steps) {
      const scored = yield* this.scored(step, keep, read, memo);
      if (!scored) continue;
      const scale = STEP_WEIGHT / scored.best;
      for (let doc = 0; doc < lift.length; doc++) lift[doc] = (lift[doc] ?? 1) + (scored.scores[doc] ?? 0) * scale;
    }
    return whole.scores.map((score, doc) => score * (lift[doc] ?? 1));
  }

  /**
   * `query`'s scores among the tools `keep` accepts (0 for the rest), and the best of them: one
   * pass (scoreAll) the first time the request reads this text, the memo's copy after.
   */
  private *scored(query: string, keep: Keep, read: Reading, memo: SearchMemo): Passes<Scored | undefined> {
    const key = `${read.capped ? 1 : 0}${read.correct ? 1 : 0}${query}`;
    if (!memo.has(key)) {
      yield;
      memo.set(key, this.scoreAll(query, read));
    }
    return kept(memo.get(key), this.tools, keep);
  }

  /**
   * Every tool's score for `query` (0 where no term matches): BM25 over the
   * query's expanded terms, then the name, coverage, action, verb and server factors. Undefined
   * when nothing scores. `capped`: a synonym's idf is at most that of the query words it stands
   * for, and related words are read (see Reading).
   */
  private scoreAll(query: string, { capped, correct }: Reading): Scored | undefined {
    // A word no tool has is read as what tools say for it (related.ts); fitting (uncapped) reads as it was tuned.
    const expansion = expandQuery(query, correct, capped ? (term) => this.postings.has(term) : undefined);
    if (expansion.length === 0) return undefined;
    const scores = new Float64Array(this.tools.length);
    const matched = new Uint16Array(this.tools.length);
    const n = this.tools.length;
    const idfOf = (term: string) => {
      const df = this.postings.get(term)?.docs.length ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    };
    for (const { term, weight, of } of expansion) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = capped && of ? synonymIdf(idfOf(term), of, idfOf) : idfOf(term);
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i] ?? 0;
        const tf = posting.tf[i] ?? 0;
        const norm = tf + K1 * (1 - B + (B * (this.lengths[doc] ?? 0)) / this.avgLength);
        scores[doc] = (scores[doc] ?? 0) + weight * idf * ((tf * (K1 + 1)) / norm);
        if (weight >= 1) matched[doc] = (matched[doc] ?? 0) + 1;
      }
    }
    const termWeight = new Map(expansion.map((e) => [e.term, e.weight]));
    const queryTerms = expansion.filter((e) => e.weight >= 1).length;
    const own = expansion.filter((e) => e.own).map((e) => e.term);
    // A question ("which deals closed in October?") asks to read, whatever its verbs.
    const { asks, question } = queryAsks(query, own);
    const wanted = queryReadVerbs(own);
    const ownSet = new Set(own);
    let best = 0;
    for (let doc = 0; doc < n; doc++) {
      let score = scores[doc] ?? 0;
      if (score <= 0) continue;
      // Reward tools whose name is covered by the query, and queries fully covered by the tool.
      const name = this.nameTerms[doc] ?? [];
      let covered = 0;
      for (const t of name) covered += termWeight.get(t) ?? 0;
      if (name.length > 0) score *= 1 + (0.5 * covered) / name.length;
      if (queryTerms > 0) score *= 1 + (0.3 * (matched[doc] ?? 0)) / queryTerms;
      // Readers before writers unless the query asks for a change; destroyers only when it asks to delete.
      score *= actionFactor(asks, (this.actions[doc] ?? Action.Read) as Action, question);
      if (wanted.length > 0 && this.readVerbs[doc]?.some((verb) => wanted.includes(verb))) score *= VERB_MATCH;
      const key = this.serverKeys[doc] ?? '';
      if (key !== '' && ownSet.has(key)) score *= SERVER_NAMED;
      scores[doc] = score;
      if (score > best) best = score;
    }
    return best > 0 ? { scores, best } : undefined;
  }

  /** A query word as search reads a person's words: its typo corrected (spelling.ts), or undefined when it needs none. */
  correction(word: string): string | undefined {
    return this.speller.correct(word);
  }

  /** How many of the catalog's tools have `term` among their words (any field): the more, the less a match on it says. */
  termCount(term: string): number {
    return this.postings.get(term)?.docs.length ?? 0;
  }

  /**
   * One ranking from several short queries, one per step of a task ("youtube transcript", "mind
   * map"): each query is ranked alone and the rankings merged by reciprocal rank fusion, so one
   * step's many matches cannot crowd out another's. A tool's score is its fused reciprocal ranks
   * scaled so that first place in one query is 1. At most `MAX_QUERIES` queries are read, and
   * their steps (a query that is a task of several, see `search`) share one budget of `MAX_STEPS`
   * passes, the first query's first: ten tasks of eight steps each took 90 passes over a 10,000-tool
   * catalog's postings, 340 ms of event loop per search_tools call where the same queries without
   * steps took 34 ms, and one client's loop held every other client's calls for seconds.
   */
  searchMany(queries: readonly string[], options: SearchOptions = {}): SearchHit[] {
    return finish(this.rankMany(queries, options, new Map()));
  }

  /**
   * `searchMany` as passes (passes.ts): the gateway runs it interleaved with other requests.
   * `memo`: one per request, shared by its searches (see SearchMemo).
   */
  *rankMany(queries: readonly string[], options: SearchOptions, memo: SearchMemo): Passes<SearchHit[]> {
    const limit = options.limit ?? 5;
    if (!(limit >= 1)) return [];
    const list = distinctQueries(queries);
    if (list.length <= 1) return list[0] === undefined ? [] : yield* this.ranking(list[0], options, { left: MAX_STEPS }, memo);
    const fused = new Map<CatalogTool, number>();
    const steps: StepBudget = { left: MAX_STEPS };
    for (const query of list) {
      (yield* this.ranking(query, { ...options, limit: Math.max(limit, FUSION_DEPTH) }, steps, memo)).forEach((hit, rank) => fused.set(hit.tool, (fused.get(hit.tool) ?? 0) + (RRF_K + 1) / (RRF_K + rank + 1)));
    }
    const hits: SearchHit[] = [];
    for (const [tool, score] of fused) keepTop(hits, { tool, score: Math.round(score * 1000) / 1000 }, limit);
    return hits;
  }
}

/** How deep each query's ranking goes into the fusion. */
const FUSION_DEPTH = 20;
/** The usual reciprocal rank fusion constant: ranks 1 and 2 differ little, ranks 1 and 20 do. */
const RRF_K = 60;
