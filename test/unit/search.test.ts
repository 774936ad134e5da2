import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/engine.js';
import { naiveSearch, searchQuality, type LabeledQuery } from '../../bench/search-quality.mjs';
import { expandQuery, stem, terms } from '../../src/search/text.js';
import { resolveIntent } from '../../src/search/intent.js';
import { referenceProject } from '../harness/index.js';

const queries = JSON.parse(readFileSync(new URL('../fixtures/queries.json', import.meta.url), 'utf8')) as LabeledQuery[];
const hitRates = (rank: (query: string) => string[]) => searchQuality(queries, rank);

describe('search', async () => {
  const { catalog } = await referenceProject();
  const index = new SearchIndex(catalog.tools, catalog.groups);

  it('has a query set of at least 60 user-phrased queries over real tools', () => {
    expect(queries.length).toBeGreaterThanOrEqual(60);
    for (const q of queries) for (const name of q.expect) expect(catalog.byName.has(name), name).toBe(true);
  });

  it('finds the right tool in the top 5 for at least 90% of queries, ahead of a naive scorer', () => {
    const ours = hitRates((q) => index.search(q, { limit: 5 }).map((h) => h.tool.exposedName));
    const naive = hitRates((q) => naiveSearch(catalog.tools, q, 5));
    // The figures: bench/quality.mjs (BENCHMARKS.md, search quality).
    expect(ours.hit5, `misses:\n${ours.misses.join('\n')}`).toBeGreaterThanOrEqual(0.9);
    expect(ours.hit5).toBeGreaterThan(naive.hit5);
  });

  it('is deterministic and filters by group', () => {
    const a = index.search('list things', { limit: 10 }).map((h) => h.tool.id);
    expect(index.search('list things', { limit: 10 }).map((h) => h.tool.id)).toEqual(a);
    const security = index.search('alerts', { group: 'security', limit: 20 });
    expect(security.length).toBeGreaterThan(0);
    for (const hit of security) expect(hit.tool.groups).toContain('security');
  });

  it('returns nothing for an empty or stopword-only query', () => {
    expect(index.search('')).toEqual([]);
    expect(index.search('the and of')).toEqual([]);
  });
});

describe('search ranking', async () => {
  const { catalog } = await referenceProject();
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const queries = (JSON.parse(readFileSync(new URL('../fixtures/queries.json', import.meta.url), 'utf8')) as Array<{ query: string }>).map((q) => q.query);

  it('keeps the best few while scoring exactly as a full sort ranks them', () => {
    for (const query of [...queries, 'list', 'get', 'issue']) {
      const all = index.search(query, { limit: 1_000 });
      for (const limit of [1, 5, 50]) expect(index.search(query, { limit }), `${query} @${limit}`).toEqual(all.slice(0, limit));
    }
  });

  it('answers nothing for a limit below one', () => {
    expect(index.search('issue', { limit: 0 })).toEqual([]);
    expect(index.search('issue', { limit: Number.NaN })).toEqual([]);
  });
});

describe('search text', () => {
  it('stems plurals and verb forms alike', () => {
    expect(stem('issues')).toBe(stem('issue'));
    expect(stem('merging')).toBe(stem('merge'));
    expect(stem('vulnerabilities')).toBe(stem('vulnerability'));
    expect(terms('listPullRequests')).toEqual(['list', 'pull', stem('request')]);
  });
  it('expands synonyms at a lower weight', () => {
    const expansion = expandQuery('open a PR');
    expect(expansion.find((e) => e.term === 'pr')?.weight).toBe(1);
    expect(expansion.find((e) => e.term === 'pull')?.weight).toBeGreaterThan(0);
    expect(expansion.find((e) => e.term === 'pull')?.weight).toBeLessThan(1);
  });
});

describe('intent to mode', async () => {
  const { config } = await referenceProject();
  const modes = Object.values(config.modes);
  it.each([
    ['switch to security review', 'security_review'],
    ['time for a security audit', 'security_review'],
    ['standup', 'daily_checkin'],
    ['let me catch up on my notifications', 'daily_checkin'],
    ['I need to fix a bug', 'debugging'],
    ['the CI build is broken', 'debugging'],
    ['review this PR', 'code_review'],
    ['plan the next sprint', 'sprint_planning'],
    ['triage the backlog of tickets', 'task_management'],
    ['write code for a new feature', 'development'],
    ['show me every tool', 'all'],
  ])('"%s" -> %s', (phrase, mode) => {
    const match = resolveIntent(phrase, modes);
    expect(match.mode).toBe(mode);
    expect(match.confidence).toBeGreaterThan(0.35);
  });
  it('asks back below the threshold with the closest modes', () => {
    const match = resolveIntent('bananas', modes);
    expect(match.mode).toBeNull();
    // Not 'review': an alias of code_review, so it names that mode outright.
    const vague = resolveIntent('changes', modes, 0.99);
    expect(vague.mode).toBeNull();
    expect(vague.alternatives.length).toBeGreaterThan(0);
  });
});
