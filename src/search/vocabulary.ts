import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../util/errors.js';
import { packageRoot } from '../util/root.js';
import { VALUE_KINDS, type ValueKind } from './query.js';

/**
 * The word knowledge search reads, as reviewed data in `vocabulary/search/*.json` (one file per
 * kind, a reason on every entry), never in code: stopwords, generic verbs, parts of a user
 * interface, modifier suffixes, idioms, synonyms, related words, action verbs, lead words (openers, questions,
 * switch words, lead verbs), spelling variants and what values in a query stand for. Read once,
 * on first use (the first search or intent), so a gateway that never searches never reads it.
 * The common English words spelling.ts leaves alone are apart (`englishWords`).
 */
interface SearchVocabulary {
  stopwords: ReadonlySet<string>;
  /** Light verbs and fillers: a query's own occurrence weighs half. */
  generic: ReadonlySet<string>;
  /** Parts of a user interface ("page", "button"): the word before one only names which part, and weighs less. */
  uiParts: ReadonlySet<string>;
  /** Words before a part that still pick a tool, so they keep their full weight. */
  partKeeps: ReadonlySet<string>;
  /** Second halves of hyphenated modifiers ("related" of "LLM-related"). */
  modifierSuffixes: readonly string[];
  /** Phrase -> the one word it means. */
  idioms: ReadonlyArray<readonly [string, string]>;
  /** Sets of interchangeable phrases. */
  synonyms: readonly (readonly string[])[];
  /** Word -> what tools say for it, read only when a catalog lacks the word (text.ts expandQuery). */
  related: ReadonlyMap<string, string>;
  actions: { destroy: readonly string[]; write: readonly string[]; read: readonly string[] };
  /** Words before a request's verb ("please", "can you"). */
  openers: ReadonlySet<string>;
  /** Lead words that mean more than themselves ("email" -> "send email"). */
  leadVerbs: ReadonlyMap<string, string>;
  /** Lead words that make a request a question ("which", "any", "did"): it asks to read, whatever its verbs. */
  questions: ReadonlySet<string>;
  /** Words that ask to change mode ("switch to", "mode"), and the openers: around a mode's name or alias, the phrase names it. */
  switchWords: ReadonlySet<string>;
  /** Spellings of one word more than a slip apart (British and US), each pair read both ways (spelling.ts). */
  spellingVariants: ReadonlyArray<readonly [string, string]>;
  /** What values in a query stand for (query.ts queryValues): per kind, per file suffix, and the suffixes of host names. */
  values: {
    kinds: ReadonlyMap<ValueKind, readonly string[]>;
    files: ReadonlyMap<string, readonly string[]>;
    hosts: ReadonlySet<string>;
  };
}

/** The folder of the shipped search vocabulary. */
export function vocabularyFolder(): string {
  return path.join(packageRoot(), 'vocabulary', 'search');
}

const reason = z.string().trim().min(8, 'a reason of a few words');
const word = z.string().trim().min(1).max(64);
const words = z.array(word).min(1);
const file = <T extends z.ZodType>(entry: T) => z.strictObject({ note: z.string().min(1), entries: z.array(entry).min(1) });
const wordsEntry = z.strictObject({ words, reason });
const suffix = z.string().regex(/^[a-z0-9]{1,10}$/, 'a lowercase file or host suffix without its dot');

const FILES = {
  stopwords: file(wordsEntry),
  'generic-words': file(wordsEntry),
  'ui-parts': file(z.strictObject({ kind: z.enum(['part', 'keep']), words, reason })),
  'modifier-suffixes': file(z.strictObject({ words: z.array(z.string().regex(/^[a-z]+$/, 'a lowercase word')).min(1), reason })),
  idioms: file(z.strictObject({ phrase: z.string().regex(/^[a-z]+(?: [a-z]+)+$/, 'two or more lowercase words'), means: z.string().regex(/^[a-z]+$/, 'one lowercase word'), reason })),
  synonyms: file(z.strictObject({ set: z.array(word).min(2), reason })),
  related: file(z.strictObject({ words: z.array(z.string().regex(/^[a-z]+$/, 'one lowercase word')).min(1), means: z.string().regex(/^[a-z]+(?: [a-z]+){0,3}$/, 'one to four lowercase words'), reason })),
  actions: file(z.strictObject({ kind: z.enum(['read', 'write', 'destroy']), words, reason })),
  'lead-verbs': file(
    z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('opener'), words, reason }),
      z.strictObject({ kind: z.literal('question'), words, reason }),
      z.strictObject({ kind: z.literal('switch'), words, reason }),
      z.strictObject({ kind: z.literal('verb'), word: z.string().regex(/^[a-z]+$/, 'one lowercase word'), means: z.string().regex(/^[a-z]+(?: [a-z]+)*$/, 'lowercase words'), reason }),
    ]),
  ),
  'spelling-variants': file(z.strictObject({ from: z.string().regex(/^[a-z]{1,8}$/, 'lowercase letters'), to: z.string().regex(/^[a-z]{1,8}$/, 'lowercase letters'), reason })),
  values: file(
    z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('value'), value: z.enum(VALUE_KINDS), words, reason }),
      z.strictObject({ kind: z.literal('file'), suffixes: z.array(suffix).min(1), words, reason }),
      z.strictObject({ kind: z.literal('host'), suffixes: z.array(suffix).min(1), reason }),
    ]),
  ),
} as const;

