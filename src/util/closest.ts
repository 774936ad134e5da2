/**
 * Longest input compared in full: no name is that long, so past it only a prefix can be close.
 * An unknown name comes from a client (a 100 KB tools/call name); without this bound, and the
 * length pruning below, one such call held the event loop for minutes over 10,000 tools.
 */
const MAX_INPUT = 256;

/**
 * Names from `candidates` closest to `input`, best first: used for "did you mean" hints on unknown
 * modes, groups and tools. Prefix and substring matches rank ahead of edit distance. Work is
 * bounded per candidate whatever the input: the input is cut to MAX_INPUT characters and an edit
 * distance is computed only where the lengths leave it within the limit, and stops past it.
 */
export function closestNames(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.slice(0, MAX_INPUT).toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const hay = name.toLowerCase();
    let score: number;
    if (hay === needle) score = 0;
    else if (hay.startsWith(needle) || needle.startsWith(hay)) score = 1;
    else if (hay.includes(needle) || needle.includes(hay)) score = 2;
    else {
      const limit = Math.max(2, Math.floor(Math.max(needle.length, hay.length) / 2));
      const distance = editDistance(needle, hay, limit);
      if (distance <= limit) score = 2 + distance;
      else if (needle.length >= 4) {
        // A misspelled start of a longer name ("securty" for "security_review") counts too.
        const prefix = Math.min(...[-1, 0, 1].map((d) => editDistance(needle, hay.slice(0, needle.length + d), 2)));
        if (prefix > 2) continue;
        score = 3 + prefix;
      } else continue;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** ` Did you mean "a", "b"?` for the names closest to `input`, or an empty string. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  return suggestionText(closestNames(input, candidates));
}

/** The one wording of every "did you mean" hint: ` Did you mean "a", "b"?`, or '' for no names. */
export function suggestionText(names: readonly string[]): string {
  return names.length > 0 ? ` Did you mean ${names.map((n) => `"${n}"`).join(', ')}?` : '';
}

/**
 * Levenshtein distance with two rows, or `limit + 1` as soon as it must exceed `limit`: the
 * lengths alone can say so, and a row whose every cell is past the limit ends the walk.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const cell = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current[j] = cell;
      if (cell < best) best = cell;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
