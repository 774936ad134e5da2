import { describe, expect, it, vi } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { MAX_STEPS, taskSteps } from '../../src/search/clauses.js';
import { SearchIndex } from '../../src/search/engine.js';

/** A task of several steps is searched as a whole and per step (clauses.ts, engine.ts withSteps). */

describe('taskSteps', () => {
  it('parts a task at sentence ends, commas and "then", and keeps file names and numbers whole', () => {
    expect(taskSteps('Read the PDFs in /root/pdf/a.pdf, compare them, then write a report to /root/out.md')).toEqual(['Read the PDFs in /root/pdf/a.pdf', 'compare them', 'write a report to /root/out.md']);
    expect(taskSteps('I have 9.5g gold. Estimate its value!')).toEqual(['I have 9.5g gold', 'Estimate its value']);
    expect(taskSteps('List open issues; and then close the stale ones')).toEqual(['List open issues', 'close the stale ones']);
    expect(taskSteps('fetch the page\n\n  summarize it for me')).toEqual(['fetch the page', 'summarize it for me']);
  });

  it('is no split for a one-step query, and drops one-word parts', () => {
    expect(taskSteps('list my open pull requests')).toEqual([]);
    expect(taskSteps('weather in Paris, please')).toEqual([]);
    expect(taskSteps('')).toEqual([]);
    expect(taskSteps('Compare A, B, and C, then chart the results')).toEqual(['Compare A', 'chart the results']);
  });

  it('reads at most MAX_STEPS steps, in linear time on any text', () => {
    expect(taskSteps(Array.from({ length: 50 }, (_, i) => `step number ${i}`).join(', '))).toHaveLength(MAX_STEPS);
    for (const hostile of ['.'.repeat(70_000), '.!'.repeat(35_000) + 'x', ' '.repeat(70_000) + 'x', ', and'.repeat(14_000), ' and then'.repeat(8_000), '\n \n'.repeat(20_000)]) {
      const started = performance.now();
      expect(taskSteps(hostile).length).toBeLessThanOrEqual(MAX_STEPS);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});

describe('search over a task of several steps', () => {
  const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
  const sources = parseCatalog({
    servers: {
      pdf: {
        tools: [
          tool('read_pdf', 'Read a PDF file and return its text'),
          tool('pdf_info', 'Get the metadata and page count of a PDF file'),
          tool('merge_pdfs', 'Merge several PDF files into one PDF'),
          tool('split_pdf', 'Split a PDF file into pages'),
          tool('search_pdf', 'Search for text in PDF files'),
          tool('compare_pdfs', 'Compare the text of two PDF files'),
        ],
      },
      // "Write text to a file, replacing its content" reached the top two through "content", a synonym
      // of "read"; with synonyms' idf capped at their own word's (engine.ts synonymIdf) it no longer
      // does, as "read" and "write" are in every tool here (the files group's description).
      fs: { tools: [tool('write_file', 'Write text to a file on disk, creating it if needed'), tool('list_directory', 'List the entries of a directory')] },
    },
  });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const ids = (query: string, limit: number) => index.search(query, { limit }).map((hit) => hit.tool.id);

  it("lifts the last step's tool into the top two, past the first step's many matches", () => {
    // Ranked as one query, the PDF words gave read_pdf second place and write_file third.
    const task = 'Read the PDF files in /root/pdf and compare them. Write the report to /root/out.md';
    expect(ids(task, 2)).toEqual(['pdf:compare_pdfs', 'fs:write_file']);
    // steps: false (a mode's typical task, read to fit it) ranks it as one query, as before.
    expect(index.search(task, { limit: 2, steps: false }).map((hit) => hit.tool.id)).toEqual(['pdf:compare_pdfs', 'pdf:read_pdf']);
  });

  it('adds no tool the whole task does not match, and keeps limits consistent with the full ranking', () => {
    const query = 'Compare the PDF files, merge them, then list the directory';
    const all = index.search(query, { limit: 1_000 });
    for (const limit of [1, 3, 5]) expect(index.search(query, { limit })).toEqual(all.slice(0, limit));
    expect(all.every((hit) => hit.score > 0)).toBe(true);
    expect(index.search('zebra giraffe, then okapi llama', { limit: 5 })).toEqual([]);
  });

  it('filters every step by the same group and predicate', () => {
    const hits = index.search('Read the PDF files, compare them, then write the report', { limit: 10, filter: (t) => t.server === 'pdf' });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.tool.server).toBe('pdf');
  });
});

describe('several queries of several steps', () => {
  const { catalog } = buildCatalog(
    parseCatalog({ servers: { pdf: { tools: ['read_pdf', 'merge_pdfs', 'split_pdf', 'write_file', 'list_directory'].map((name) => ({ name, description: `${name.replace('_', ' ')} files`, inputSchema: { type: 'object', properties: {} } })) } } }),
    resolveConfig({}),
  );
  const task = (k: number) => `read the pdf ${k}, merge the pdf files, split the pdf pages, write the file out, list the directory`;

  it('share one budget of MAX_STEPS step passes: ten tasks of five steps scored 60 times (340 ms per search_tools call at 10,000 tools)', () => {
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const passes = vi.spyOn(index as unknown as { scoreAll: (...args: unknown[]) => unknown }, 'scoreAll');
    index.searchMany(Array.from({ length: 10 }, (_, k) => task(k)), { limit: 5 });
    // Ten whole queries, and the steps of as many tasks as fit in MAX_STEPS passes, all or none.
    expect(passes.mock.calls.length, 'scoring passes for 10 queries of 5 steps').toBe(10 + 5 * Math.floor(MAX_STEPS / 5));
  });

  it('leave one query ranked by its steps as before', () => {
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const passes = vi.spyOn(index as unknown as { scoreAll: (...args: unknown[]) => unknown }, 'scoreAll');
    expect(index.searchMany([task(1)], { limit: 5 })).toEqual(index.search(task(1), { limit: 5 }));
    expect(passes.mock.calls.length).toBe(2 * 6);
  });
});
