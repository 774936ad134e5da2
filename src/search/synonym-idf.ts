/**
 * A synonym's idf, capped at the idf of the query words it stands for (`of`; as Lucene's
 * SynonymQuery scores a set of synonyms by their commonest member): a synonym rarer in the catalog
 * than the word the user typed outweighed it. "ebay orders" expands "order" to "buy" and
 * "purchase"; "order" is in 342 of a stack's 644 tools (idf 0.6), "buy" in 3 (idf 5.2), so at 0.7
 * of the weight "buy" alone put an OAuth tool that mentions buyers above the tool that gets orders.
 * No knob: the cap is the own word's idf. Measured (LiveMCPBench dev hit@5 / recall@10, stacks'
 * tuning sets search alone top 5 of 609): 0.818 / 0.653, 453 -> 0.818 / 0.665, 456; search-eval
 * dev halves unchanged; gate: LiveMCPBench test 0.720 / 0.581 -> 0.720 / 0.591, blind stacks
 * 303 -> 304 of 407. Fitting (steps: false) keeps the uncapped ranking it was tuned with.
 */
export function synonymIdf(idf: number, of: readonly string[], idfOf: (term: string) => number): number {
  let cap = 0;
  for (const term of of) cap = Math.max(cap, idfOf(term));
  return Math.min(idf, cap);
}
