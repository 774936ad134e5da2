import { cleanQuery, isOpaqueWord, MAX_QUERY_CHARS, MAX_QUERY_TERMS, MAX_QUERY_WORDS, MAX_WORD_CHARS, queryValues, quotedWords } from './query.js';
import { hasUnspaced } from '../catalog/text.js';
import { unicodeWords, unspacedSeen } from './tokenize.js';
import { readIdioms } from './idioms.js';
import { searchVocabulary } from './vocabulary.js';
import { stem } from './stem.js';
import { relatedTerms } from './related.js';

export { stem };

/**
 * Query and document text processing for search: words of every script (see tokenize.ts),
 * stopwords, the Porter2 stemmer for English words and a synonym table (pull request / PR,
 * bug / issue, CVE / advisory / vulnerability, ...), the word lists as reviewed data in
 * vocabulary/search/ (vocabulary.ts). No model, no network: the same input always gives the
 * same terms.
 */

/** Query and tool-text word roles, from the shipped vocabulary (read on first use). */
interface Roles {
  stopwords: ReadonlySet<string>;
  generic: ReadonlySet<string>;
  uiParts: ReadonlySet<string>;
  partKeeps: ReadonlySet<string>;
  /** Matches a hyphenated modifier's second half ("-related" of "LLM-related"), to drop it. */
  modifierSuffix: RegExp;
}

let roles: Roles | undefined;

function wordRoles(): Roles {
  if (roles) return roles;
  const vocabulary = searchVocabulary();
  return (roles = {
    stopwords: vocabulary.stopwords,
    generic: vocabulary.generic,
    uiParts: vocabulary.uiParts,
    partKeeps: vocabulary.partKeeps,
    modifierSuffix: new RegExp(`-(?:${vocabulary.modifierSuffixes.join('|')})\\b`, 'gi'),
  });
}

/** A query's own generic verb ("make", "save", "help") weighs this much: it says how, not what. */
const GENERIC_WEIGHT = 0.5;
/** The word before a part of a user interface ("the search page") weighs this much: it names which part. */
const PART_NAME_WEIGHT = 0.3;
/** A word only in the query's quotes weighs this much: it is a value the tool takes (query.ts quotedWords). */
const QUOTED_WEIGHT = 0.5;
/** A synonym's terms weigh this much of the words they stand for. */
const SYNONYM_WEIGHT = 0.7;

function namesPart(word: string, next: string | undefined, { uiParts, partKeeps }: Roles): boolean {
  return next !== undefined && uiParts.has(next) && !partKeeps.has(word) && !uiParts.has(word);
}

/** Drops hyphenated modifiers' second halves: "LLM-related" is about LLMs, not relations. */
function withoutModifiers(text: string): string {
  return text.includes('-') ? text.replace(wordRoles().modifierSuffix, '') : text;
}

/** A text's words, idioms read as the word they mean (idioms.ts). */
function words(text: string): readonly string[] {
  return readIdioms(unicodeWords(text));
}

/** Stemmed terms of a text, stopwords dropped. */
export function terms(text: string): string[] {
  const { stopwords } = wordRoles();
  const out: string[] = [];
  for (const word of textWords(text)) if (!stopwords.has(word)) out.push(stem(word));
  return out;
}

/** A text's words as `terms` reads them, before stopwords and stems: what a typo is corrected to (spelling.ts). */
export function textWords(text: string): readonly string[] {
  return words(withoutModifiers(text));
}

/** A query word search read as another: the answer says so, since a correction can be wrong ("county" to "country"). */
export interface Correction {
  typed: string;
  read: string;
}

/**
 * Corrections an answer names. Each typed word is at most 24 letters (spelling.ts MAX_WORD) and its
 * reading is one slip or one spelling variant (8 letters at most) away, so the note stays under
 * 200 characters.
 */
const CORRECTIONS_SAID = 3;

/**
 * The words of `queries` that search reads as other words (spelling.ts), from the walk
 * `expandQuery` makes (readWords): stopwords, ids and over-long words are never corrected, and
 * reading stops at `MAX_QUERY_TERMS` distinct terms. At most `CORRECTIONS_SAID`, each once.
 */
