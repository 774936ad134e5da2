// Search quality on the project's query set: lazytools search vs a naive keyword scorer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalog, resolveConfig, SearchIndex } from '../dist/index.js';
import { ROOT, round } from './lib.mjs';
import { naiveSearch, searchQuality } from './search-quality.mjs';
import { sharedSources } from './tokens.mjs';

export function quality() {
  const queries = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/queries.json'), 'utf8'));
  const { catalog } = buildCatalog(sharedSources(), resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const ours = searchQuality(queries, (q) => index.search(q, { limit: 5 }).map((h) => h.tool.exposedName));
  const naive = searchQuality(queries, (q) => naiveSearch(catalog.tools, q, 5));
  return {
    queries: queries.length,
    lazytools: { hit1: round(ours.hit1), hit5: round(ours.hit5) },
    naive: { hit1: round(naive.hit1), hit5: round(naive.hit5) },
    misses: ours.misses,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(quality(), null, 2));
