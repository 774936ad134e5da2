/**
 * Word normalization shared by placement and the word vectors: the vectors file is keyed by the
 * same stems placement looks words up with, so both must stem alike (scripts/build-word-vectors.mjs
 * imports this module from dist/).
 */

const stems = new Map<string, string>();

/** A light stem so "logs" and "log" meet: plurals dropped. Memoized (tool vocabularies repeat). */
export function stem(word: string): string {
  let result = stems.get(word);
  if (result === undefined) {
    result = stemWord(word);
    if (stems.size < 100_000) stems.set(word, result);
  }
  return result;
}

function stemWord(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}ie`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('es') && /(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}
