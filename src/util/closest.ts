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
        let prefix = 3;
        for (let d = -1; d <= 1 && prefix > 0; d++) prefix = Math.min(prefix, editDistance(needle, hay.slice(0, needle.length + d), 2));
        if (prefix > 2) continue;
        score = 3 + prefix;
      } else continue;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** Milliseconds of each second that clients' tool-name hints may take (HintBudget). */
export const HINT_MS_PER_SECOND = 100;

/**
 * Hints for names a client sent, within a share of the event loop: at most `msPerSecond` of each
 * second, then none until the next. A hint compares the name with every tool the caller may see
 * (about 5 µs a tool, 50 ms over 10,000), and names cost a client nothing to make up: unknown
 * names sent in a loop held every other client's calls for a second or more (a describe_tools
 * call of 10 unknown names took 0.5 s). Past the share the answer is the same, without a hint.
 */
export class HintBudget {
  private windowStart = -Infinity;
  private spent = 0;

  /**
   * `clock` marks the seconds; `cost` measures what a hint spends. By default that is the process's
   * CPU time, not the wall clock: on a busy machine a hint descheduled for 100 ms would otherwise
   * count as 100 ms of work and leave the next client's unknown name without a hint.
   */
  constructor(
    private readonly msPerSecond = HINT_MS_PER_SECOND,
    private readonly clock: () => number = () => performance.now(),
    private readonly cost: () => number = cpuMs,
  ) {}

  /** closestNames of `input` among `candidates()` (asked only when there is budget left), or none. */
  closest(input: string, candidates: () => Iterable<string>, max?: number): string[] {
    const now = this.clock();
    if (now - this.windowStart >= 1_000) {
      this.windowStart = now;
      this.spent = 0;
    }
    if (this.spent >= this.msPerSecond) return [];
    const start = this.cost();
    const names = closestNames(input, candidates(), max);
    this.spent += this.cost() - start;
    return names;
  }
}

/** The process's CPU time in milliseconds (user and system, all threads). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

/** The one budget of the hints answered to clients (unknown tools in tools/call, execute_tool, describe_tools). */
export const clientHints = new HintBudget();

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
 * lengths alone can say so, and a row whose every cell is past the limit ends the walk. Rows are
 * typed arrays reused across calls (one call per candidate name: allocation was most of the cost).
 */
let rows = [new Uint32Array(64), new Uint32Array(64)] as const;

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (rows[0].length <= b.length) rows = [new Uint32Array(b.length + 1), new Uint32Array(b.length + 1)];
  let [previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1;
      const up = previous[j]! + 1;
      const left = current[j - 1]! + 1;
      const diagonal = previous[j - 1]! + cost;
      const cell = up < left ? (up < diagonal ? up : diagonal) : left < diagonal ? left : diagonal;
      current[j] = cell;
      if (cell < best) best = cell;
    }
    if (best > limit) return limit + 1;
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length]!;
}
