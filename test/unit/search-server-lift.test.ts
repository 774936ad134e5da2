import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { serverLift, ServerShape } from '../../src/search/server-lift.js';

/** Server-level evidence: a server whose tools together match the query lifts its tools (server-lift.ts). */

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });

function index(servers: Record<string, ReturnType<typeof tool>[]>): SearchIndex {
  const sources = parseCatalog({ servers: Object.fromEntries(Object.entries(servers).map(([name, tools]) => [name, { tools }])) });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  return new SearchIndex(catalog.tools, catalog.groups);
}

const chemistryAndWeb = {
  chem: [
    tool('element_info', 'Look up an element of the periodic table: atomic number, mass, isotopes and decay'),
    tool('compound_lookup', 'Find a chemical compound by name or formula'),
    tool('balance_equation', 'Balance a chemical reaction equation'),
  ],
  web: [
    tool('ask_question', 'Answer a question with a quick web lookup of any topic'),
    tool('fetch_page', 'Fetch a web page and return its text'),
  ],
};

describe('SearchIndex with servers', () => {
  it('reads a phrase the server as a whole matches as that server\'s tool first; search_tools ranking is unchanged', () => {
    const search = index(chemistryAndWeb);
    const phrase = 'quick question: the isotopes of a chemical element';
    const plain = search.search(phrase, { limit: 3 }).map((hit) => hit.tool.exposedName);
    const lifted = search.search(phrase, { limit: 3, servers: true }).map((hit) => hit.tool.exposedName);
    expect(plain[0]).toBe('ask_question');
    expect(lifted[0]).toBe('element_info');
    // The same hits, re-ordered: the lift scales scores, it finds nothing new.
    expect(new Set(lifted)).toEqual(new Set(search.search(phrase, { limit: 3 }).map((hit) => hit.tool.exposedName)));
    expect(search.search(phrase, { limit: 3 }).map((hit) => hit.tool.exposedName)).toEqual(plain);
  });

  it('changes nothing on a catalog of one server', () => {
    const search = index({ chem: chemistryAndWeb.chem });
    const phrase = 'balance the reaction for this compound';
    expect(search.search(phrase, { limit: 3, servers: true })).toEqual(search.search(phrase, { limit: 3 }));
  });
});

describe('serverLift', () => {
  const tools = [{ server: 'a' }, { server: 'a' }, { server: 'b' }];
  const shape = ServerShape.of(tools, Float32Array.from([4, 4, 4]));
  const postings = new Map([
    ['isotope', { docs: Int32Array.from([0, 1]), tf: Float32Array.from([1, 1]) }],
    ['page', { docs: Int32Array.from([2]), tf: Float32Array.from([1]) }],
  ]);

  it('lifts the best server\'s tools by LIFT and the others by their share of its score', () => {
    const lift = serverLift([{ term: 'isotope', weight: 1 }], postings, shape);
    expect(lift?.(0)).toBe(2);
    expect(lift?.(1)).toBe(2);
    expect(lift?.(2)).toBe(1);
    const both = serverLift([{ term: 'isotope', weight: 1 }, { term: 'page', weight: 1 }], postings, shape);
    expect(both?.(0)).toBe(2);
    expect(both?.(2)).toBeGreaterThan(1);
    expect(both?.(2)).toBeLessThan(2);
  });

  it('is undefined when no server matches or there is one server', () => {
    expect(serverLift([{ term: 'unknown', weight: 1 }], postings, shape)).toBeUndefined();
    expect(serverLift([{ term: 'isotope', weight: 1 }], postings, ServerShape.of([{ server: 'a' }], Float32Array.from([4])))).toBeUndefined();
  });
});
