import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { readIdioms } from '../../src/search/idioms.js';
import { resolveIntent } from '../../src/search/intent.js';
import { expandQuery } from '../../src/search/text.js';
import { CATALOGS } from '../harness/index.js';

/** Task phrasing as developers type it, over the 10-server developer stack. */

const { catalog } = buildCatalog(await readCatalogFile(path.join(CATALOGS, 'developer-stack.json')), resolveConfig({}));
const index = new SearchIndex(catalog.tools, catalog.groups);
const own = (query: string) => expandQuery(query).filter((e) => e.own).map((e) => e.term);

describe('idioms', () => {
  it('reads an idiom as the word it means, and leaves other text as it is', () => {
    expect(readIdioms(['find', 'out', 'why', 'it', 'fails'])).toEqual(['investigate', 'why', 'it', 'fails']);
    expect(readIdioms(['log', 'in', 'as', 'admin'])).toEqual(['login', 'as', 'admin']);
    const plain = ['find', 'the', 'logs'];
    expect(readIdioms(plain)).toBe(plain);
  });

  it('keeps "find out why" from searching, "log in" from reading logs, "pull up" from a git pull', () => {
    expect(own('the close button cannot be clicked, find out why')).not.toContain('find');
    expect(own('log in on staging with the test account')).not.toContain('log');
    expect(own('pull up the incident postmortem')).not.toContain('pull');
  });
});

describe('the word before a part of a page names the part, not the tool', () => {
  const weight = (query: string, term: string) => expandQuery(query).find((e) => e.term === term)?.weight;
  it('weighs "search" in "the search page" and "checkout" in "the checkout page" low, "new" in "a new page" fully', () => {
    expect(weight('what does the search page request', 'search')).toBe(0.3);
    expect(weight('take a snapshot of the checkout page', 'checkout')).toBe(0.3);
    expect(weight('open a new page', 'new')).toBe(1);
    expect(weight('search the docs', 'search')).toBe(1);
  });

  it('finds the typing tool for "type into the search box", not search tools alone', () => {
    const top = index.search('type into the search box on the docs page', { limit: 5 }).map((hit) => hit.tool.id);
    expect(top.some((id) => id === 'chrome-devtools:type_text' || id === 'playwright:browser_type'), top.join(', ')).toBe(true);
  });
});

describe('developer tasks over the 10-server stack (dev tasks of test/fixtures/tasks, missed by search before)', () => {
  it.each([
    ['log in on staging with the test account and check it redirects to /home', ['playwright:browser_fill_form', 'chrome-devtools:fill_form', 'playwright:browser_navigate', 'chrome-devtools:navigate_page']],
    ['one node looks NotReady, find out why', ['kubernetes:kubectl_describe', 'kubernetes:kubectl_get']],
    ['which pods in prod run as root?', ['kubernetes:kubectl_get', 'kubernetes:kubectl_describe']],
    ['pull the article text out of https://example.com/blog/post-1', ['tavily:tavily_extract']],
  ])('"%s" has a starting tool in the top 5', (task, gold) => {
    const top = index.search(task, { limit: 5 }).map((hit) => hit.tool.id);
    expect(top.some((id) => gold.includes(id)), top.join(', ')).toBe(true);
  });

  it('"get the accessibility tree of the checkout page..." has a starting tool in the top 10', () => {
    // Top 5 until synonyms' idf was capped at their own word's (engine.ts synonymIdf): Porter2
    // stems "accessibility" to "access", which half the stack says ("access to this API"), so
    // "a11y", its synonym, now weighs what "access" does; the snapshot tool is 6th. A known loss
    // of that change, measured net of it (stacks' tuning sets 453 -> 456 of 609).
    const top = index.search('get the accessibility tree of the checkout page so we can find the pay button', { limit: 10 }).map((hit) => hit.tool.id);
    expect(top.some((id) => id === 'playwright:browser_snapshot' || id === 'chrome-devtools:take_snapshot'), top.join(', ')).toBe(true);
  });
});

describe('intent', () => {
  it('does not take a stopword alias ("all") found in a task for the mode it names', () => {
    const modes = Object.values(resolveConfig({}).modes);
    expect(resolveIntent('find all the TODO comments left in the repo', modes).mode).not.toBe('all');
  });
});
