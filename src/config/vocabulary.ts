import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../util/errors.js';
import { packageRoot } from '../util/root.js';

/**
 * The word knowledge lazytools ships as reviewed data in `vocabulary/` (every entry says why),
 * read once per process and checked on load: a broken file fails as loudly as a broken rc. Code decides how evidence adds up; these files say which words are evidence of what.
 */

/** One entry: words (space-separated, `word:weight` where weights apply) or phrases (`|`-separated), and why. */
export interface VocabularyEntry {
  words?: string | undefined;
  phrases?: string | undefined;
  why: string;
}

/** A malformed vocabulary file: where and what was expected. */
export class VocabularyError extends Error {}

/**
 * Reads `vocabulary/<name>.json` and hands it to `read`, which takes what it needs through the
 * checks below; a file that does not have that shape fails with the key path (checked by hand, not
 * with zod: these files are read on every start, a preset-sized schema cost more than the read).
 */
export function readVocabulary<T>(name: string, read: (json: Record<string, unknown>) => T): T {
  const file = path.join(packageRoot(), 'vocabulary', `${name}.json`);
  try {
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return read(record(json, '(root)'));
  } catch (error) {
    throw new ConfigError(`${error instanceof VocabularyError ? 'invalid' : 'unreadable'} vocabulary: ${(error as Error).message}`, file);
  }
}

/** The value as a plain object, or a VocabularyError naming `at`. */
export function record(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new VocabularyError(`${at}: expected an object`);
  return value as Record<string, unknown>;
}

/** The value as a string (or undefined when `optional`), or a VocabularyError naming `at`. */
export function text(value: unknown, at: string, optional?: false): string;
export function text(value: unknown, at: string, optional: true): string | undefined;
export function text(value: unknown, at: string, optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') throw new VocabularyError(`${at}: expected a string`);
  return value;
}

/** The value as a list of strings (or undefined), or a VocabularyError naming `at`. */
export function names(value: unknown, at: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new VocabularyError(`${at}: expected a list of strings`);
  return value as string[];
}

/** `json[key]` as a list of entries, each with words or phrases and a reason. */
export function entryList(json: Record<string, unknown>, key: string): VocabularyEntry[] {
  const list = json[key];
  if (!Array.isArray(list)) throw new VocabularyError(`${key}: expected a list of entries`);
  return list.map((item, index) => {
    const at = `${key}[${index}]`;
    const entry = record(item, at);
    const words = text(entry.words, `${at}.words`, true);
    const phrases = text(entry.phrases, `${at}.phrases`, true);
    const why = text(entry.why, `${at}.why`);
    if (words === undefined && phrases === undefined) throw new VocabularyError(`${at}: expected "words" or "phrases"`);
    if (why.trim().length < 3) throw new VocabularyError(`${at}.why: expected a reason`);
    return { words, phrases, why };
  });
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
