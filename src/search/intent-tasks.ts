import type { ResolvedMode } from '../config/resolve.js';
import { terms } from './text.js';

/**
 * Typical tasks as intent evidence. A mode's name, aliases and description are a few dozen words;
 * its typical tasks (rc `tasks`: the presets list 66 to 100 each) say in people's words what work
 * it is for. A phrase close to one of them is that mode's work even when it shares no word with
 * the mode's own ("checking my crypto wallet balances" and research's "what's the balance of this
 * wallet address"). The measure is the nearest task: cosine over terms weighted by how rare they
 * are among all the tasks of the modes in play, so "wallet" counts and "find" hardly does.
 */

/** A mode's typical tasks, indexed once per resolved mode. */
interface ModeTasks {
  /** Per task, its distinct terms. */
  tasks: string[][];
  /** Term -> the tasks (indices) that hold it. */
  postings: Map<string, number[]>;
}

/** The tasks of a set of modes, with rarity weights over all of them. */
interface TaskIndex {
  modes: readonly ResolvedMode[];
  perMode: ModeTasks[];
  idf: Map<string, number>;
  /** Per mode, per task: the length of its weighted term vector. */
  norms: number[][];
}

/** Below this cosine a task is no evidence: one shared common word is not closeness. */
export const NEIGHBOUR_FLOOR = 0.35;

const modeTasks = new WeakMap<ResolvedMode, ModeTasks>();

function tasksOf(mode: ResolvedMode): ModeTasks {
  let indexed = modeTasks.get(mode);
  if (indexed) return indexed;
  indexed = { tasks: [], postings: new Map() };
  for (const task of mode.tasks) {
    const distinct = [...new Set(terms(task))];
    if (distinct.length === 0) continue;
    const at = indexed.tasks.push(distinct) - 1;
    for (const term of distinct) {
      const list = indexed.postings.get(term);
      if (list) list.push(at);
      else indexed.postings.set(term, [at]);
    }
  }
  modeTasks.set(mode, indexed);
  return indexed;
}

/** The last index built: callers pass a fresh array of the same modes on every call. */
let last: TaskIndex | undefined;

function indexOf(modes: readonly ResolvedMode[]): TaskIndex {
  if (last && last.modes.length === modes.length && last.modes.every((mode, i) => mode === modes[i])) return last;
  const perMode = modes.map(tasksOf);
  const frequency = new Map<string, number>();
  let total = 0;
  for (const { tasks, postings } of perMode) {
    total += tasks.length;
    for (const [term, list] of postings) frequency.set(term, (frequency.get(term) ?? 0) + list.length);
  }
  const idf = new Map<string, number>();
  for (const [term, count] of frequency) idf.set(term, Math.log(1 + total / count));
  const norms = perMode.map(({ tasks }) => tasks.map((task) => Math.sqrt(task.reduce((sum, term) => sum + (idf.get(term) ?? 0) ** 2, 0))));
  last = { modes: [...modes], perMode, idf, norms };
  return last;
}

/**
 * Per mode, the cosine of the phrase (its expanded terms, see search/text expandQuery) with the
 * mode's closest typical task, for modes with one at NEIGHBOUR_FLOOR or more. Only the phrase's terms that
 * some task holds count toward its length: a task phrase's names and numbers match no typical task
 * and say nothing against one.
 */
export function taskNeighbours(modes: readonly ResolvedMode[], expansion: ReadonlyArray<{ term: string; weight: number }>): Map<string, number> {
  const out = new Map<string, number>();
  if (modes.length === 0 || expansion.length === 0) return out;
  const { perMode, idf, norms } = indexOf(modes);
  const query = new Map<string, number>();
  for (const { term, weight } of expansion) {
    const rarity = idf.get(term);
    if (rarity !== undefined) query.set(term, Math.max(query.get(term) ?? 0, weight * rarity));
  }
  let length = 0;
  for (const value of query.values()) length += value * value;
  if (length === 0) return out;
  length = Math.sqrt(length);
  perMode.forEach(({ postings }, m) => {
    const dots = new Map<number, number>();
    for (const [term, value] of query) {
      const rarity = idf.get(term) ?? 0;
      for (const task of postings.get(term) ?? []) dots.set(task, (dots.get(task) ?? 0) + value * rarity);
    }
    let best = 0;
    for (const [task, dot] of dots) best = Math.max(best, dot / (length * (norms[m]?.[task] ?? Infinity)));
    const mode = modes[m];
    if (mode && best >= NEIGHBOUR_FLOOR) out.set(mode.name, best);
  });
  return out;
}
