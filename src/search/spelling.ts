import type { CatalogTool } from '../catalog/catalog.js';
import { stem, textWords, vocabularyWord, type Correction } from './text.js';
import { englishWords, searchVocabulary } from './vocabulary.js';
import { toolTitle } from '../catalog/text.js';
import { KeptPerOwner } from '../util/kept.js';

/**
 * Typo correction for query words, against the words a catalog's tools use: "vacaton days" finds
 * the leave tools, "offbaording" the offboarding ones. A query word the catalog and the synonym
 * table do not know is replaced by the known word one slip away (a letter dropped, added, or two
 * neighbours swapped; in a long word, one changed) that the most tools say. No dictionary of
 * corrections ships: the catalog is the dictionary, so a word is only ever corrected to one some
 * tools say (or the vocabulary has); the English word list (englishWords) only says which words
 * are no typos.
 *
 * Every search of a person's words corrects them (search_tools, `lazytools search`, the search
 * behind focus_mode's intent evidence and its task's tools; the intent's own match against mode
 * names and aliases reads the words as typed); a mode's fitting, which reads the rc's reviewed
 * task texts, does not. Measured on the stacks (tuning 609 tasks / blind 407): search alone in the top 5 456 ->
 * 457 / 304 -> 308; the task's mode or search 575 -> 575 / 380 -> 381; the mode an intent picks
 * with its task's tools 532 -> 532 / 361 -> 362; the intent's mode alone 468 -> 467 / 328 -> 328.
 * LiveMCPBench and search-eval unchanged. Over all 1,016 stack tasks it corrects 20 words, 16 of
 * them typos or spelling variants ("colours", "centre"). A common English word is never taken
 * for a slip (vocabulary/english-words.json): "county" stayed county, where it was read as the
 * catalog's "country", and "assigned" as "assignee" (only its other spelling may stand for it:
 * "organization" finds a British catalog's organisation). With one slip put in each task's
 * longest word (bench/typos.mjs) search finds the gold tool for 438 of 593 tuning tasks and 288
 * of 393 blind ones (439 and 288 before the English words: one slip made a word), against 396
 * and 271 uncorrected and 449 and 297 as written.
 */

/**
 * Words shorter than this are left alone, and never made: at five letters and less one edit is
 * mostly another word ("round" and "around", "spend" and "send").
 */
const MIN_WORD = 6;
/**
 * How many of the catalog's tools must say a correction: a word one tool's description says may
 * be its own typo ("moreing"). A tool's name counts twice (one tool named `onboarding_start` is
 * enough); a word of the synonym table needs no tool.
 */
const MIN_USES = 2;
/**
 * Words this long and longer may also have one letter changed (a key beside the right one). Of a
 * shorter real word's neighbours most are other real words ("night" and "right", "stuff" and
 * "staff"); of a long one's, few. Measured with bench/typos.mjs (gold in search's top 5 with one
 * slip in each task's longest word, tuning / blind): no changed letters 433 / 285, from 8
 * letters 439 / 288, from 7 438 / 289 (but as written 449 -> 448 of the tuning tasks), from 9
 * 438 / 287. The stacks' tasks as written read the same but for one word ("assigned" to
 * "assignee").
 */
const MIN_CHANGED = 8;
/** Words longer than this are left alone: ids and run-together names, not typos (and 53 candidates a letter). */
const MAX_WORD = 24;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** What the corrector asks of the catalog and the vocabulary. */
export interface Lexicon {
  /** How many of the catalog's tools say the word as written, names twice (0 for a word not `spellable`). */
  uses(word: string): number;
  /** How many tools have the word's stem: "approving" is no typo in a catalog that says "approve". */
  stemCount(word: string): number;
  /** Whether the word as written means something without the catalog (a stopword, a synonym's or related word): it counts as `MIN_USES` tools. */
  known(word: string): boolean;
  stem(word: string): string;
  /** Spellings of one word more than a slip apart ("is" and "iz" of summarise/summarize), read both ways. */
  variants?: ReadonlyArray<readonly [string, string]>;
  /** Whether the word is common English (english-words.json): no typo, though its other spelling may be what the catalog says. */
  english?: (word: string) => boolean;
}

/** Query words whose correction a speller remembers: typos recur, and finding one reads about 400 words. */
const MAX_REMEMBERED = 4096;

/**
 * A catalog's spelling: the words its tools' names, titles and summaries say as written
 * (`MIN_WORD` letters and more) and how many tools say each, read on the first query word that
 * needs it, and the corrections found so far. Whole descriptions and schemas found the same
 * corrections on every stack and took three times as long to read.
 */
export class Speller {
  private uses: Map<string, number> | undefined;
  private readonly remembered = new Map<string, string>();

  /**
   * @param tools the catalog's tools, read when a correction is first needed.
   * @param stemCount how many tools have a word's stem (the search index's postings).
   */
  constructor(
    private readonly tools: () => readonly CatalogTool[],
    private readonly stemCount: (word: string) => number,
  ) {}

