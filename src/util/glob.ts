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
  return (lower) => lower.length >= head.length + tail.length && lower.startsWith(head) && lower.endsWith(tail) && wildcardMatch(pattern, lower);
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

/** One glob matching what any of `globs` matches (the text lower-cased once for all of them). */
export function anyGlob(globs: readonly Glob[]): Glob {
  const tests = globs.map((glob) => lowerMatcher(glob.source));
  return {
    source: globs.map((glob) => glob.source).join(', '),
    test: (text) => {
      const lower = lowerCased(text);
      return tests.some((test) => test(lower));
    },
  };
}
