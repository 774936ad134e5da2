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
  const pattern = glob.toLowerCase();
  return { source: glob, test: (text) => wildcardMatch(pattern, text.toLowerCase()) };
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

/** One glob matching what any of `globs` matches. */
export function anyGlob(globs: readonly Glob[]): Glob {
  return { source: globs.map((glob) => glob.source).join(', '), test: (text) => globs.some((glob) => glob.test(text)) };
}
