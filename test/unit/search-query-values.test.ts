import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { queryValues } from '../../src/search/query.js';
import { expandQuery, stem } from '../../src/search/text.js';
import { searchVocabulary } from '../../src/search/vocabulary.js';

/**
 * Values in a query (query.ts queryValues, vocabulary/search/values.json): an IP address, a pair of
 * coordinates or a file name are no words, yet they say what a task is about. Made-up servers: no
 * word list knows their tools.
 */

const { values } = searchVocabulary();
const read = (query: string) => queryValues(query, (ending) => values.files.has(ending), (ending) => values.hosts.has(ending));
const kinds = (query: string) => [...read(query).kinds].sort();

describe('queryValues', () => {
  it('tells each kind of value', () => {
    expect(kinds('roughly where is ip 202.96.128.86 located')).toEqual(['ip']);
    expect(kinds('what address is at 31.2304, 121.4737')).toEqual(['coordinates']);
    expect(kinds('call the customer back on +44 20 7946 0018')).toEqual(['phone']);
    expect(kinds('call (555) 123-4567 tomorrow')).toEqual(['phone']);
    expect(kinds('is amaz0n.com official?')).toEqual(['host']);
    expect(kinds('did maria.k@outlook.com get her receipt')).toEqual(['email']);
    expect(kinds('summarize https://example.org/post/1')).toEqual(['url']);
    expect(kinds('balance of 0x8894e0a0c962cb723c1976a4421c95949be2d4e3')).toEqual(['chain-address']);
    expect(kinds(`did tx 0x${'ab'.repeat(32)} go through`)).toEqual(['chain-hash']);
  });

  it('reads a file name\'s suffix, in a path too, and leaves unknown suffixes and plain words alone', () => {
    expect([...read('Read the file /root/docs/exchange.docx, tell me who did not give a gift').suffixes]).toEqual(['docx']);
    expect([...read('turn notes.md and C:\\work\\q3.xlsx into slides').suffixes].sort()).toEqual(['md', 'xlsx']);
    // Neither a known file suffix nor a host: a Go file, a version, an abbreviation.
    for (const query of ['fix main.go', 'upgrade to 2.4.1', 'e.g. the usual', 'Dr. Smith wrote it']) {
      expect(read(query).kinds.size, query).toBe(0);
      expect(read(query).suffixes.size, query).toBe(0);
    }
  });

  it('reads plain prose as no value: a version pair or a single decimal is no map position', () => {
    expect(kinds('compare release 1.2 with 1.3, then ship')).toEqual([]);
    expect(kinds('the rate went from 4.5% to 5.25%')).toEqual([]);
  });

  it('stays bounded on hostile text: a 64 KB token and thousands of file names', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `f${i}.${['docx', 'pdf', 'png', 'csv', 'json', 'mp3', 'mp4', 'zip', 'bib', 'epub'][i % 10]}`).join(' ');
    expect(read(many).suffixes.size).toBeLessThanOrEqual(8);
    expect(read(`${'1.'.repeat(40_000)}11`).kinds.size).toBe(0);
    expect(read(`+${'1 '.repeat(40_000)}`).kinds.size).toBe(0);
  });
});

describe('search reads values', () => {
  type Tool = { name: string; description: string; inputSchema: { type: 'object' }; annotations: { readOnlyHint: boolean } };
  const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
  const sources = parseCatalog({
    servers: {
      maps: { tools: [tool('reverse_lookup', 'Find the street address at given latitude and longitude coordinates'), tool('place_search', 'Search places by name near a city')] },
      net: { tools: [tool('ip_lookup', 'Locate an IP address: country, city and network'), tool('whois', 'Registration record of a domain: owner and dates')] },
      office: { tools: [tool('read_doc', 'Extract the text of a Word document'), tool('read_sheet', 'Read the cells of an Excel spreadsheet')] },
    },
  });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const top = (query: string) => index.search(query, { limit: 1 })[0]?.tool.id;

  it('finds the tool a value asks for when the words alone do not', () => {
    expect(top('what is at 31.2304, 121.4737')).toBe('maps:reverse_lookup');
    expect(top('where is 202.96.128.86')).toBe('net:ip_lookup');
    expect(top('who owns amaz0n.com')).toBe('net:whois');
    expect(top('what is in /root/docs/exchange.docx')).toBe('office:read_doc');
    expect(top('what is in /root/q3/budget.xlsx')).toBe('office:read_sheet');
  });

  it('weighs a value\'s words below the query\'s own, and never above a word the query says itself', () => {
    const weight = (query: string, word: string) => expandQuery(query).find((e) => e.term === stem(word));
    expect(weight('where is 202.96.128.86', 'ip')).toMatchObject({ weight: 0.8 });
    expect(weight('where is 202.96.128.86', 'ip')?.own).toBeUndefined();
    expect(weight('ip of 202.96.128.86', 'ip')).toMatchObject({ weight: 1, own: true });
  });
});
