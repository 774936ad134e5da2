import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { correction, type Lexicon } from '../../src/search/spelling.js';
import { correctionsNote, expandQuery, queryCorrections, stem } from '../../src/search/text.js';
import { Gateway } from '../../src/app/gateway.js';
import { inMemoryClient, text } from '../harness/index.js';
import { englishWords, searchVocabulary } from '../../src/search/vocabulary.js';

/** A lexicon of words as written, with how many tools say each; stems from the words. */
function lexicon(uses: Record<string, number>, known: string[] = []): Lexicon {
  const stems = new Map<string, number>();
  for (const [word, count] of Object.entries(uses)) stems.set(stem(word), (stems.get(stem(word)) ?? 0) + count);
  return { uses: (word) => uses[word] ?? 0, stemCount: (word) => stems.get(stem(word)) ?? 0, known: (word) => known.includes(word), stem };
}

describe('correction', () => {
  const words = lexicon({ offboarding: 3, approve: 5, deployment: 4, dashboard: 2, weeked: 1, right: 9, staffed: 2, records: 3 }, ['vacation']);

  it('corrects a dropped, an added and a swapped letter to a word tools say', () => {
    expect(correction('offbaording', words)).toBe('offboarding');
    expect(correction('approove', words)).toBe('approve');
    expect(correction('deploymnet', words)).toBe('deployment');
    expect(correction('dashbord', words)).toBe('dashboard');
  });

  it('corrects to a word of the vocabulary no tool says', () => {
    expect(correction('vacaton', words)).toBe('vacation');
  });

  it('leaves words the catalog knows, by their stem too', () => {
    expect(correction('approving', words)).toBeUndefined();
    expect(correction('recording', words)).toBeUndefined();
  });

  it('corrects a changed letter in a word of eight letters or more', () => {
    expect(correction('deploymemt', words)).toBe('deployment');
    expect(correction('offboardimg', words)).toBe('offboarding');
  });

  it('does not correct to a word one tool says, a changed letter of a shorter word, or a short word', () => {
    // "weeked" is one tool's own typo; "stuffed" is "staffed" with a letter changed.
    expect(correction('weekend', words)).toBeUndefined();
    expect(correction('stuffed', words)).toBeUndefined();
    expect(correction('night', words)).toBeUndefined();
    expect(correction('rigth', words)).toBeUndefined();
  });

  it('leaves words of other scripts, digits and ids', () => {
    expect(correction('offbaording2', words)).toBeUndefined();
    expect(correction('オフボーディング', words)).toBeUndefined();
    expect(correction('a'.repeat(40), words)).toBeUndefined();
  });

  it('reads a British spelling as the US one the catalog says, and the other way (vocabulary/search/spelling-variants.json)', () => {
    const variants = searchVocabulary().spellingVariants;
    const us = { ...lexicon({ summarize: 2, analyze: 2, license: 2, catalog: 2 }), variants };
    expect(['summarise', 'analyse', 'licence', 'catalogue'].map((word) => correction(word, us))).toEqual(['summarize', 'analyze', 'license', 'catalog']);
    const british = { ...lexicon({ organisation: 2, dialogue: 2 }), variants };
    expect(['organization', 'dialog'].map((word) => correction(word, british))).toEqual(['organisation', 'dialogue']);
    expect(correction('licence', lexicon({ license: 2 }))).toBeUndefined();
  });

  it('leaves a common English word the catalog lacks, but still reads it in the spelling the catalog says', () => {
    const english = (word: string) => ['county', 'assigned', 'organization'].includes(word);
    expect(correction('county', lexicon({ country: 3 }))).toBe('country');
    expect(correction('county', { ...lexicon({ country: 3 }), english })).toBeUndefined();
    expect(correction('assigned', { ...lexicon({ assignee: 4 }), english })).toBeUndefined();
    const british = { ...lexicon({ organisation: 2 }), variants: searchVocabulary().spellingVariants, english };
    expect(correction('organization', british)).toBe('organisation');
  });

  it('ships common English words, and leaves British-only spellings and typos off the list', () => {
    const words = englishWords();
    expect(words.size).toBeGreaterThan(5_000);
    expect(['county', 'country', 'assigned', 'schedule'].filter((word) => !words.has(word))).toEqual([]);
    expect(['centre', 'licence', 'summarise', 'vacaton', 'offbaording'].filter((word) => words.has(word))).toEqual([]);
  });

  it('picks the word more tools say, then the first alphabetically', () => {
    const two = lexicon({ parsers: 2, passers: 3 });
    expect(correction('parsesr', two)).toBe('parsers');
    expect(correction('pasers', lexicon({ parsers: 2, passers: 3 }))).toBe('passers');
    expect(correction('pasers', lexicon({ parsers: 2, passers: 2 }))).toBe('parsers');
  });
});