  /** A query word's correction (`correction`), if it needs one. */
  readonly correct = (word: string): string | undefined => {
    if (!spellable(word)) return undefined;
    let fixed = this.remembered.get(word);
    if (fixed === undefined) {
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      const lexicon = { uses: (said: string) => this.lexicon().get(said) ?? 0, stemCount: this.stemCount, known: vocabularyWord, stem, variants: searchVocabulary().spellingVariants, english: isEnglish };
      fixed = correction(word, lexicon) ?? '';
      this.remembered.set(word, fixed);
    }
    return fixed === '' ? undefined : fixed;
  };

  private lexicon(): Map<string, number> {
    if (this.uses) return this.uses;
    const uses = new Map<string, number>();
    const add = (words: ReadonlySet<string>, weight: number) => {
      for (const word of words) uses.set(word, (uses.get(word) ?? 0) + weight);
    };
    const named = new Set<string>();
    const said = new Set<string>();
    for (const tool of this.tools()) {
      for (const word of textWords(tool.name)) if (spellable(word)) named.add(word);
      for (const text of [toolTitle(tool.definition) ?? '', tool.summary]) for (const word of textWords(text)) if (spellable(word) && !named.has(word)) said.add(word);
      // A name's words were chosen with care: one tool naming a word counts as two saying it.
      add(named, 2);
      add(said, 1);
      named.clear();
      said.clear();
    }
    return (this.uses = uses);
  }
}

const isEnglish = (word: string): boolean => englishWords().has(word);

/** Whether a word is one a correction could be, or be made for: plain letters, `MIN_WORD` to `MAX_WORD` long. */
function spellable(word: string): boolean {
  return word.length >= MIN_WORD && word.length <= MAX_WORD && /^[a-z]+$/.test(word);
}

/**
 * The correction of a lowercase query word, or undefined when it needs none (the catalog or the
 * vocabulary knows it; it is short, long or not plain letters) or no known word is one slip away
 * (for a common English word, only its other spelling counts: a spelling variant).
 * Of several, the one most tools say; then the first in alphabetical order, so a query always
 * reads the same.
 */
export function correction(word: string, lexicon: Lexicon): string | undefined {
  if (!spellable(word)) return undefined;
  if (lexicon.known(word) || lexicon.stemCount(word) > 0) return undefined;
  const stemmed = lexicon.stem(word);
  let best: string | undefined;
  let bestCount = MIN_USES - 1;
  // A common English word is no slip ("county" of "country"); only its other spelling may stand for it.
  const slips = lexicon.english?.(word) !== true;
  for (const candidate of edits(word, lexicon.variants ?? [], slips)) {
    if (candidate.length < MIN_WORD) continue;
    const count = lexicon.known(candidate) ? Math.max(MIN_USES, lexicon.uses(candidate)) : lexicon.uses(candidate);
    if (count < bestCount || (count === bestCount && (best === undefined || candidate > best))) continue;
    // One of the same stem reads the same ("payments" for "payment"): nothing to correct.
    if (lexicon.stem(candidate) !== stemmed) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Every word one slip from `word`: a letter dropped, added, or two neighbours swapped, and in a
 * word of MIN_CHANGED letters or more one changed (unless `slips` is false); and each spelling
 * variant of it (one part swapped for its other spelling, either way).
 */
function edits(word: string, variants: ReadonlyArray<readonly [string, string]>, slips = true): Set<string> {
  const out = new Set<string>();
  for (let i = 0; slips && i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    const changes = word.length >= MIN_CHANGED && tail.length > 0;
    for (const letter of LETTERS) {
      out.add(head + letter + tail);
      if (changes && letter !== tail[0]) out.add(head + letter + tail.slice(1));
    }
  }
  for (const [one, other] of variants) {
    for (const [from, to] of [[one, other], [other, one]] as const) {
      for (let at = word.indexOf(from); at >= 0; at = word.indexOf(from, at + 1)) out.add(word.slice(0, at) + to + word.slice(at + from.length));
    }
  }
  out.delete(word);
  return out;
}

/** Boundaries whose words one catalog's lists keep (one per bearer token in practice; the oldest goes). */
const MAX_BOUNDARIES = 64;
const saidWithin = new KeptPerOwner<ReadonlySet<string>>(MAX_BOUNDARIES);

/**
 * The corrections a caller whose boundary hides tools (a bearer token's modes) may be told of:
 * those to a word the vocabulary has or a tool it may see says (name, title or summary, as the
 * speller reads them). The catalog is the speller's dictionary, so "read "kerbreos" as
 * "kerberos"" told a token's caller that a tool outside its modes says "kerberos", though such
 * tools do not exist for it. The words are kept per catalog, rules and boundary `key`.
 */
export function correctionsWithin(corrections: readonly Correction[], tools: readonly CatalogTool[], rules: object, key: string, keep: (tool: CatalogTool) => boolean): Correction[] {
  const unknown = corrections.filter((c) => !vocabularyWord(c.read));
  if (unknown.length === 0) return [...corrections];
  const said = saidWithin.get(tools, rules, key, () => {
    const words = new Set<string>();
    for (const tool of tools) {
      if (!keep(tool)) continue;
      for (const text of [tool.name, toolTitle(tool.definition) ?? '', tool.summary]) for (const word of textWords(text)) if (spellable(word)) words.add(word);
    }
    return words;
  });
  return corrections.filter((c) => vocabularyWord(c.read) || said.has(c.read));
}
