import type { CatalogTool } from '../catalog/catalog.js';
import { proseWords } from '../catalog/text.js';
import type { ResolvedMode } from '../config/resolve.js';
import { MAX_TASKS } from '../config/schema.js';
import { hundredths } from '../util/round.js';
import { stem } from '../util/stem.js';
import { fittingWords, nameWords } from './words.js';

/**
 * What a mode is for, as words: its description and typical tasks (rc `tasks`), each word weighted
 * by how much it tells this mode apart from the others ("refund" says customer_support, "list"
 * says nothing). Budget fitting shows first the tools whose names say what the mode is for.
 */
export interface ModeProfile {
  /** Stem -> weight (0 for words every mode uses). */
  readonly terms: ReadonlyMap<string, number>;
}


interface Profiles {
  /** In how many modes each stem appears. */
  df: Map<string, number>;
  count: number;
  byName: Map<string, ModeProfile>;
}

const profiles = new WeakMap<object, Profiles>();

/**
 * The profile of `mode` among `modes` (the config's: a word's weight falls with the number of
 * modes that use it). The counts are taken once per modes object, each profile once per mode.
 */
export function modeProfile(mode: Pick<ResolvedMode, 'name' | 'description' | 'tasks'>, modes: Readonly<Record<string, Pick<ResolvedMode, 'name' | 'description' | 'tasks'>>>): ModeProfile {
  let all = profiles.get(modes);
  if (!all) {
    const df = new Map<string, number>();
    const list = Object.values(modes);
    for (const other of list) for (const term of termsOf(other)) df.set(term, (df.get(term) ?? 0) + 1);
    profiles.set(modes, (all = { df, count: list.length, byName: new Map() }));
  }
  let profile = all.byName.get(mode.name);
  if (!profile) {
    const terms = new Map<string, number>();
    const count = Math.max(all.count, 2);
    for (const term of termsOf(mode)) terms.set(term, Math.log(count / Math.max(1, Math.min(count, all.df.get(term) ?? 1))));
    profile = { terms };
    all.byName.set(mode.name, profile);
  }
  return profile;
}

/** What of a mode's description and each task a profile reads (the rc bounds them, config/schema.ts; a profile reads every task it allows). */
const MAX_TEXT = 4_000;

/** The distinct stems of a mode's description and tasks. */
function termsOf(mode: Pick<ResolvedMode, 'description' | 'tasks'>): Set<string> {
  const { plain, primary, secondary, change, prose } = fittingWords();
  const out = new Set<string>();
  // Verbs of looking and making (get, list, create, update) are every mode's: the kind of verb is
  // priority's business. Domain actions (refund, publish) stay: they say what a mode is for.
  for (const text of [mode.description, ...mode.tasks.slice(0, MAX_TASKS)])
    for (const word of proseWords(text.slice(0, MAX_TEXT))) if (!prose.has(word) && !plain.has(word) && !primary.has(word) && !secondary.has(word) && !change.has(word) && word.length > 1) out.add(stem(word));
  return out;
}

/** How close a tool is to a mode's work, and the words that say so. */
interface Closeness {
  score: number;
  words: string[];
}

/** Summary words count this much of a name word: a name says what the tool does, a summary also what it touches. */
const SUMMARY_WEIGHT = 0.35;
/** The most closeness can add: a tool named after the mode's work, not a tool with a long name. */
const CAP = 3;

/**
 * The tool's name words (and, less, its summary's) that the mode's profile holds, weighted by the
 * profile: "refund_charge" in customer_support scores on "refund", "list_pods" there on nothing.
 */
export function closeness(tool: Pick<CatalogTool, 'name' | 'server' | 'summary'>, profile: ModeProfile, prefix?: ReadonlySet<string>): Closeness {
  let score = 0;
  const found: string[] = [];
  for (const [term, word, weight] of toolTerms(tool, prefix)) {
    const value = profile.terms.get(term) ?? 0;
    if (value <= 0) continue;
    score += value * weight;
    if (weight === 1) found.push(word);
  }
  return { score: Math.min(CAP, hundredths(score)), words: found };
}

/**
 * `closeness(...).score` without the words: fill reads the score of nearly every tool of the
 * catalog for every mode, and only priority words it. The same sum in the same order.
 */
export function closenessScore(tool: Pick<CatalogTool, 'name' | 'server' | 'summary'>, profile: ModeProfile, prefix?: ReadonlySet<string>): number {
  let score = 0;
  // Indexed, not destructured: this runs for nearly every tool of the catalog in every mode.
  const terms = toolTerms(tool, prefix);
  for (let i = 0; i < terms.length; i++) {
    const entry = terms[i] as readonly [string, string, number];
    const value = profile.terms.get(entry[0]) ?? 0;
    if (value > 0) score += value * entry[2];
  }
  return Math.min(CAP, hundredths(score));
}

/**
 * Per tool object, its distinct stems with the word and weight: read once, whatever the number of
 * modes. Keyed by the tool alone: a tool object belongs to one catalog, and fitting reads it with
 * that catalog's prefix of its server every time (fit-inputs.ts prefixesOf).
 */
const termCache = new WeakMap<object, ReadonlyArray<readonly [string, string, number]>>();

function toolTerms(tool: Pick<CatalogTool, 'name' | 'server' | 'summary'>, prefix: ReadonlySet<string> | undefined): ReadonlyArray<readonly [string, string, number]> {
  const cached = termCache.get(tool);
  if (cached) return cached;
  const seen = new Set<string>();
  const out: Array<readonly [string, string, number]> = [];
  const add = (word: string, weight: number) => {
    const term = stem(word);
    if (seen.has(term)) return;
    seen.add(term);
    out.push([term, word, weight]);
  };
  for (const word of nameWords(tool, prefix)) add(word, 1);
  const { prose } = fittingWords();
  for (const word of proseWords(tool.summary)) if (!prose.has(word)) add(word, SUMMARY_WEIGHT);
  termCache.set(tool, out);
  return out;
}