export function queryCorrections(queries: readonly string[], correct: (word: string) => string | undefined): Correction[] {
  const { stopwords } = wordRoles();
  const out: Correction[] = [];
  for (const query of queries) {
    for (const { typed, word } of readWords(queryWords(query), stopwords, correct)) {
      if (word === typed || out.some((c) => c.typed === typed)) continue;
      out.push({ typed, read: word });
      if (out.length >= CORRECTIONS_SAID) return out;
    }
  }
  return out;
}

/** A query's words as search reads them: cleaned (cleanQuery), modifiers and idioms read (textWords). */
function queryWords(query: string): readonly string[] {
  // Cleaned text is about MAX_QUERY_CHARS long plus its last token, which may be a 64 KB run: cut it.
  return textWords(cleanQuery(query).slice(0, 2 * MAX_QUERY_CHARS));
}

/** One word of a query as search reads it (see readWords). */
interface ReadWord {
  /** As written. */
  typed: string;
  /** As read: its correction, or `typed`. */
  word: string;
  /** `word`'s stem. */
  term: string;
  /** Its place among the query's words (the next one may be a part of a user interface: namesPart). */
  at: number;
  /** Whether it is the first word of its term that is no stopword: one of the query's own terms. */
  fresh: boolean;
}

/**
 * The words of a query search reads, in order: at most `MAX_QUERY_WORDS` looked at and
 * `MAX_QUERY_TERMS` distinct own terms kept, ids and words over `MAX_WORD_CHARS` skipped, each
 * word that is no stopword corrected by `correct` when it gives one. `expandQuery` weighs these
 * and `queryCorrections` says what they corrected: one walk, so the answer names the words the
 * ranking read.
 */
function readWords(list: readonly string[], stopwords: ReadonlySet<string>, correct: ((word: string) => string | undefined) | undefined): ReadWord[] {
  const out: ReadWord[] = [];
  const own = new Set<string>();
  for (let at = 0; at < list.length && at < MAX_QUERY_WORDS && own.size < MAX_QUERY_TERMS; at++) {
    const typed = list[at] ?? '';
    if (typed.length > MAX_WORD_CHARS || isOpaqueWord(typed)) continue;
    // A word no tool and no vocabulary knows may be a typo of one they do (spelling.ts).
    const word = (correct && !stopwords.has(typed) ? correct(typed) : undefined) ?? typed;
    const term = stem(word);
    const fresh = !stopwords.has(word) && !own.has(term);
    if (fresh) own.add(term);
    out.push({ typed, word, term, at, fresh });
  }
  return out;
}

/** How an answer says what search corrected: `read "vacaton" as "vacation"`, or '' when nothing was. */
export function correctionsNote(corrections: readonly Correction[]): string {
  return corrections.length === 0 ? '' : `read ${corrections.map((c) => `"${c.typed}" as "${c.read}"`).join(', ')}`;
}

let synonymWords: Set<string> | undefined;

/**
 * Whether a word as written means something to search whatever the catalog: a stopword, a word
 * of the synonym table ("vacation" stands for "leave" in a catalog that never says vacation), or
 * one the related words read (related.ts: "bought").
 */
export function vocabularyWord(word: string): boolean {
  synonymWords ??= new Set([...searchVocabulary().synonyms.flatMap((set) => set.flatMap((text) => words(text))), ...searchVocabulary().related.keys()]);
  return wordRoles().stopwords.has(word) || synonymWords.has(word);
}

/** A request's lead word: its first past the openers ("could you please just ..."), within LEAD_WINDOW words. */
function leadWord(list: readonly string[]): string | undefined {
  const { openers } = searchVocabulary();
  for (let i = 0; i < list.length && i < LEAD_WINDOW; i++) {
    const word = list[i] ?? '';
    if (!openers.has(word)) return word;
  }
  return undefined;
}

