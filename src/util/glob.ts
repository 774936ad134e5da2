/** A compiled glob: `test(text)` is true when the glob matches all of `text` (case-insensitive). */
export interface Glob {
  readonly source: string;
  test(text: string): boolean;
}

/**
 * Compiles a glob over tool ids (`server:tool`): `*` matches any run of characters, `?` one
 * character; everything else is literal. Matching is case-insensitive and never backtracks:
 * a greedy two-pointer walk that remembers only the last `*`, so a hostile 300 KB tool name
 * or an rc glob with many `*` costs at most (text length x glob length) steps, not exponential
 * time (a RegExp of `.*` runs did: one upstream name held the event loop for minutes).
 */
export function compileGlob(glob: string): Glob {
  const test = lowerMatcher(glob);
  return { source: glob, test: (text) => test(lowerCased(text)) };
}

let lastText = '';
let lastLower = '';
/** `text.toLowerCase()`, remembered for the last text: a catalog build tests one id against every group in a row. */
function lowerCased(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastLower = text.toLowerCase();
  }
  return lastLower;
}

/**
 * A test of already lower-cased text against `glob`. The literal text before the first and after
 * the last wildcard is checked first (startsWith/endsWith), so most ids are rejected without the
 * walk; a glob without wildcards is an equality test.
 */
function lowerMatcher(glob: string): (lower: string) => boolean {
  const pattern = glob.toLowerCase();
  const first = pattern.search(/[*?]/);
  if (first < 0) return (lower) => lower === pattern;
  const head = pattern.slice(0, first);
  const tail = pattern.slice(Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?')) + 1);
  const fixed = head.length + tail.length;
  // Between head and tail a glob of `*` alone (`*:*issue*`, most rc and preset globs) is literal
  // pieces in order: each found at its first place after the last (indexOf), which the walk
  // would also accept; only a `?` needs the walk. A catalog build tests every tool id this way.
  const pieces = pattern.includes('?') ? undefined : pattern.slice(head.length, pattern.length - tail.length).split('*').filter((piece) => piece.length > 0);
  const middle = pieces ? (lower: string) => inOrder(pieces, lower, head.length, lower.length - tail.length) : (lower: string) => wildcardMatch(pattern, lower);
  return (lower) => lower.length >= fixed && lower.startsWith(head) && lower.endsWith(tail) && middle(lower);
}

/** True when `pieces` occur in `text` between `from` and `to`, in order and without overlapping. */
function inOrder(pieces: readonly string[], text: string, from: number, to: number): boolean {
  let at = from;
  for (const piece of pieces) {
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > to) return false;
    at = found + piece.length;
  }
  return true;
}

/** True when `pattern` (`*`, `?`, literals; already lower-cased) matches all of `text`. */
function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const char = pattern[p];
    if (char === '*') {
      star = p++;
      resume = t;
    } else if (char !== undefined && (char === '?' || char === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** One glob matching what any of `globs` matches (the text lower-cased once for all of them; see `globList`). */
export function anyGlob(globs: readonly Glob[]): Glob {
  const list = globList(globs.map((glob) => glob.source));
  return {
    source: globs.map((glob) => glob.source).join(', '),
    test: (text) => list.first(text) >= 0,
  };
}

/** Literal characters of a glob's head (or tail) that key its bucket in a `GlobList`. */
const KEY_CHARS = 8;

/** Globs in order, indexed so that a test reads only the globs that could match the text. */
export interface GlobList {
  /** Index of the first glob (in the given order) that matches all of `text`, case-insensitive; -1 for none. */
  first(text: string): number;
}

/**
 * Indexes `globs` for `first`: a glob without wildcards by its text, one with a literal head by
 * up to 8 characters of it, one with only a literal tail by up to 8 characters of that, the rest
 * (`*`, `*x*`) in a list read whole. An rc group of 100,000 tool names was a 100,000-glob scan of
 * every tool on every catalog build (seconds per build); now each tool looks up a few keys and
 * tests only the globs sharing them. The answer is the one a scan in order gives.
 */
export function globList(globs: readonly string[]): GlobList {
  // Each glob's matcher is made when a text first reaches it: most never are.
  const tests: Array<((lower: string) => boolean) | undefined> = [];
  const exact = new Map<string, number>();
  const heads = new Map<string, number[]>();
  const tails = new Map<string, number[]>();
  const headLengths = new Set<number>();
  const tailLengths = new Set<number>();
  const rest: number[] = [];
  globs.forEach((glob, index) => {
    const pattern = glob.toLowerCase();
    const first = pattern.search(/[*?]/);
    if (first < 0) {
      if (!exact.has(pattern)) exact.set(pattern, index);
      return;
    }
    const head = pattern.slice(0, Math.min(first, KEY_CHARS));
    const tail = pattern.slice(Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?')) + 1);
    if (head.length > 0) add(heads, headLengths, head, index);
    else if (tail.length > 0) add(tails, tailLengths, tail.slice(-KEY_CHARS), index);
    else rest.push(index);
  });
  return {
    first: (text) => {
      const lower = lowerCased(text);
      let best = exact.get(lower) ?? Number.POSITIVE_INFINITY;
      const scan = (indexes: readonly number[] | undefined): void => {
        for (const index of indexes ?? []) {
          if (index >= best) return;
          if ((tests[index] ??= lowerMatcher(globs[index] ?? ''))(lower)) {
            best = index;
            return;
          }
        }
      };
      for (const length of headLengths) if (length <= lower.length) scan(heads.get(lower.slice(0, length)));
      for (const length of tailLengths) if (length <= lower.length) scan(tails.get(lower.slice(lower.length - length)));
      scan(rest);
      return best === Number.POSITIVE_INFINITY ? -1 : best;
    },
  };
}

function add(buckets: Map<string, number[]>, lengths: Set<number>, key: string, index: number): void {
  const bucket = buckets.get(key);
  if (bucket) bucket.push(index);
  else buckets.set(key, [index]);
  lengths.add(key.length);
}
