// Search quality scoring, shared by the benchmark (bench/quality.mjs) and the search test:
// hit@1/hit@5 over a labeled query set, and the naive keyword scorer lazytools search is measured
// against. Not part of the library: nothing in src/ needs it.

/**
 * hit@1 and hit@5 of a ranking function over a labeled query set: the share of queries whose
 * first (or first five) results include an expected tool.
 */
export function searchQuality(queries, rank) {
  let hit1 = 0;
  let hit5 = 0;
  const misses = [];
  for (const { query, expect } of queries) {
    const names = rank(query);
    if (expect.includes(names[0] ?? '')) hit1++;
    if (names.slice(0, 5).some((name) => expect.includes(name))) hit5++;
    else misses.push(`${query} -> ${names.slice(0, 5).join(', ')}`);
  }
  const n = Math.max(1, queries.length);
  return { hit1: hit1 / n, hit5: hit5 / n, misses };
}

/**
 * The baseline: exact name > word in name > word in description, no stemming, no synonyms.
 * Ties break by code-unit order of the exposed name.
 */
export function naiveSearch(tools, query, limit = 5) {
  const q = query.toLowerCase();
  const qWords = q.split(/\W+/).filter((w) => w.length > 2);
  return tools
    .map((tool) => {
      let score = tool.name.toLowerCase() === q ? 100 : 0;
      const nameWords = tool.name.toLowerCase().split(/[^a-z0-9]+/);
      const description = (tool.definition.description ?? '').toLowerCase();
      for (const w of qWords) {
        if (nameWords.includes(w)) score += 10;
        if (description.includes(w)) score += 1;
      }
      return { name: tool.exposedName, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit)
    .map((r) => r.name);
}
