import { z } from 'zod';
import { entrySchema, phraseList, readVocabulary, wordSet } from './vocabulary.js';

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

const topicEntry = z.strictObject({ kind: z.enum(['words', 'phrases', 'products', 'fields']), text: z.string(), why: z.string().min(3) });
const topicSchema = z.strictObject({
  description: z.string().min(3),
  entries: z.array(topicEntry),
  yieldsTo: z.array(z.string()).optional(),
  losesTo: z.array(z.string()).optional(),
  requires: z.array(z.string()).optional(),
  rules: z.string().optional(),
});
const topicsFile = z.strictObject({ $comment: z.string().optional(), topics: z.record(z.string(), topicSchema) });

const verbsFile = z.strictObject({
  $comment: z.string().optional(),
  write: z.array(entrySchema),
  read: z.array(entrySchema),
  strongWrite: z.array(entrySchema),
  writeForms: z.array(entrySchema),
  readOnlyPhrases: z.array(entrySchema),
  postedReads: z.array(entrySchema),
  metaNames: z.array(entrySchema),
});

function loadTopics(): Record<string, TopicSpec> {
  const { topics } = readVocabulary('topics', topicsFile);
  const out: Record<string, TopicSpec> = {};
  for (const [name, topic] of Object.entries(topics)) {
    const join = (kind: string, separator: string) => topic.entries.filter((entry) => entry.kind === kind).map((entry) => entry.text).join(separator);
    out[name] = {
      description: topic.description,
      words: join('words', ' '),
      ...(join('phrases', '|') ? { phrases: join('phrases', '|') } : {}),
      ...(join('products', ' ') ? { products: join('products', ' ') } : {}),
      ...(join('fields', ' ') ? { fields: join('fields', ' ') } : {}),
      ...(topic.yieldsTo ? { yieldsTo: topic.yieldsTo } : {}),
      ...(topic.losesTo ? { losesTo: topic.losesTo } : {}),
      ...(topic.requires ? { requires: topic.requires } : {}),
    };
  }
  for (const [name, spec] of Object.entries(out))
    for (const other of [...(spec.yieldsTo ?? []), ...(spec.losesTo ?? []), ...(spec.requires ?? [])])
      if (!(other in out)) throw new Error(`vocabulary/topics.json: topic "${name}" names unknown topic "${other}"`);
  return out;
}

export const TOPICS: Readonly<Record<string, TopicSpec>> = loadTopics();

const verbs = readVocabulary('verbs', verbsFile);

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