/** What a query's lead word means beyond itself ("email" -> "send email"), when it is a lead verb. */
function leadVerb(list: readonly string[]): string | undefined {
  const word = leadWord(list);
  return word === undefined ? undefined : searchVocabulary().leadVerbs.get(word);
}

/**
 * Whether a query is a question ("which deals closed in October?", "any unread emails?", "did the
 * deploy fail"): its first word after the openers is a question word (vocabulary/search/lead-verbs.json).
 * A question asks to read: its verbs ("closed", "fail") say what state to look for, not what to do.
 * "How do I create ..." is no question of this kind: it asks for the tool that creates.
 */
export function asksQuestion(query: string): boolean {
  const word = leadWord(words(cleanQuery(query).slice(0, QUESTION_READ)));
  return word !== undefined && searchVocabulary().questions.has(word);
}

/** Words read from a query's start to find its verb ("could you please just ..."). */
const LEAD_WINDOW = 8;
/** Characters of a cleaned query read to tell a question: LEAD_WINDOW words fit well within them. */
const QUESTION_READ = 512;

/**
 * What a value's words weigh (vocabulary/search/values.json: an IP address adds "ip address").
 * Measured over the tuning stacks' tasks and LiveMCPBench's dev half, search alone in the top 5:
 * 0.4 -> 448 of 609 and hit@5 0.750, 0.6 -> 448 and 0.750, 0.8 -> 449 and 0.773, 1 -> 450 and
 * 0.773 (none: 445 and 0.750); at 1 a value would weigh what the query's own words do.
 */
const VALUE_WEIGHT = 0.8;

/** The words the values of a query stand for (see queryValues), each once. */
function valueWords(query: string): string[] {
  const { values } = searchVocabulary();
  const found = queryValues(query, (ending) => values.files.has(ending), (ending) => values.hosts.has(ending));
  const out = new Set<string>();
  for (const kind of found.kinds) for (const word of values.kinds.get(kind) ?? []) out.add(word);
  for (const ending of found.suffixes) for (const word of values.files.get(ending) ?? []) out.add(word);
  return [...out];
}

/** One term a query is searched by, with its weight (see expandQuery). */
interface Expansion {
  term: string;
  weight: number;
  /** The query's own word (not a synonym's). */
  own?: boolean;
  /** For a synonym's term: the query's own terms it stands for (see synonym-idf.ts: it is worth no more than they are). */
  of?: string[];
}

interface SynonymEntry {
  /** The phrase as stemmed words, stopwords kept ("who am i" must match as said). */
  phrase: string[];
  /** The other phrases of the set as search terms. */
  alternatives: string[][];
}

let synonymEntries: Map<string, SynonymEntry[]> | undefined;
/** Whether the table holds the phrases of unspaced scripts (Chinese, Japanese). */
let synonymsUnspaced = false;

/**
 * The synonym table stemmed and keyed by each phrase's first word, built on the first query
 * rather than at start-up (cold start): a query word is checked only against the phrases it starts.
 * Phrases in scripts written without spaces join once some text needed their segmenter (see
 * unspacedSeen): before that they match nothing, and segmenting them cost 12 MB of dictionaries.
 */
function synonyms(): Map<string, SynonymEntry[]> {
  if (synonymEntries && (synonymsUnspaced || !unspacedSeen())) return synonymEntries;
  synonymsUnspaced = unspacedSeen();
  const byFirst = new Map<string, SynonymEntry[]>();
  for (const all of searchVocabulary().synonyms) {
    const set = synonymsUnspaced ? all : all.filter((text) => !hasUnspaced(text));
    if (set.length < 2) continue;
    set.forEach((text, i) => {
      const phrase = words(text).map(stem);
      const first = phrase[0];
      if (first === undefined) return;
      const entry = { phrase, alternatives: set.filter((_, k) => k !== i).map((other) => terms(other)).filter((t) => t.length > 0) };
      const list = byFirst.get(first);
      if (list) list.push(entry);
      else byFirst.set(first, [entry]);
    });
  }
  synonymEntries = byFirst;
  return synonymEntries;
}

