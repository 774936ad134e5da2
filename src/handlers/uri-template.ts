/**
 * Matching URIs against upstreams' RFC 6570 templates without backtracking. A RegExp built from a
 * template like `{a}{b}{c}…` backtracks exponentially on a URI that almost matches (12 adjacent
 * variables and a 40-character URI held every client 222 s), so templates compile to a small NFA
 * run as a set of states: each URI character costs at most one step per template state.
 *
 * A template is compiled when a URI first reaches it (most never are), into one Int32Array, and
 * what compiling costs is paid from the same step budget: compiled at once as objects with a
 * closure per state, 4 MB of an upstream's templates took 5 s and 400 MB of the gateway's heap
 * (64 MB, what one list may hold, past the heap limit) on the first resources request.
 */

/** A compiled template: `test(uri, budget)` spends steps from `budget` and stops when it runs out. */
export interface TemplateMatcher {
  readonly uriTemplate: string;
  /** The literal text before the template's first expression: every URI it matches starts with it. */
  readonly prefix: string;
  test(uri: string, budget?: StepBudget): boolean;
}

/** Steps left for one routing decision, shared by every template tried for one URI. */
export interface StepBudget {
  steps: number;
}

/** Steps one URI may spend across every template: far above what real templates take (a URI matching none of a hostile list of them spends it all, 100-250 ms on this 2-core machine, adv28). */
export const TEMPLATE_STEP_BUDGET = 2_000_000;

/** State kinds; a state is three numbers: its kind, then a code point and its next state, or the two states a split goes on to. */
const MATCH = 0;
const CHAR = 1;
const ANY = 2;
const SEGMENT = 3;
const QUERY = 4;
const SPLIT = 5;
const WIDTH = 3;

/**
 * An expression: `{`, an operator, anything but braces, `}`. With `[^}]*` a template of unclosed
 * braces (`{{{…`) was read to its end from each of them: 40,000 took 2.9 s, and one template of
 * 300,000 (an upstream may list 1 MB) held every client for minutes.
 */
const EXPRESSION = /\{([+#./;?&]?)[^{}]*\}/g;

/**
 * A template's matcher: `{var}` matches one non-empty path segment, `{+var}`/`{#var}` anything,
 * `{/var}`, `{.var}`, `{;var}` repeated prefixed segments, `{?var}`/`{&var}` an optional query.
 * Compiled on its first test.
 */
export function compileTemplate(template: string): TemplateMatcher {
  const open = template.search(EXPRESSION);
  const prefix = open < 0 ? template : template.slice(0, open);
  let states: Int32Array | undefined;
  return {
    uriTemplate: template,
    prefix,
    test: (uri, budget = { steps: TEMPLATE_STEP_BUDGET }) => {
      if (!states) {
        // Compiling reads the template once: as many steps as it has characters.
        budget.steps -= template.length;
        if (budget.steps < 0) return false;
        states = compile(template);
      }
      return run(states, uri, budget);
    },
  };
}

/** The template's states, built back to front (each piece continues at `next`, the entry of what follows it); the last is the start. */
function compile(template: string): Int32Array {
  const parts: Array<{ literal: string } | { op: string }> = [];
  let at = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    if (match.index > at) parts.push({ literal: template.slice(at, match.index) });
    parts.push({ op: match[1] ?? '' });
    at = match.index + match[0].length;
  }
  if (at < template.length) parts.push({ literal: template.slice(at) });
  // At most two states per template character (`{/a}`: six for four) and the start: written in place.
  const cells = new Int32Array((2 * template.length + 2) * WIDTH);
  let used = 1;
  const add = (kind: number, a: number, b: number): number => {
    const at = used * WIDTH;
    cells[at] = kind;
    cells[at + 1] = a;
    cells[at + 2] = b;
    return used++;
  };
  const split = (state: number, first: number, second: number) => {
    cells[state * WIDTH] = SPLIT;
    cells[state * WIDTH + 1] = first;
    cells[state * WIDTH + 2] = second;
  };
  let next = 0;
  for (const part of parts.reverse()) {
    if ('literal' in part) {
      for (const char of [...part.literal].reverse()) next = add(CHAR, char.codePointAt(0) as number, next);
      continue;
    }
    const op = part.op;
    if (op === '+' || op === '#') {
      const loop = add(MATCH, 0, 0);
      split(loop, add(ANY, 0, loop), next);
      next = loop;
    } else if (op === '?' || op === '&') {
      const rest = add(MATCH, 0, 0);
      split(rest, add(ANY, 0, rest), next);
      next = add(SPLIT, add(QUERY, 0, rest), next);
    } else if (op === '/' || op === '.' || op === ';') {
      const outer = add(MATCH, 0, 0);
      const inner = add(MATCH, 0, 0);
      split(inner, add(SEGMENT, 0, inner), outer);
      split(outer, add(CHAR, op.codePointAt(0) as number, inner), next);
      next = outer;
    } else {
      const more = add(MATCH, 0, 0);
      split(more, add(SEGMENT, 0, more), next);
      next = add(SEGMENT, 0, more);
    }
  }
  // The start goes last: a state whose only way on is `next`.
  add(SPLIT, next, next);
  return cells.slice(0, used * WIDTH);
}

function accepts(kind: number, code: number, char: number): boolean {
  if (kind === CHAR) return char === code;
  if (kind === ANY) return true;
  if (kind === SEGMENT) return char !== 0x2f && char !== 0x3f && char !== 0x23;
  return kind === QUERY && (char === 0x3f || char === 0x26);
}

/** Which states a run has reached, by generation: one buffer for every run (runs never overlap). */
let seen = new Uint32Array(1024);
let generation = 0;

function nextGeneration(count: number): number {
  if (seen.length < count) seen = new Uint32Array(Math.max(count, seen.length * 2));
  if (generation >= 0xfffffffe) {
    seen.fill(0);
    generation = 0;
  }
  return ++generation;
}

function run(states: Int32Array, uri: string, budget: StepBudget): boolean {
  const count = states.length / WIDTH;
  let mark = nextGeneration(count);
  let current: number[] = [];
  const stack: number[] = [];
  // Adds a state and everything it reaches without reading a character.
  const close = (from: number, into: number[]): void => {
    stack.push(from);
    while (stack.length > 0) {
      const index = stack.pop() as number;
      if (seen[index] === mark) continue;
      seen[index] = mark;
      const at = index * WIDTH;
      if (states[at] === SPLIT) stack.push(states[at + 2] as number, states[at + 1] as number);
      else into.push(index);
    }
  };
  close(count - 1, current);
  // What the start reaches before a character is read (as many states as the template has
  // expressions, `{/a}{/b}…`) is paid like a character's states.
  budget.steps -= current.length;
  for (const char of uri) {
    budget.steps -= current.length + 1;
    if (budget.steps < 0) return false;
    const code = char.codePointAt(0) as number;
    mark = nextGeneration(count);
    const following: number[] = [];
    for (const index of current) {
      const at = index * WIDTH;
      if (accepts(states[at] as number, states[at + 1] as number, code)) close(states[at + 2] as number, following);
    }
    if (following.length === 0) return false;
    current = following;
  }
  return current.some((index) => states[index * WIDTH] === MATCH);
}
