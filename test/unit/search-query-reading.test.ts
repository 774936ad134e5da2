import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { quotedWords } from '../../src/search/query.js';
import { asksQuestion, expandQuery, stem } from '../../src/search/text.js';

/**
 * How search reads a query as people type it: questions ask to read, function words and
 * negations name nothing, and a light verb's synonyms weigh as little as the verb. Made-up
 * servers: no word list knows their tools.
 */

type Tool = { name: string; description: string; inputSchema: { type: 'object' }; annotations: { readOnlyHint: boolean } };
const tool = (name: string, description: string, write = false): Tool => ({ name, description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: !write } });

function index(servers: Record<string, Tool[]>): SearchIndex {
  const sources = parseCatalog({ servers: Object.fromEntries(Object.entries(servers).map(([name, tools]) => [name, { tools }])) });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  return new SearchIndex(catalog.tools, catalog.groups);
}

describe('questions', () => {
  const crm = index({
    crm: [tool('close_deal', 'Close a deal as won or lost', true), tool('search_deals', 'Search deals by stage, owner and close date'), tool('create_deal', 'Create a deal', true)],
    deploys: [tool('deploy_service', 'Deploy a service to an environment', true), tool('list_deploys', 'List recent deploys of a service with their status')],
  });
  const top = (query: string) => crm.search(query, { limit: 1 })[0]?.tool.id;

  it('tells a question from a request', () => {
    expect(asksQuestion('which deals closed in October?')).toBe(true);
    expect(asksQuestion('any unread emails from customers this morning?')).toBe(true);
    expect(asksQuestion('did the nightly deploy of the api go out')).toBe(true);
    expect(asksQuestion('close the Acme deal')).toBe(false);
    expect(asksQuestion('can you deploy the api to staging')).toBe(false);
    // "How do I create ..." asks for the tool that creates.
    expect(asksQuestion('how do I create a deal')).toBe(false);
  });

  it('reads a question\'s verbs as states to look for, not changes to make', () => {
    expect(top('which deals closed in October?')).toBe('crm:search_deals');
    expect(top('did the api deploy go out this morning?')).toBe('deploys:list_deploys');
    // The same verbs in a request still ask for the change.
    expect(top('close the Acme deal as won')).toBe('crm:close_deal');
    expect(top('deploy the api service to staging')).toBe('deploys:deploy_service');
  });
});

describe('query words', () => {
  const terms = (query: string) => expandQuery(query).map((e) => e.term);

  it('drops pronouns, auxiliaries, negations and contraction leftovers: they name no tool', () => {
    const got = terms("the customer didn't see it, did they tell me why it was not sent?");
    for (const word of ['didn', 't', 'did', 'they', 'me', 'was', 'not']) expect(got, word).not.toContain(stem(word));
    expect(got).toContain(stem('customer'));
    expect(got).toContain(stem('sent'));
  });

  it('weighs a light verb\'s synonyms as little as the verb', () => {
    const weight = (query: string, term: string) => expandQuery(query).find((e) => e.term === stem(term))?.weight;
    // "see" is a light verb (half weight): "view", its synonym, weighs half of a full word's synonym.
    expect(weight('see the invoices', 'see')).toBe(0.5);
    expect(weight('see the invoices', 'view')).toBeCloseTo(0.35);
    expect(weight('read the invoices', 'view')).toBeCloseTo(0.7);
  });
});

describe('quoted text', () => {
  it('reads words only inside quotes as values, apostrophes opening nothing', () => {
    expect([...(quotedWords(`find the painting 'Background Study' and its history`) ?? [])]).toEqual(['background', 'study']);
    expect([...(quotedWords('mark the “rotate root keys” task as done') ?? [])]).toEqual(['rotate', 'root', 'keys']);
    expect(quotedWords("what is nvidia's stock price and apple's")).toBeUndefined();
    // All of it quoted, or a quoted word said outside the quotes too: nothing is only a value.
    expect(quotedWords('"list open issues"')).toBeUndefined();
    expect(quotedWords('search the issues for "issues"')).toBeUndefined();
    const weights = new Map(expandQuery(`find the painting 'Background Study' and its history`).map((e) => [e.term, e.weight]));
    expect(weights.get(stem('background'))).toBeLessThan(weights.get(stem('painting')) ?? 0);
  });

  it('ranks the tool for the request above one named by the quoted title', () => {
    const catalog = index({
      museum: [tool('search_artworks', 'Search artworks of the collection by title, artist or period'), tool('get_artwork', 'Get one artwork with its history')],
      design: [tool('get_backgrounds', 'Get background patterns and gradients for a landing page'), tool('get_study_guides', 'Get study guides')],
    });
    const top = catalog.search(`find the painting 'Background Study' and tell me about its history`, { limit: 2 }).map((hit) => hit.tool.name);
    expect(top[0]).not.toBe('get_backgrounds');
    expect(top[0]).toBe('get_artwork');
  });
});
