import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { mergeCatalogs, readCatalogFile } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { SearchIndex } from '../../src/search/engine.js';
import { CATALOGS, inMemoryClientV2 } from '../harness/index.js';

/** One query per step merged, action verbs, and group text that lifts no big group. */

const sources = mergeCatalogs([await readCatalogFile(path.join(CATALOGS, 'real-world.json')), await readCatalogFile(path.join(CATALOGS, 'reference-servers.json'))]);
const { catalog } = buildCatalog(sources, resolveConfig({}));
const index = new SearchIndex(catalog.tools, catalog.groups);
const ids = (hits: Array<{ tool: { id: string } }>) => hits.map((hit) => hit.tool.id);

describe('several queries, one per step', () => {
  it('merges the rankings so each step has its tool near the top', () => {
    const merged = ids(index.searchMany(['youtube video transcript', 'generate a mind map'], { limit: 5 }));
    expect(merged).toContain('fetch:fetch_youtube_transcript');
    expect(merged).toContain('chart:generate_mind_map');
    expect(merged).toHaveLength(5);
  });

  it('answers one query as search does, and nothing for none', () => {
    expect(index.searchMany(['list feature flags'], { limit: 5 })).toEqual(index.search('list feature flags', { limit: 5 }));
    expect(index.searchMany(['', '  '])).toEqual([]);
  });
});

describe('action words', () => {
  const rank = (query: string, id: string) => ids(index.search(query, { limit: 50 })).indexOf(id);
  it('ranks a tool described as listing above one that executes for "list pods in my cluster"', () => {
    expect(rank('list pods in my cluster', 'kubernetes:kubectl_get')).toBeGreaterThanOrEqual(0);
    expect(rank('list pods in my cluster', 'kubernetes:kubectl_get')).toBeLessThan(rank('list pods in my cluster', 'kubernetes:exec_in_pod'));
  });

  it('does not lead with a destructive tool when the query asks to store', () => {
    const first = index.search('store a note in memory', { limit: 5 });
    expect(first[0]?.tool.definition.annotations?.destructiveHint).not.toBe(true);
    expect(ids(first).slice(0, 3)).toEqual(expect.arrayContaining(['memory:add_observations']));
  });

  it('still finds the destructive tool when the query asks to delete', () => {
    expect(ids(index.search('delete observations from memory', { limit: 3 }))).toContain('memory:delete_observations');
  });
});

describe('group text', () => {
  it('never adds the catch-all group words to every tool', () => {
    // "Every tool of every server" is the `all` group's description: with or without it, the same ranking.
    const withoutAll = new SearchIndex(catalog.tools, new Map([...catalog.groups].filter(([, group]) => !group.catchAll)));
    expect(catalog.groups.get('all')?.catchAll).toBe(true);
    const query = 'every tool of every server';
    expect(index.search(query, { limit: 1_000 })).toEqual(withoutAll.search(query, { limit: 1_000 }));
  });
});

describe('search_tools with queries', () => {
  const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: sources });
  let client: Client | undefined;
  afterAll(() => client?.close());
  const connected = async () => (client ??= await inMemoryClientV2((t) => gateway.createSession().connect(t), { name: 'search-agents' }));
  const call = async (args: Record<string, unknown>) => (await (await connected()).callTool({ name: 'search_tools', arguments: args })) as CallToolResult;

  it('takes one query per step and merges them', async () => {
    const result = await call({ queries: ['youtube video transcript', 'generate a mind map'], detail: 'name' });
    const names = (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fetch_youtube_transcript', 'generate_mind_map']));
  });

  it('refuses queries that are not strings, and a call with no query at all', async () => {
    expect((await call({ queries: [1, 2] })).isError).toBe(true);
    expect((await call({})).isError).toBe(true);
    expect((await call({ queries: Array.from({ length: 11 }, (_, i) => `q${i}`) })).isError).toBe(true);
  });

  it('says the search_tools description asks for one query per step', async () => {
    const { tools } = await (await connected()).listTools();
    const search = tools.find((tool) => tool.name === 'search_tools');
    expect(search?.description).toContain('queries');
    expect(Object.keys(search?.inputSchema.properties ?? {})).toContain('queries');
  });
});
