import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { modeFit } from '../../src/focus/fit.js';
import { capability, nameWords } from '../../src/focus/words.js';
import { SearchIndex } from '../../src/search/engine.js';
import { stackSources } from '../harness/index.js';

// Priority signals of budget fitting on the captured 10-server developer stack.
const sources = await stackSources();
function project(rc: RcConfig = {}) {
  const config = resolveConfig(rc);
  return { config, catalog: buildCatalog(sources, config).catalog };
}
const ranked = (rc: RcConfig, mode: string) => {
  const { config, catalog } = project(rc);
  const fitted = modeFit(catalog, config, mode);
  if (!fitted) throw new Error(`no mode ${mode}`);
  return fitted;
};
const why = (fitted: ReturnType<typeof ranked>, id: string) => fitted.ranked.find((entry) => entry.tool.id === id)?.why.join('; ') ?? '';

describe('tool priority signals', () => {
  it('reads the verb of OpenAPI-style names and keeps a verb the server is named after', () => {
    expect(nameWords({ server: 'notion', name: 'API-post-search' })).toEqual(['search']);
    expect(nameWords({ server: 'notion', name: 'API-post-page' })).toEqual(['create', 'page']);
    expect(nameWords({ server: 'notion', name: 'API-patch-page' })).toEqual(['update', 'page']);
    expect(nameWords({ server: 'notion', name: 'API-get-users' })).toEqual(['get', 'users']);
    expect(nameWords({ server: 'brave-search', name: 'brave_web_search' })).toEqual(['web', 'search']);
    expect(nameWords({ server: 'tavily', name: 'tavily_search' })).toEqual(['search']);
    // What two servers' tools share when they do the same thing.
    expect(capability({ server: 'playwright', name: 'browser_navigate' })).toBe(capability({ server: 'chrome-devtools', name: 'navigate_page' }));
    expect(capability({ server: 'playwright', name: 'browser_take_screenshot' })).toBe(capability({ server: 'chrome-devtools', name: 'take_screenshot' }));
    expect(capability({ server: 'tavily', name: 'tavily_search' })).toBe(capability({ server: 'brave-search', name: 'brave_web_search' }));
  });

  it('shows Notion search where Notion is in a mode, before its user directory', () => {
    const fitted = ranked({}, 'research');
    expect(fitted.shownIds.has('notion:API-post-search')).toBe(true);
    const rank = (id: string) => fitted.ranked.findIndex((entry) => entry.tool.id === id);
    expect(rank('notion:API-post-search')).toBeGreaterThanOrEqual(0);
    expect(rank('notion:API-post-search')).toBeLessThan(rank('notion:API-get-users'));
    expect(why(fitted, 'notion:API-post-search')).toContain('entry point ("search")');
  });

  it('spends the budget on what no shown tool does yet: a twin of another server is held back and says why', () => {
    // At a budget below the preset's 8,000 (which shows more, twins still held back).
    const fitted = ranked({ modes: { development: { budget: 7000, fill: false } } }, 'development');
    expect(fitted.shownIds.has('tavily:tavily_search')).toBe(true);
    expect(fitted.shownIds.has('brave-search:brave_web_search')).toBe(false);
    expect(why(fitted, 'brave-search:brave_web_search')).toContain('does what tavily:tavily_search does');
    expect(fitted.shownIds.has('playwright:browser_navigate')).toBe(true);
    expect(why(fitted, 'chrome-devtools:navigate_page')).toContain('does what playwright:browser_navigate does');
    // A search of another kind (the wiki's) is no twin of the web search.
    expect(why(fitted, 'notion:API-post-search')).not.toContain('does what');
  });

  it('keeps the tools that create and update first in a write-leaning mode (rc lean)', () => {
    // A budget that holds a few of Notion's 24 tools (compact, they all fit the preset's 6,000).
    const writes = ranked({ modes: { task_management: { budget: 2500, fill: false } } }, 'task_management');
    for (const id of ['notion:API-post-page', 'notion:API-patch-page', 'notion:API-create-a-comment']) expect(writes.shownIds.has(id)).toBe(true);
    // The same mode told to lean on reading shows readers instead (at a budget that holds them and few more).
    const reads = ranked({ modes: { task_management: { budget: 2000, lean: 'read', fill: false } } }, 'task_management');
    expect(reads.shownIds.has('notion:API-post-page')).toBe(false);
    expect(reads.shownIds.has('notion:API-retrieve-a-page')).toBe(true);
    expect(why(reads, 'notion:API-post-page')).toContain('writes (read-leaning mode)');
  });

  it('ranks first what the mode\'s description and tasks name: debugging keeps the console and network requests', () => {
    const described = ranked({ modes: { debugging: { budget: 7000 } } }, 'debugging');
    for (const id of ['chrome-devtools:list_network_requests', 'chrome-devtools:list_console_messages', 'playwright:browser_network_requests']) expect(described.shownIds.has(id), id).toBe(true);
    expect(why(described, 'chrome-devtools:list_network_requests')).toContain('close to the mode\'s work ("network", "requests")');
    // The same mode and budget, described without them and with no tasks, holds them back.
    const plain = ranked({ modes: { debugging: { budget: 7000, description: 'Find and fix bugs', tasks: [] } } }, 'debugging');
    for (const id of ['chrome-devtools:list_network_requests', 'chrome-devtools:list_console_messages', 'playwright:browser_network_requests']) expect(plain.shownIds.has(id), id).toBe(false);
    expect(why(plain, 'chrome-devtools:list_network_requests')).not.toContain('close to');
  });

  it('weighs a word by how few modes name it: one every mode names says nothing', () => {
    // "network" named by every mode's description is no reason to show a tool first.
    const rc: RcConfig = { modes: Object.fromEntries(Object.keys(project().config.modes).map((name) => [name, { tasks: ['watch the network'] }])) };
    const fitted = ranked({ ...rc, modes: { ...rc.modes, debugging: { budget: 7000, description: 'Find and fix bugs', tasks: ['watch the network'] } } }, 'debugging');
    expect(why(fitted, 'chrome-devtools:list_network_requests')).not.toContain('close to');
  });

  it('counts a niche word as niche only where the mode does not name it', () => {
    const rc = (description: string) => ({ modes: { browser_testing: { description, tasks: [] } } });
    expect(why(ranked(rc('Test pages'), 'browser_testing'), 'chrome-devtools:performance_start_trace')).toContain('niche');
    const named = why(ranked(rc('Test pages: performance traces'), 'browser_testing'), 'chrome-devtools:performance_start_trace');
    expect(named).not.toContain('niche');
    expect(named).toContain('close to the mode\'s work ("performance", "trace")');
  });

  it('ranks a list before the get of one item its server also lists', () => {
    const fitted = ranked({}, 'debugging');
    const rank = (id: string) => fitted.ranked.findIndex((entry) => entry.tool.id === id);
    expect(rank('chrome-devtools:list_network_requests')).toBeLessThan(rank('chrome-devtools:get_network_request'));
    expect(why(fitted, 'chrome-devtools:get_network_request')).toContain('second step (its server lists network request first)');
  });

  it('gives a server a slot ahead of the others only for an entry point', () => {
    // brave-search's tools in debugging are a twin of Tavily's search or niche (images, news, places):
    // none of them takes a first slot, so no 1,000-token local search is shown (priority alone:
    // without fill, whose typical tasks would rank what they find).
    const fitted = ranked({ modes: { debugging: { fill: false } } }, 'debugging');
    for (const kind of ['local', 'web', 'image', 'news', 'video', 'place']) expect(fitted.shownIds.has(`brave-search:brave_${kind}_search`)).toBe(false);
    expect(fitted.shownIds.has('tavily:tavily_search')).toBe(true);
  });
});

describe('search for task phrasings', () => {
  it('puts the tools of a server the query names first', () => {
    const { catalog } = project();
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const hits = index.search("pull up last week's incident postmortem from Notion", { limit: 5 });
    expect(hits.map((hit) => hit.tool.server)).toEqual(['notion', 'notion', 'notion', 'notion', 'notion']);
  });

  it('knows developer words for network calls, slowness, a process output and pods', () => {
    const { catalog } = project();
    const index = new SearchIndex(catalog.tools, catalog.groups);
    const top = (query: string) => index.search(query, { limit: 5 }).map((hit) => hit.tool.id);
    for (const query of ['which API calls does the page make', 'what xhr requests does the checkout page send']) expect(top(query).some((id) => /network_requests?$/.test(id))).toBe(true);
    expect(top('the dev server seems hung, what did it print?')).toContain('desktop-commander:read_process_output');
    expect(top('which pods in prod run as root?').filter((id) => id.startsWith('kubernetes:')).length).toBeGreaterThanOrEqual(3);
  });
});