describe('search corrects query typos against the catalog', () => {
  const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
  const { catalog } = buildCatalog(
    parseCatalog({
      servers: {
        hr: {
          tools: [
            tool('offboarding_submit', 'Submit offboarding for an employee leaving the company.'),
            tool('offboarding_search', 'Search offboarding records.'),
            tool('leave_balances', 'Leave balances of employees: days of leave left.'),
            tool('shift_create', 'Create a shift for the attendance schedule.'),
            tool('employee_search', 'Search employees by name.'),
          ],
        },
      },
    }),
    resolveConfig({}),
  );
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const first = (query: string) => index.search(query, { limit: 1 })[0]?.tool.name;

  it('finds the tools a misspelled word names', () => {
    expect(first('start offbaording for Lucas')).toMatch(/^offboarding_/);
    // "vacation" is no word of this catalog, but a synonym of "leave".
    expect(first('how many vacaton days are left')).toBe('leave_balances');
  });

  it("counts a word one tool's name says, not one its summary alone says", () => {
    const { catalog: small } = buildCatalog(
      parseCatalog({ servers: { hr: { tools: [tool('onboarding_start', 'Start for a new hire.'), tool('welcome_pack', 'Send the orientation pack to a new hire.')] } } }),
      resolveConfig({}),
    );
    const smallIndex = new SearchIndex(small.tools, small.groups);
    expect(smallIndex.search('onbaording', { limit: 1 })[0]?.tool.name).toBe('onboarding_start');
    expect(smallIndex.search('orientaiton', { limit: 1 })).toEqual([]);
  });

  it("corrects a person's words wherever search reads them, not a mode's reviewed task texts (typed: false)", () => {
    expect(index.search('start offbaording for Lucas', { limit: 1, steps: false })[0]?.tool.name).toMatch(/^offboarding_/);
    expect(index.search('start offbaording for Lucas', { limit: 1, typed: false })).toEqual([]);
    expect(index.correction('offbaording')).toBe('offboarding');
    expect(index.correction('offboarding')).toBeUndefined();
  });
});

describe('what search corrected is said', () => {
  const fix: Record<string, string> = { offbaording: 'offboarding', vacaton: 'vacation', schedlue: 'schedule', recieve: 'receive', adress: 'address' };
  const correct = (word: string) => fix[word];

  it('names each corrected word once, at most three, never a stopword or an id', () => {
    expect(queryCorrections(['start offbaording for Lucas', 'offbaording again'], correct)).toEqual([{ typed: 'offbaording', read: 'offboarding' }]);
    expect(queryCorrections(['vacaton schedlue recieve adress offbaording'], correct)).toHaveLength(3);
    expect(queryCorrections(['the of and', 'ab12cd34ef56gh78'], () => 'x')).toEqual([]);
    expect(correctionsNote([])).toBe('');
    expect(correctionsNote(queryCorrections(['vacaton schedlue'], correct))).toBe('read "vacaton" as "vacation", "schedlue" as "schedule"');
  });

  it('names the words the ranking read: the same walk, to the last of its 32 terms', () => {
    // 31 own terms, a typo read as a stopword (no term of the query), then the 32nd term.
    const filler = Array.from({ length: 31 }, (_, i) => `k${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${'xyz'[Math.floor(i / 26)]}m`);
    const query = `${filler.join(' ')} shoudl vacaton`;
    const fixes: Record<string, string> = { shoudl: 'should', vacaton: 'vacation' };
    const own = expandQuery(query, (word) => fixes[word]).filter((entry) => entry.own === true);
    expect(own).toHaveLength(32);
    expect(own.at(-1)?.term).toBe(stem('vacation'));
    expect(queryCorrections([query], (word) => fixes[word])).toEqual([
      { typed: 'shoudl', read: 'should' },
      { typed: 'vacaton', read: 'vacation' },
    ]);
    // Past the 32nd term nothing is read, so nothing is said.
    expect(queryCorrections([`${filler.join(' ')} kzzm vacaton`], (word) => fixes[word])).toEqual([]);
  });

  it('keeps the note under 200 characters whatever the catalog and the query: three words of 24 letters at most', () => {
    // Tools named by the longest words a correction is made for (24 letters), each misspelled in the query.
    const long = 'abcdefgh'.split('').map((first) => `${first}zorblaxquintivermofrant`);
    const { catalog } = buildCatalog(parseCatalog({ servers: { s: { tools: long.map((name) => ({ name, description: 'Does it.', inputSchema: { type: 'object' } })) } } }), resolveConfig({}));
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const typos = long.map((word) => `${word.slice(0, 10)}${word[11]}${word[10]}${word.slice(12)}`);
    const note = correctionsNote(queryCorrections([typos.join(' '), ...typos], (word) => index.correction(word)));
    expect(note.match(/ as /g)).toHaveLength(3);
    expect(note).toContain(`"${typos[0]}" as "${long[0]}"`);
    expect(note.length).toBeLessThan(200);
  });

  it('search_tools says it beside the hits, and only when it corrected a word', async () => {
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const } });
    const tools = [tool('offboarding_submit', 'Submit offboarding for an employee leaving.'), tool('offboarding_search', 'Search offboarding records.')];
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: [{ server: 'hr', tools }] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'spelling-test' });
    try {
      const found = text(await client.callTool({ name: 'search_tools', arguments: { query: 'start offbaording for Lucas' } }));
      expect(found).toContain('offboarding_submit');
      expect(found).toMatch(/; read "offbaording" as "offboarding"\)$/);
      const plain = text(await client.callTool({ name: 'search_tools', arguments: { query: 'offboarding records' } }));
      expect(plain).not.toContain('read "');
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
