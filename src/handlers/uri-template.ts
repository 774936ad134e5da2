/**
 * Matching URIs against upstreams' RFC 6570 templates without backtracking. A RegExp built from a
 * template like `{a}{b}{c}…` backtracks exponentially on a URI that almost matches (12 adjacent
 * variables and a 40-character URI held every client 222 s), so templates compile to a small NFA
 * run as a set of states: each URI character costs at most one step per template state.
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

/** Steps one URI may spend across every template (a few ms of work, far above real templates). */
export const TEMPLATE_STEP_BUDGET = 2_000_000;

type Accept = (char: string) => boolean;
type State = { accept: Accept; next: number } | { split: [number, number] } | { match: true };

const any: Accept = () => true;
const segment: Accept = (char) => char !== '/' && char !== '?' && char !== '#';
const query: Accept = (char) => char === '?' || char === '&';

/**
 * Compiles a template: `{var}` matches one non-empty path segment, `{+var}`/`{#var}` anything,
 * `{/var}`, `{.var}`, `{;var}` repeated prefixed segments, `{?var}`/`{&var}` an optional query.
 */
export function compileTemplate(template: string): TemplateMatcher {
  const parts: Array<{ literal: string } | { op: string }> = [];
  let at = 0;
  for (const match of template.matchAll(/\{([+#./;?&]?)[^}]*\}/g)) {
    if (match.index > at) parts.push({ literal: template.slice(at, match.index) });
    parts.push({ op: match[1] ?? '' });
    at = match.index + match[0].length;
  }
  if (at < template.length) parts.push({ literal: template.slice(at) });

  const head = parts[0];
  const prefix = head !== undefined && 'literal' in head ? head.literal : '';
  // Built back to front: each piece continues at `next`, the entry of what follows it.
  const states: State[] = [{ match: true }];
  const add = (state: State): number => states.push(state) - 1;
  const placeholder = (): number => add({ match: true });
  let next = 0;
  for (const part of parts.reverse()) {
    if ('literal' in part) {
      for (const char of [...part.literal].reverse()) next = add({ accept: (c) => c === char, next });
      continue;
    }
    const op = part.op;
    if (op === '+' || op === '#') {
      const loop = placeholder();
      states[loop] = { split: [add({ accept: any, next: loop }), next] };
      next = loop;
    } else if (op === '?' || op === '&') {
      const rest = placeholder();
      states[rest] = { split: [add({ accept: any, next: rest }), next] };
      next = add({ split: [add({ accept: query, next: rest }), next] });
    } else if (op === '/' || op === '.' || op === ';') {
      const outer = placeholder();
      const inner = placeholder();
      states[inner] = { split: [add({ accept: segment, next: inner }), outer] };
      states[outer] = { split: [add({ accept: (c) => c === op, next: inner }), next] };
      next = outer;
    } else {
      const more = placeholder();
      states[more] = { split: [add({ accept: segment, next: more }), next] };
      next = add({ accept: segment, next: more });
    }
  }
  const start = next;
  return { uriTemplate: template, prefix, test: (uri, budget = { steps: TEMPLATE_STEP_BUDGET }) => run(states, start, uri, budget) };
}

function run(states: State[], start: number, uri: string, budget: StepBudget): boolean {
  const seen = new Uint32Array(states.length);
  let generation = 1;
  let current: number[] = [];
  const stack: number[] = [];
  // Adds a state and everything it reaches without reading a character.
  const close = (from: number, into: number[]): void => {
    stack.push(from);
    while (stack.length > 0) {
      const index = stack.pop() as number;
      if (seen[index] === generation) continue;
      seen[index] = generation;
      const state = states[index] as State;
      if ('split' in state) stack.push(state.split[1], state.split[0]);
      else into.push(index);
    }
  };
  close(start, current);
  for (const char of uri) {
    budget.steps -= current.length + 1;
    if (budget.steps < 0) return false;
    generation++;
    const following: number[] = [];
    for (const index of current) {
      const state = states[index] as State;
      if ('accept' in state && state.accept(char)) close(state.next, following);
    }
    if (following.length === 0) return false;
    current = following;
  }
  return current.some((index) => 'match' in (states[index] as State));
}
