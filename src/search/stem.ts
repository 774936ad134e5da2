import { stem as porter2 } from 'porter2';

const stems = new Map<string, string>();
const STEM_CACHE = 50_000;

/**
 * Reduces an English word to its Porter2 stem ("differences" and "different" to "differ",
 * "merging" to "merg"); words of other scripts, and words with digits, are kept as they are.
 * Cached: a catalog repeats its vocabulary.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    stemmed = porter2(word);
    stems.set(word, stemmed);
  }
  return stemmed;
}
