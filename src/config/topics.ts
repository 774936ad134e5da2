import { entryList, names, phraseList, readVocabulary, record, text, VocabularyError, wordSet, type VocabularyEntry } from './vocabulary.js';

/**
 * The vocabulary placement scores tools with (`vocabulary/topics.json`): one entry per topic (a
 * kind of work a tool serves), as weighted word stems, phrases, product names and input field
 * names, each with why. Words are general (what browsers, trackers or payments are about), never
 * one server's tool names, so placement carries over to servers nobody listed.
 *
 * Weights: 3 = the word alone says the topic, 2 = strong, 1 = supporting, 0.5 = weak. `products`
 * are names of products whose presence in the server name, tool name or description is strong
 * evidence (weight 3). `fields` are input schema property name stems.
 */
export interface TopicSpec {
  /** What the topic covers, shown in explanations. */
  description: string;
  /** "stem:weight" entries separated by spaces; a stem without weight counts 1; a trailing `^` counts it only in server and tool names. */
  words: string;
  /** Phrases matched on whole words in the name, title and description: "phrase:weight" by "|". */
  phrases?: string;
  /** Product names (weight 3); a trailing `^` marks one that is also a common word, counted only in server and tool names. */
  products?: string;
  fields?: string;
  /** Topics that take precedence: when one of them is placed, this topic is dropped. */
  yieldsTo?: string[];
  /** Topics that win a tie: when one of them is placed and scores at least as high, this topic is dropped. */
  losesTo?: string[];
  /** Topics that must be placed too (e.g. "assigned to me" only counts for a tracker tool). */
  requires?: string[];
}

const KINDS = ['words', 'phrases', 'products', 'fields'] as const;

function loadTopics(): Record<string, TopicSpec> {
  return readVocabulary('topics', (json) => topicSpecs(record(json.topics, 'topics')));
}

function topicSpecs(topics: Record<string, unknown>): Record<string, TopicSpec> {
  const out: Record<string, TopicSpec> = {};
  for (const [name, value] of Object.entries(topics)) {
    const at = `topics.${name}`;
    const topic = record(value, at);
    if (!Array.isArray(topic.entries)) throw new VocabularyError(`${at}.entries: expected a list`);
    const byKind: Record<(typeof KINDS)[number], string[]> = { words: [], phrases: [], products: [], fields: [] };
    topic.entries.forEach((item: unknown, index: number) => {
      const entry = record(item, `${at}.entries[${index}]`);
      const kind = text(entry.kind, `${at}.entries[${index}].kind`) as (typeof KINDS)[number];
      if (!KINDS.includes(kind)) throw new VocabularyError(`${at}.entries[${index}].kind: expected one of ${KINDS.join(', ')}`);
      text(entry.why, `${at}.entries[${index}].why`);
      byKind[kind].push(text(entry.text, `${at}.entries[${index}].text`));
    });
    const yieldsTo = names(topic.yieldsTo, `${at}.yieldsTo`);
    const losesTo = names(topic.losesTo, `${at}.losesTo`);
    const requires = names(topic.requires, `${at}.requires`);
    out[name] = {
      description: text(topic.description, `${at}.description`),
      words: byKind.words.join(' '),
      ...(byKind.phrases.length > 0 ? { phrases: byKind.phrases.join('|') } : {}),
      ...(byKind.products.length > 0 ? { products: byKind.products.join(' ') } : {}),
      ...(byKind.fields.length > 0 ? { fields: byKind.fields.join(' ') } : {}),
      ...(yieldsTo ? { yieldsTo } : {}),
      ...(losesTo ? { losesTo } : {}),
      ...(requires ? { requires } : {}),
    };
  }
  for (const [name, spec] of Object.entries(out))
    for (const other of [...(spec.yieldsTo ?? []), ...(spec.losesTo ?? []), ...(spec.requires ?? [])])
      if (!(other in out)) throw new VocabularyError(`topics.${name}: names unknown topic "${other}"`);
  return out;
}

export const TOPICS: Readonly<Record<string, TopicSpec>> = loadTopics();

const VERB_KEYS = ['write', 'read', 'strongWrite', 'writeForms', 'readOnlyPhrases', 'postedReads', 'metaNames', 'selfWords', 'cjkWrite', 'cjkRead', 'foreignWrite', 'foreignRead'] as const;
const verbs = readVocabulary('verbs', (json) => Object.fromEntries(VERB_KEYS.map((key) => [key, entryList(json, key)])) as Record<(typeof VERB_KEYS)[number], VocabularyEntry[]>);

/** Every list of vocabulary/verbs.json as read: the placement cache's version digests them all (placement-cache.ts). */
export const VERB_VOCABULARY: Readonly<Record<string, readonly VocabularyEntry[]>> = verbs;

/** Verbs that change something: a tool named or described with one writes. */
export const WRITE_VERBS: ReadonlySet<string> = wordSet(verbs.write);

/** Verbs that only read: a tool named with one of these and none of WRITE_VERBS reads. */
export const READ_VERBS: ReadonlySet<string> = wordSet(verbs.read);

/** Verbs that write wherever they stand in a name ("get_or_create_user"). */
export const STRONG_WRITES: ReadonlySet<string> = wordSet(verbs.strongWrite);

/** Third-person forms a description writes with ("Creates a page"). */
export const WRITE_FORMS: ReadonlySet<string> = wordSet(verbs.writeForms);

/** Phrases of a description that says it changes nothing. */
export const READ_ONLY_PHRASES: readonly string[] = phraseList(verbs.readOnlyPhrases);

/** Read verbs that, after `post` at the head of a name, make a query sent by HTTP POST. */
export const POSTED_READS: ReadonlySet<string> = wordSet(verbs.postedReads);

/** Words that make a tool about the server itself (its health, login, rate limits, feedback), not about any topic. */
export const META_NAME_WORDS: ReadonlySet<string> = wordSet(verbs.metaNames);

/** Name phrases with the same effect (words joined by single spaces). */
export const META_NAME_PHRASES: readonly string[] = phraseList(verbs.metaNames);

/** Description words that keep a meta-named tool about its server (see isAboutServer): "the SonarQube instance", "this MCP tool". */
export const SELF_WORDS: ReadonlySet<string> = wordSet(verbs.selfWords);

/**
 * Chinese and Japanese verbs that write, found anywhere in a description (such text has no spaces
 * between words): a tool described only in those languages has no English verb to read.
 */
export const CJK_WRITES: readonly string[] = [...wordSet(verbs.cjkWrite)];

/** Chinese and Japanese verbs that only read or compute, likewise. */
export const CJK_READS: readonly string[] = [...wordSet(verbs.cjkRead)];

/**
 * Verbs of languages written with spaces (French, German, Spanish, Portuguese, Italian, Russian)
 * that write, as whole words with accents folded (catalog/text.ts foldedWords): a tool named and
 * described only in one of them has no English verb to read.
 */
export const FOREIGN_WRITES: ReadonlySet<string> = wordSet(verbs.foreignWrite);

/** Verbs of those languages that only read or compute, likewise. */
export const FOREIGN_READS: ReadonlySet<string> = wordSet(verbs.foreignRead);