type Files = { [K in keyof typeof FILES]: z.infer<(typeof FILES)[K]> };

let cached: SearchVocabulary | undefined;

/** The shipped search vocabulary (read and validated once). */
export function searchVocabulary(): SearchVocabulary {
  return (cached ??= readVocabulary(vocabularyFolder()));
}

/**
 * Reads and validates a vocabulary folder.
 *
 * @throws ConfigError naming the file and what was expected when a file does not fit.
 */
export function readVocabulary(dir: string): SearchVocabulary {
  const read = <K extends keyof typeof FILES>(name: K): Files[K] => readFile(path.join(dir, `${name}.json`), FILES[name]) as Files[K];
  const flat = (entries: ReadonlyArray<{ words: readonly string[] }>) => entries.flatMap((entry) => entry.words.map((w) => w.toLowerCase()));
  const ui = read('ui-parts').entries;
  const actions = read('actions').entries;
  const ofKind = (kind: 'read' | 'write' | 'destroy') => flat(actions.filter((entry) => entry.kind === kind));
  const lead = read('lead-verbs').entries;
  const values = read('values').entries;
  return {
    stopwords: new Set(flat(read('stopwords').entries)),
    generic: new Set(flat(read('generic-words').entries)),
    uiParts: new Set(flat(ui.filter((entry) => entry.kind === 'part'))),
    partKeeps: new Set(flat(ui.filter((entry) => entry.kind === 'keep'))),
    modifierSuffixes: flat(read('modifier-suffixes').entries),
    idioms: read('idioms').entries.map((entry) => [entry.phrase, entry.means] as const),
    synonyms: read('synonyms').entries.map((entry) => entry.set.map((phrase) => phrase.toLowerCase())),
    related: new Map(read('related').entries.flatMap((entry) => entry.words.map((w) => [w, entry.means] as const))),
    actions: { destroy: ofKind('destroy'), write: ofKind('write'), read: ofKind('read') },
    openers: new Set(lead.flatMap((entry) => (entry.kind === 'opener' ? entry.words : []))),
    leadVerbs: new Map(lead.flatMap((entry) => (entry.kind === 'verb' ? [[entry.word, entry.means] as const] : []))),
    questions: new Set(lead.flatMap((entry) => (entry.kind === 'question' ? entry.words : []))),
    switchWords: new Set(lead.flatMap((entry) => (entry.kind === 'switch' || entry.kind === 'opener' ? entry.words : []))),
    spellingVariants: read('spelling-variants').entries.map((entry) => [entry.from, entry.to] as const),
    values: {
      kinds: new Map(values.flatMap((entry) => (entry.kind === 'value' ? [[entry.value, entry.words] as const] : []))),
      files: new Map(values.flatMap((entry) => (entry.kind === 'file' ? entry.suffixes.map((ending) => [ending, entry.words] as const) : []))),
      hosts: new Set(values.flatMap((entry) => (entry.kind === 'host' ? entry.suffixes : []))),
    },
  };
}

const englishFile = z.strictObject({ note: z.string().min(1), words: z.string().regex(/^[a-z]+(?: [a-z]+)*$/, 'lowercase words between single spaces') });
let english: ReadonlySet<string> | undefined;

/**
 * Common English words (`vocabulary/english-words.json`, generated from SCOWL by
 * scripts/english-words.mjs): spelling.ts never reads one as a typo. Read on the first query word
 * a catalog does not know, not before.
 *
 * @throws ConfigError naming the file when it does not fit.
 */
export function englishWords(): ReadonlySet<string> {
  if (english) return english;
  return (english = new Set(readFile(path.join(packageRoot(), 'vocabulary', 'english-words.json'), englishFile).words.split(' ')));
}

/**
 * A vocabulary file read as JSON and validated by `schema`.
 *
 * @throws ConfigError naming the file: what failed to read, or what does not fit.
 */
function readFile<T extends z.ZodType>(where: string, schema: T): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(where, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read the search vocabulary: ${(error as Error).message}`, where);
  }
  const result = schema.safeParse(json, { jitless: true });
  if (!result.success) throw new ConfigError(`invalid search vocabulary\n${z.prettifyError(result.error)}`, where);
  return result.data;
}
