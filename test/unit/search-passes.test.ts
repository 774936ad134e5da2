import { describe, expect, it, vi } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { rankBeyondList, rankWithHeldBack, searchBeyondList, searchWithHeldBack } from '../../src/search/held-back.js';
import type { SearchMemo } from '../../src/search/memo.js';
import { finish, interleaved, SearchCancelled } from '../../src/search/passes.js';

/**
 * A search runs in passes (search/passes.ts): at once for the CLI and library, interleaved with
 * other requests in the gateway, the same hits either way; a request's searches share one memo,
 * so each pass is made once per request; a cancelled request stops at the next pass.
 */

const tool = (name: string, description: string, readOnlyHint: boolean) => ({ name, description, inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint } });
const { catalog } = buildCatalog(
  parseCatalog({
    servers: {
      pdf: {
        tools: [
          tool('read_pdf', 'Read a PDF file and return its text', true),
          tool('merge_pdfs', 'Merge several PDF files into one PDF', false),
          tool('split_pdf', 'Split a PDF file into pages', false),
          tool('search_pdf', 'Search for text in PDF files', true),
        ],
      },
      fs: { tools: [tool('write_file', 'Write text to a file on disk', false), tool('list_directory', 'List the entries of a directory', true)] },
    },
  }),
  resolveConfig({}),
);
const queries = ['read the pdf report, merge the pdf files, then split the pdf pages', 'write the file out, then list the directory', 'search the pdf text'];
const ids = (hits: readonly { tool: { id: string } }[]) => hits.map((hit) => hit.tool.id);
/** The engine's own pass, for a counted one to call through to. */
const scoreAll = (SearchIndex.prototype as unknown as { scoreAll: (...args: unknown[]) => unknown }).scoreAll;
/** An index whose scoring passes are counted (scoreAll, one pass over the postings of a query or step). */
function counted(): { index: SearchIndex; passes: ReturnType<typeof vi.fn> } {
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const spy = vi.spyOn(index as unknown as { scoreAll: (...args: unknown[]) => unknown }, 'scoreAll');
  return { index, passes: spy as unknown as ReturnType<typeof vi.fn> };
}

describe('a search in passes', () => {
  it('answers the same hits interleaved as at once, beyond a list and held back alike', async () => {
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const options = { limit: 4 };
    expect(await interleaved(index.rankMany(queries, options, new Map()))).toEqual(index.searchMany(queries, options));
    const listed = new Set(['pdf:read_pdf']);
    const held = new Set(['fs:write_file']);
    const beyond = await interleaved(rankBeyondList(index, queries, options, held, new Set(), listed, new Map()));
    expect(beyond.inList.map((hit) => hit.tool.id)).toEqual(['pdf:read_pdf']);
    expect(beyond).toEqual(searchBeyondList(index, queries, options, held, new Set(), listed));
  });

  it("makes each pass once per request: the search beyond the list and the writers' search read the first's", () => {
    const { index, passes } = counted();
    const memo: SearchMemo = new Map();
    const options = { limit: 3, filter: (t: { server: string }) => t.server === 'pdf' };
    const listed = new Set(ids(index.searchMany(queries, options)).slice(0, 1));
    passes.mockClear();
    const first = finish(index.rankMany(queries, options, memo));
    const once = passes.mock.calls.length;
    expect(once, 'three whole queries and their five steps').toBe(3 + 5);
    // Beyond the list: the first search and the one without the listed tool, no pass again.
    const beyond = finish(rankBeyondList(index, queries, options, new Set(), new Set(), listed, memo));
    expect(beyond.inList.length).toBe(1);
    // Another filter (a read-only mode's writers, noMatch), no pass again either.
    const writers = finish(rankWithHeldBack(index, queries, { limit: 6 }, new Set(), new Set(), memo));
    expect(passes.mock.calls.length, 'passes for three searches of one request').toBe(once);
    // The same hits as searches that share nothing.
    expect(first).toEqual(index.searchMany(queries, options));
    expect(beyond).toEqual(searchBeyondList(index, queries, options, new Set(), new Set(), listed));
    expect(writers).toEqual(searchWithHeldBack(index, queries, { limit: 6 }, new Set()));
    expect(ids(writers).some((id) => id.startsWith('fs:'))).toBe(true);
  });

  it('lets what arrives during a pass run before the next pass', async () => {
    const { index, passes } = counted();
    const seen: string[] = [];
    passes.mockImplementation(function (this: unknown, ...args: unknown[]) {
      seen.push('pass');
      if (seen.length === 1) setImmediate(() => seen.push('other request'));
      return scoreAll.apply(this, args);
    });
    await interleaved(index.rankMany(queries, { limit: 3 }, new Map()));
    expect(seen.slice(0, 3)).toEqual(['pass', 'other request', 'pass']);
  });

  it('stops at the next pass when its request is cancelled', async () => {
    const { index, passes } = counted();
    const controller = new AbortController();
    passes.mockImplementation(function (this: unknown, ...args: unknown[]) {
      controller.abort();
      return scoreAll.apply(this, args);
    });
    await expect(interleaved(index.rankMany(queries, { limit: 3 }, new Map()), controller.signal)).rejects.toBeInstanceOf(SearchCancelled);
    expect(passes.mock.calls.length, 'passes made after the cancel').toBe(1);
  });
});
