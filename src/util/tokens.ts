import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { own } from './own.js';

/** Tokenizers lazytools can count with; o200k_base (GPT-4o family) is the default. */
export type TokenizerName = 'o200k_base' | 'cl100k_base';

/** The part of a tool definition a model pays for on every turn. */
export interface CountableTool {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
}

const require = createRequire(import.meta.url);
const encoders = new Map<TokenizerName, (text: string) => number>();
/**
 * Counts by content digest, in two generations: a full current generation becomes the previous one
 * and the one before it is dropped, so a hostile upstream re-listing fresh definitions twice a
 * second (5,000 tools: 3 MB a second, kept for ever) holds at most two generations, while a
 * catalog smaller than a generation keeps every count (a hit in the previous one moves forward).
 */
export const TOKEN_CACHE_GENERATION = 100_000;
let cache = new Map<string, number>();
let previous = new Map<string, number>();
/** Counts recorded earlier (a lock's `tokens` section), by the same key as `cache`; used once checked. */
const recorded = new Map<string, number>();
/** Whether recorded counts are used (withoutRecordedCounts turns it off while `check` runs). */
let useRecorded = true;
/** See countEpoch. */
let epoch = 0;
/** Keys counted while recorded counts are unused. */
const counted = new Set<string>();

/**
 * Changes each time `withoutRecordedCounts` starts or ends: a count kept outside this module (per
 * definition object, catalog/totals.ts; per modes object, focus/fit.ts) is kept with the epoch it
 * was taken in, as one taken before `check` began may be a lock's recorded count.
 */
export function countEpoch(): number {
  return epoch;
}

/** Whether a cached count may be used: always, but while recorded counts are unused, one that may be the recorded one only once counted. */
function trusted(key: string, count: number): boolean {
  return useRecorded || counted.has(key) || recorded.get(key) !== count;
}

/**
 * Tokens of one tool definition, counted over `{name, description, input_schema}` (the shape
 * model APIs bill), cached by content hash so repeated catalogs and sessions pay once. The
 * tokenizer's tables load on first use, keeping it off the start-up path.
 */
export function countToolTokens(tool: CountableTool, tokenizer: TokenizerName = 'o200k_base'): number {
  const text = countedText(tool);
  const key = `${tokenizer}:${textDigest(text)}`;
  const cached = cache.get(key);
  if (cached !== undefined && trusted(key, cached)) return cached;
  const earlier = previous.get(key);
  const known = earlier !== undefined && trusted(key, earlier) ? earlier : useRecorded ? recorded.get(key) : undefined;
  const tokens = known !== undefined && plausibleCount(known, text) ? known : boundedCount(encoder(tokenizer), text);
  if (!useRecorded) counted.add(key);
  if (cache.size >= TOKEN_CACHE_GENERATION) {
    previous = cache;
    cache = new Map();
  }
  cache.set(key, tokens);
  return tokens;
}

/** How many counts the cache holds now (its memory bound is two generations). */
export function cachedTokenCounts(): number {
  return cache.size + previous.size;
}

/** Characters counted exactly; past them the count is estimated at the counted part's rate. */
export const COUNTED_PREFIX = 16 * 1024;
/** Longest piece handed to the tokenizer at once: its merges are quadratic in a run's length. */
const MAX_PIECE = 4 * 1024;
/** Piece length when a window holds no safe cut (a run without spaces: hostile or binary). */
const HARD_PIECE = 1024;

/**
 * Tokens of `text` with bounded work: the first COUNTED_PREFIX characters are counted in pieces
 * cut before a single space between two other characters (where the tokenizer's pre-split cuts
 * anyway, so ordinary text counts exactly), and the rest is estimated at the prefix's rate. A
 * 200,000-character description without spaces took 77 s to count whole; this takes milliseconds.
 */
export function boundedCount(count: (text: string) => number, text: string): number {
  const end = Math.min(text.length, COUNTED_PREFIX);
  let tokens = 0;
  let at = 0;
  while (at < end) {
    let cut = end;
    if (end - at > MAX_PIECE) {
      cut = at + HARD_PIECE;
      for (let i = at + MAX_PIECE - 1; i > at + 1; i--)
        if (text[i] === ' ' && /\S/.test(text[i - 1] ?? '') && /\S/.test(text[i + 1] ?? '')) {
          cut = i;
          break;
        }
    }
    tokens += count(text.slice(at, cut));
    at = cut;
  }
  if (text.length > end) tokens += Math.ceil(((text.length - end) * tokens) / Math.max(end, 1));
  return tokens;
}

