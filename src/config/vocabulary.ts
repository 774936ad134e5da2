import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../util/errors.js';
import { packageRoot } from '../util/root.js';

/**
 * The word knowledge lazytools ships as reviewed data in `vocabulary/` (every entry says why),
 * read once per process and validated like a preset: a broken file fails as loudly as a broken
 * rc. Code decides how evidence adds up; these files say which words are evidence of what.
 */

/** One entry: words (space-separated, `word:weight` where weights apply) or phrases (`|`-separated), and why. */
export const entrySchema = z.strictObject({
  words: z.string().optional(),
  phrases: z.string().optional(),
  why: z.string().min(3),
});
export type VocabularyEntry = z.infer<typeof entrySchema>;

/** Reads and validates `vocabulary/<name>.json`. */
export function readVocabulary<T>(name: string, schema: z.ZodType<T>): T {
  const file = path.join(packageRoot(), 'vocabulary', `${name}.json`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`unreadable vocabulary: ${(error as Error).message}`, file);
  }
  const result = schema.safeParse(json, { jitless: true });
  if (!result.success) throw new ConfigError(`invalid vocabulary\n${z.prettifyError(result.error)}`, file);
  return result.data;
}

/** The words of entries, as one set (weights, if any, dropped). */
export function wordSet(entries: readonly VocabularyEntry[]): Set<string> {
  const out = new Set<string>();
  for (const entry of entries) for (const word of (entry.words ?? '').split(/\s+/)) if (word) out.add(word.replace(/:[\d.]+$/, ''));
  return out;
}

/** The phrases of entries, in order. */
export function phraseList(entries: readonly VocabularyEntry[]): string[] {
  return entries.flatMap((entry) => (entry.phrases ?? '').split('|').map((phrase) => phrase.trim()).filter(Boolean));
}