/**
 * Query terms with weights: the query's own terms at 1 (generic verbs at 0.5, the word before a
 * part of a user interface, "the search page", at 0.3, words only in quotes at 0.5), what its lead verb means at 1 ("email"
 * adds "send"), synonym expansions at `SYNONYM_WEIGHT` times the weight of the words they stand for
 * (each word of a multi-word alternative at most 1.5 / its length of that): "see" is a light verb
 * at 0.5, so what it expands to weighs 0.35, not 0.7. Synonym phrases match the query as read,
 * stopwords included. The query is cleaned first (URLs, paths, ids: see `cleanQuery`), its words read by
 * readWords (typos corrected by `correct` when given, at most `MAX_QUERY_TERMS` distinct terms of
 * its own); the values it carries add the words they stand for at `VALUE_WEIGHT` (see `queryValues`).
 * With `known` (whether the catalog has a term), an own word the catalog lacks adds its related
 * words (related.ts: 'bought' reads 'order purchase' where no tool says bought).
 */
export function expandQuery(query: string, correct?: (word: string) => string | undefined, known?: (term: string) => boolean): Expansion[] {
  const weights = new Map<string, number>();
  /** The weight of each own term as the query says it (synonyms may raise `weights` later). */
  const owned = new Map<string, number>();
  const add = (term: string, weight: number) => weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  /** Per synonym term, the own terms of the phrases it stands for. */
  const sources = new Map<string, Set<string>>();
  const kept: string[] = [];
  const list = queryWords(query);
  const role = wordRoles();
  const quoted = quotedWords(query);
  for (const { word, term, at, fresh } of readWords(list, role.stopwords, correct)) {
    kept.push(term);
    if (!fresh) continue;
    const weight = quoted?.has(word) ? QUOTED_WEIGHT : role.generic.has(word) ? GENERIC_WEIGHT : namesPart(word, list[at + 1], role) ? PART_NAME_WEIGHT : 1;
    add(term, weight);
    owned.set(term, weight);
  }
  // A request's first word is its verb: "email Tom ..." sends an email (vocabulary/search/lead-verbs.json).
  const means = leadVerb(list);
  if (means !== undefined) {
    for (const word of words(means)) {
      const term = stem(word);
      if (!owned.has(term)) kept.push(term);
      add(term, 1);
      owned.set(term, 1);
    }
  }
  // A word the catalog lacks altogether is read as what tools say for it (related.ts).
  if (known) {
    for (const [term, weight] of [...owned]) {
      for (const other of known(term) ? [] : relatedTerms(term, weight)) {
        add(other.term, other.weight);
        sources.set(other.term, (sources.get(other.term) ?? new Set<string>()).add(term));
      }
    }
  }
  for (let i = 0; i < kept.length; i++) {
    for (const entry of synonyms().get(kept[i] ?? '') ?? []) {
      const { phrase } = entry;
      if (!phrase.every((word, k) => kept[i + k] === word)) continue;
      // A phrase weighs what its weightiest own word does; one of stopwords only ("who am i") weighs 1.
      let source = 0;
      for (const word of phrase) source = Math.max(source, owned.get(word) ?? 0);
      const weight = SYNONYM_WEIGHT * (source > 0 ? source : 1);
      const own = phrase.filter((word) => owned.has(word));
      for (const alternative of entry.alternatives) {
        for (const term of alternative) {
          add(term, weight * Math.min(1, 1.5 / alternative.length));
          if (own.length === 0) continue;
          let set = sources.get(term);
          if (!set) sources.set(term, (set = new Set()));
          for (const word of own) set.add(word);
        }
      }
    }
  }
  // Values are no words, but say what the query is about: "what is at 31.23, 121.47" wants coordinates.
  for (const word of valueWords(query)) {
    const term = stem(word);
    if (!owned.has(term)) add(term, VALUE_WEIGHT);
  }
  return [...weights].map(([term, weight]) => {
    if (owned.has(term)) return { term, weight, own: true };
    const of = sources.get(term);
    return of ? { term, weight, of: [...of] } : { term, weight };
  });
}