/** A tokenizer's counts of tool definitions, by digest of the counted text (a lock's `tokens` section). */
export type RecordedCounts = Partial<Record<TokenizerName, Record<string, number>>>;

/**
 * The counts of `tools` under `tokenizer`, by digest of exactly the text counted, for a lock to
 * record (see `recordToolTokens`). Counts each tool (loading the tokenizer) unless known.
 */
export function toolTokenCounts(tools: Iterable<CountableTool>, tokenizer: TokenizerName): Record<string, number> {
  const entries = new Map<string, number>();
  for (const tool of tools) entries.set(textDigest(countedText(tool)), countToolTokens(tool, tokenizer));
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Takes the counts a lock recorded so a gateway started on it need not load the tokenizer (about
 * 250 ms) before its first answer. A lock is data, not proof: a count is only used for a text
 * whose digest is its key under the same tokenizer (so another `definitions` setting, a changed
 * definition or a newer compaction never matches), and only when plausible for that text (an
 * integer from 1 to its UTF-8 byte length, as every token covers at least one byte); else the
 * text is counted. A forged count can change which tools fit a budget, never what a mode allows;
 * `check` uses none (withoutRecordedCounts).
 * Malformed entries are skipped. Returns how many counts were taken. `most`: counts taken per
 * tokenizer at most (a lock records one or two per tool, see lockTokenCounts): the counts are kept
 * for as long as the process runs, and a lock of a million made-up digests held 149 MB of heap
 * for no tool; past 2^24 the Map threw and serve ended.
 */
export function recordToolTokens(section: unknown, most = Number.POSITIVE_INFINITY): number {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return 0;
  let taken = 0;
  for (const tokenizer of TOKENIZERS) {
    const counts = own(section as Record<string, unknown>, tokenizer);
    if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) continue;
    let left = most;
    for (const digest in counts) {
      if (left <= 0) break;
      const count = own(counts as Record<string, unknown>, digest);
      if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 1) {
        recorded.set(`${tokenizer}:${digest}`, count);
        taken++;
        left--;
      }
    }
  }
  return taken;
}

/**
 * Runs `run` with every tool counted, recorded counts (a lock's) unused, and says how many of the
 * recorded counts of the texts it counted differ from the count: `check` is the budget's gate in
 * CI, and a lock is a generated file few review, so a forged `tokens` section (every count 1) must
 * not pass a mode its definitions put over budget. Counting costs the tokenizer's load and about a
 * quarter of a second per 10,000 tools. Not reentrant: one run at a time (a CLI command).
 */
export async function withoutRecordedCounts<T>(run: () => Promise<T>): Promise<{ result: T; differing: number }> {
  useRecorded = false;
  counted.clear();
  epoch++;
  try {
    const result = await run();
    let differing = 0;
    for (const key of counted) {
      const count = recorded.get(key);
      if (count !== undefined && count !== (cache.get(key) ?? previous.get(key))) differing++;
    }
    return { result, differing };
  } finally {
    useRecorded = true;
    counted.clear();
    epoch++;
  }
}

const TOKENIZERS: readonly TokenizerName[] = ['o200k_base', 'cl100k_base'];

/** What a model API bills of a tool definition, as counted. */
function countedText(tool: CountableTool): string {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
}

function textDigest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** A recorded count a tokenizer could give `text`: every token covers at least one UTF-8 byte. */
function plausibleCount(count: number, text: string): boolean {
  return Number.isSafeInteger(count) && count >= 1 && count <= Buffer.byteLength(text);
}

/** Tokens of several tool definitions (lazytools' own tools, say), each counted as above. */
export function countToolsTokens(tools: Iterable<CountableTool>, tokenizer: TokenizerName = 'o200k_base'): number {
  let total = 0;
  for (const tool of tools) total += countToolTokens(tool, tokenizer);
  return total;
}

/** Tokens of any text a model reads (a JSON answer, say), with the same tokenizer and no cache. */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k_base'): number {
  return encoder(tokenizer)(text);
}

function encoder(name: TokenizerName): (text: string) => number {
  let count = encoders.get(name);
  if (!count) {
    const module = require(`gpt-tokenizer/encoding/${name}`) as { countTokens: (text: string) => number };
    count = module.countTokens;
    encoders.set(name, count);
  }
  return count;
}
