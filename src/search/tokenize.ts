/**
 * Words of any script for search: the same on tool text and on queries. ASCII text (most tool
 * definitions) takes a fast path; other text is folded (NFKD compatibility forms, Latin/Greek/
 * Cyrillic accents stripped, lowercase, ß -> ss) and split on letters and digits of every script,
 * with `Intl.Segmenter` cutting runs of scripts written without spaces (Chinese, Japanese, Thai...).
 */
import { fold, hasUnspaced, words } from '../catalog/text.js';

const ASCII = /^[ -~\t\n\r]*$/;
const HIRAGANA_ONLY = /^\p{Script=Hiragana}{1,2}$/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * Whether any text so far needed the dictionary segmenter (a tool or query in Chinese, Japanese,
 * Thai...). Until then words of those scripts can match nothing, and segmenting them (the
 * synonyms' Chinese and Japanese entries) would load the dictionaries for nothing: about 12 MB.
 */
export function unspacedSeen(): boolean {
  return segmenter !== undefined;
}

/** Lowercase words of a text: snake, kebab, camel and dotted case split, every script kept. */
export function unicodeWords(text: string): string[] {
  // ASCII (most tool text): the catalog's own word split, without a Unicode regex per character.
  if (ASCII.test(text)) return words(text);
  const folded = fold(text.replace(/(\p{Ll}|\p{Nd})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 '));
  const out: string[] = [];
  for (const chunk of folded.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (chunk.length === 0) continue;
    if (!hasUnspaced(chunk)) {
      out.push(chunk);
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const piece of segmenter.segment(chunk)) {
      // Particles (を, は, の, ます) carry no topic: one or two hiragana alone are dropped.
      if (piece.isWordLike && !HIRAGANA_ONLY.test(piece.segment)) out.push(piece.segment);
    }
  }
  return out;
}
