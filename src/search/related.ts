import { stem } from './stem.js';
import { searchVocabulary } from './vocabulary.js';

/**
 * Related words: what tools say for an everyday word (vocabulary/search/related.json), read only
 * for a query word a catalog has nowhere in its tools' text ("how much did we spend" in a catalog
 * that never says spend reads "expense cost" too). One way, unlike a synonym set: a catalog that
 * has the word is searched by the word alone, so an entry may be looser than a synonym.
 */

/**
 * What a related word weighs, times the weight of the query word it stands for and split over a
 * reading of several words as a synonym phrase is (at most 1.5 / its length each). Measured on
 * the tuning side (LiveMCPBench dev hit@5 / recall@10; stacks' tuning sets search alone top 5 and
 * shown-or-top-5, of 609): none 0.818 / 0.659, 477, 583; 0.7 0.864 / 0.693, 479, 583; 0.85 the
 * same, 480, 583; 1 the same, 480, 584; 1.3 the same, 481, 585. The word the catalog lacks adds
 * nothing itself, so its reading may weigh what it would. Search_tools' ranking reads related
 * words; a mode's fitting (engine.ts, steps: false) does not, and keeps the ranking it was tuned with.
 */
const RELATED_WEIGHT = 1;

let byStem: Map<string, string[]> | undefined;

/**
 * The terms tools say for a query's own term (stemmed) and what each weighs, given the weight of
 * the query word (`weight`); none when the vocabulary has no reading for it. The caller asks only
 * for terms its catalog lacks.
 */
export function relatedTerms(term: string, weight: number): Array<{ term: string; weight: number }> {
  if (!byStem) {
    byStem = new Map();
    for (const [word, means] of searchVocabulary().related) byStem.set(stem(word), means.split(' ').map(stem));
  }
  const means = byStem.get(term) ?? [];
  return means.map((other) => ({ term: other, weight: RELATED_WEIGHT * weight * Math.min(1, 1.5 / means.length) }));
}
