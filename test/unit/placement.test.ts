import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { placedTopics, scoreTopics, type PlacementInput } from '../../src/catalog/placement.js';
import { writeStatus } from '../../src/catalog/read-only.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { statusReport } from '../../src/tokens/report.js';
import { modeFit } from '../../src/focus/fit.js';
import { compileGlob, type Glob } from '../../src/util/glob.js';
import { CATALOGS } from '../harness/index.js';

const tool = (name: string, description = '', extra: Partial<PlacementInput> = {}): PlacementInput => ({ server: 'x', name, description, ...extra });
const topics = (input: PlacementInput) => placedTopics(scoreTopics(input)).map((s) => s.topic);

describe('writeStatus: read-only only with evidence', () => {
  it('trusts readOnlyHint first, then destructiveHint', () => {
    expect(writeStatus(tool('delete_everything', '', { annotations: { readOnlyHint: true } }))).toMatchObject({ readOnly: true, reason: 'readOnlyHint: true' });
    expect(writeStatus(tool('list_things', '', { annotations: { readOnlyHint: false } }))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('list_things', '', { annotations: { destructiveHint: true } }))).toMatchObject({ readOnly: false, kind: 'write' });
  });

  it.each([
    ['create_issue', ''],
    ['slack_post_message', 'Post a new message'],
    ['git_push', ''],
    ['run_query', ''],
    ['exec_in_pod', ''],
    ['drop_table', ''],
    ['get_or_create_user', ''],
    ['notes', 'Creates a note in the vault'],
    ['issue', 'Updates the issue title'],
    ['get_page', 'Fetches a page and sends a notification to its owner'],
  ])('%s (%s) writes', (name, description) => {
    expect(writeStatus(tool(name, description))).toMatchObject({ readOnly: false, kind: 'write' });
  });

  it.each([
    ['list_channels', 'List public channels'],
    ['get_issue', 'Get an issue by id'],
    ['search_docs', ''],
    ['query', 'Run a read-only SQL query'],
    ['issues', 'Returns the issues assigned to you'],
  ])('%s (%s) reads', (name, description) => {
    expect(writeStatus(tool(name, description))).toMatchObject({ readOnly: true, kind: 'read' });
  });

  it('writes when its description joins a write to its read ("Get or add comments") or an argument picks a write', () => {
    expect(writeStatus(tool('comments', 'Get or add comments on an issue.'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'description verb "add" ("get or add")' });
    expect(writeStatus(tool('list_pages', 'List and create pages'))).toMatchObject({ readOnly: false, kind: 'write' });
    const action = { inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['get', 'add'] }, id: { type: 'string' } } } };
    expect(writeStatus(tool('get_comments', 'Fetch comments', action))).toMatchObject({ readOnly: false, kind: 'write', reason: 'argument "action" may be "add"' });
    // Enums of states or sort keys are no actions; reading verbs alone stay reads.
    const state = { inputSchema: { type: 'object', properties: { state: { enum: ['open', 'closed'] }, view: { enum: ['get', 'list'] } } } };
    expect(writeStatus(tool('list_issues', 'List issues or pull requests', state))).toMatchObject({ readOnly: true, kind: 'read' });
  });

  it('reads a search sent by HTTP POST (OpenAPI-generated "API-post-search", marked destructive by method), not a POST that creates', () => {
    const destructive = { annotations: { destructiveHint: true } };
    expect(writeStatus(tool('API-post-search', 'Notion | Search by title', destructive))).toMatchObject({ readOnly: true, kind: 'read' });
    expect(writeStatus(tool('post_query', 'Query a data source', destructive))).toMatchObject({ readOnly: true, kind: 'read' });
    expect(writeStatus(tool('API-post-page', 'Notion | Create a page', destructive))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('API-post-search', 'Search, and deletes the pages it finds', destructive))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('post_search_and_delete', '', destructive))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('search_posts', '', destructive))).toMatchObject({ readOnly: false, kind: 'write' });
  });

  it('reads the verbs of a description in Chinese or Japanese when nothing English tells', () => {
    expect(writeStatus(tool('map_weather', '通过经纬度坐标获取实时天气信息'))).toMatchObject({ readOnly: true, kind: 'read', reason: 'description verb "获取"' });
    expect(writeStatus(tool('kabuka', '銘柄コードで株価を検索します'))).toMatchObject({ readOnly: true, kind: 'read' });
    // Any write verb wins, wherever it stands: "recommends dishes and creates a meal plan" writes.
    expect(writeStatus(tool('recommend_meals', '根据人数推荐菜谱，创建一周的膳食计划'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'description says "创建"' });
    expect(writeStatus(tool('chumon', '商品を注文します'))).toMatchObject({ readOnly: false, kind: 'write' });
    // English evidence comes first; CJK text with neither verb stays unknown.
    expect(writeStatus(tool('delete_record', '获取记录'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'name verb "delete"' });
    expect(writeStatus(tool('map_geocode', '地理编码服务'))).toMatchObject({ readOnly: false, kind: 'unknown' });
  });

  it('reads the verbs of a name or description in French, German, Spanish, Portuguese, Italian or Russian when nothing English tells', () => {
    expect(writeStatus(tool('wetter', 'Gibt den Wetterbericht für eine Stadt zurück'))).toMatchObject({ readOnly: true, kind: 'read', reason: 'description verb "gibt"' });
    expect(writeStatus(tool('currency_rate', 'Возвращает текущий курс валюты к рублю.'))).toMatchObject({ readOnly: true, kind: 'read' });
    expect(writeStatus(tool('buscar_vuelos', 'Vuelos entre dos ciudades'))).toMatchObject({ readOnly: true, kind: 'read', reason: 'name verb "buscar"' });
    // Accents folded both sides; any write verb wins, wherever it stands.
    expect(writeStatus(tool('facture', 'Crée une facture détaillée pour un client'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'description verb "cree"' });
    expect(writeStatus(tool('rechnung', 'Sucht die Rechnung und löscht sie'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'description verb "loscht"' });
    expect(writeStatus(tool('zakaz', 'Создаёт новый заказ'))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('prenotazione', 'Prenota un tavolo al ristorante'))).toMatchObject({ readOnly: false, kind: 'write' });
    expect(writeStatus(tool('créer_facture', 'Une facture pour un client'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'name verb "creer"' });
    // English evidence comes first; a noun phrase with no verb stays unknown.
    expect(writeStatus(tool('delete_facture', 'Affiche la facture'))).toMatchObject({ readOnly: false, kind: 'write', reason: 'name verb "delete"' });
    expect(writeStatus(tool('meteo', 'Prévisions météo pour une ville.'))).toMatchObject({ readOnly: false, kind: 'unknown' });
  });

  it('leaves a tool whose write status cannot be told out of read-only modes', () => {
    expect(writeStatus(tool('jira', 'Jira resources'))).toMatchObject({ readOnly: false, kind: 'unknown' });
    expect(writeStatus(tool('browser_tabs', ''))).toMatchObject({ readOnly: false, kind: 'unknown' });
  });
});

describe('scoreTopics: placement from what a tool is', () => {
  it('places by server, name, description and schema fields, with the evidence as the reason', () => {
    const [best] = scoreTopics(tool('take_screenshot', 'Take a screenshot of the current page', { server: 'playwright', inputSchema: { properties: { selector: {} } } }));
    expect(best?.topic).toBe('browser');
    expect(best?.reason).toContain('name "screenshot"');
    expect(best?.reason).toContain('server "playwright"');
    expect(best?.reason).toContain('field "selector"');
  });

  it.each([
    ['get_pod_logs', 'Fetch logs of a pod', 'containers'],
    ['list_events', 'List events on the primary calendar', 'calendar'],
    ['send_message', 'Send a message to a Slack channel', 'messaging'],
    ['search_issues', 'Search tickets in the backlog', 'tracker'],
    ['run_sql', 'Execute SQL against the database', 'databases'],
    ['get_vulnerabilities', 'List CVEs affecting a package version', 'security'],
    ['render_diagram', 'Render a Mermaid flowchart', 'diagrams'],
    ['get_current_time', 'Current time in a time zone', 'time'],
    ['query_metrics', 'Query time series metrics with PromQL', 'observability'],
    ['git_log', 'Show the commit log of the working tree', 'git'],
  ])('%s: %s -> %s', (name, description, topic) => {
    expect(topics(tool(name, description))).toContain(topic);
  });

  it('keeps generic tools out of every topic', () => {
    expect(topics(tool('echo', 'Echoes back the input'))).toEqual([]);
    expect(topics(tool('get_version', 'Version of this build'))).toEqual([]);
  });

  it('places maps, weather and markets by their own words, not by map, route or stock alone', () => {
    expect(topics(tool('get_weather', 'Weather forecast for a city'))).toEqual(['places']);
    expect(topics(tool('reverse_geocode', 'Address at a latitude and longitude'))).toEqual(['places']);
    expect(topics(tool('get_kline', 'Daily OHLC candles of a ticker'))).toEqual(['markets']);
    // A sitemap, an API route, a store's stock and a date in the future are none of them.
    expect(topics(tool('crawl_map', 'Map the URLs of a website'))).not.toContain('places');
    expect(topics(tool('route_create', 'Create a route for a worker script'))).not.toContain('places');
    expect(topics(tool('low_stock_report', 'Products whose stock is low'))).not.toContain('markets');
    expect(topics(tool('schedule_send', 'Send the email at a future time'))).not.toContain('markets');
  });

  it('places a search engine\'s results and keyword research on the web, not Google\'s other products', () => {
    expect(topics(tool('search', 'Search Google for a query'))).toContain('web');
    expect(topics(tool('news', 'Get Google News results for a query'))).toContain('web');
    expect(topics(tool('keywords', 'Organic keywords for a site, with search volume'))).toContain('web');
    expect(topics(tool('links', 'List the backlinks pointing at a site'))).toContain('web');
    expect(topics(tool('list_files', 'List files in Google Drive'))).not.toContain('web');
  });

  it('reads "GitHub" in prose as one word, so a hosted repository tool is not local git', () => {
    expect(topics(tool('list_releases', 'List releases in a GitHub repository', { inputSchema: { properties: { owner: {}, repo: {} } } }))).not.toContain('git');
  });
});

describe('rc groups with topics', () => {
  it('a group by topic collects tools of any server, with a reason per placement', () => {
    const config = resolveConfig({ groups: { ops: { topics: ['observability'], readOnly: true } }, modes: { ops: { groups: ['ops'] } } });
    const { catalog } = buildCatalog(
      [
        { server: 'acme', tools: [{ name: 'get_error_events', description: 'Error events with stack traces', inputSchema: { type: 'object' } }] },
        { server: 'other', tools: [{ name: 'delete_alert_rule', description: 'Delete an alert rule', inputSchema: { type: 'object' } }] },
      ],
      config,
    );
    const events = catalog.byId.get('acme:get_error_events');
    expect(events?.groups).toContain('ops');
    expect(events?.placements.find((p) => p.group === 'ops')?.reason).toMatch(/^topic observability [\d.]+ \(/);
    expect(catalog.byId.get('other:delete_alert_rule')?.groups).not.toContain('ops');
  });

  it('rejects an unknown topic with its key path', () => {
    expect(() => parseConfig({ groups: { x: { topics: ['obsrvability'] } } }, '/p/.lazytoolsrc.json')).toThrow(/groups\.x\.topics\[0\]/);
  });
});

/** Hand labels: which preset modes each tool of the real-world catalog belongs in (see README). */
interface Labels {
  modes: Map<string, Set<string>>;
  writes: Set<string>;
}

const CODES: Record<string, string> = { V: 'development', D: 'debugging', C: 'code_review', K: 'daily_checkin', S: 'security_review', P: 'sprint_planning', T: 'task_management' };
const LABELLED_MODES = Object.values(CODES);

/** Parses `real-world.labels.txt`: `server:tool CODES`; an exact id wins over globs, a later glob over an earlier one. */
function readLabels(file: string, ids: readonly string[]): Labels {
  const exact = new Map<string, string>();
  const globs: Array<[Glob, string]> = [];
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [pattern = '', codes = ''] = line.split(/\s+/);
    if (pattern.includes('*')) globs.push([compileGlob(pattern), codes]);
    else exact.set(pattern, codes);
  }
  const modes = new Map<string, Set<string>>();
  const writes = new Set<string>();
  for (const id of ids) {
    let codes = exact.get(id);
    if (codes === undefined) for (const [glob, value] of globs) if (glob.test(id)) codes = value;
    if (codes === undefined) throw new Error(`no label for ${id}`);
    for (const code of codes) if (code === '!') writes.add(id);
    modes.set(id, new Set([...codes].filter((code) => CODES[code]).map((code) => CODES[code] as string)));
  }
  return { modes, writes };
}

describe('real-world catalog: preset modes against hand labels', async () => {
  const sources = await readCatalogFile(path.join(CATALOGS, 'real-world.json'));
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const labels = readLabels(path.join(CATALOGS, 'real-world.labels.txt'), catalog.tools.map((t) => t.id));
  const report = statusReport(catalog, config);

  // Placement decides what a mode holds (shown or held back by its budget): both count here. Tools
  // rc `fill` adds by closeness to the mode's work are measured on task sets (bench/stacks.mjs), not
  // against these labels: they are the mode's spare room, not where its groups place a tool.
  const members = (m: (typeof report.modes)[number]) => {
    const filled = modeFit(catalog, config, m.name)?.filledIds;
    return [...m.toolIds, ...m.heldBack.map((tool) => tool.id)].filter((id) => !filled?.has(id));
  };
  const scores = LABELLED_MODES.map((mode) => {
    const found = report.modes.find((m) => m.name === mode);
    const placed = new Set(found ? members(found) : []);
    const wanted = new Set([...labels.modes].filter(([, set]) => set.has(mode)).map(([id]) => id));
    const hits = [...placed].filter((id) => wanted.has(id)).length;
    return {
      mode,
      placed: placed.size,
      wanted: wanted.size,
      precision: placed.size === 0 ? 1 : hits / placed.size,
      recall: wanted.size === 0 ? 1 : hits / wanted.size,
      extra: [...placed].filter((id) => !wanted.has(id)),
      missing: [...wanted].filter((id) => !placed.has(id)),
    };
  });

  // The figures themselves: bench/placement-quality.mjs (BENCHMARKS.md, Placement).
  it('every mode reaches its floor of precision and recall', () => {
    for (const s of scores) {
      expect(s.precision, `${s.mode} precision; not labelled: ${s.extra.join(', ')}`).toBeGreaterThanOrEqual(0.85);
      expect(s.recall, `${s.mode} recall; missing: ${s.missing.join(', ')}`).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('puts no writing tool in a read-only mode', () => {
    for (const mode of report.modes.filter((m) => config.modes[m.name]?.readOnly)) {
      for (const id of mode.toolIds) {
        const entry = catalog.byId.get(id);
        expect(labels.writes.has(id), `${mode.name}: ${id} writes`).toBe(false);
        expect(entry?.definition.annotations?.readOnlyHint === false, `${mode.name}: ${id}`).toBe(false);
        // destructiveHint only on a search sent by HTTP POST (API-post-search), whose hint follows the method.
        if (entry?.definition.annotations?.destructiveHint === true) expect(entry && writeStatus({ ...entry.definition, server: entry.server }).reason, `${mode.name}: ${id}`).toContain('HTTP POST');
      }
    }
  });

  it('places developer tools in a fitting mode, and few tools where they do not fit (micro precision)', () => {
    const relevant = [...labels.modes].filter(([, set]) => set.size > 0);
    const fitting = relevant.filter(([id, set]) => report.modes.some((m) => set.has(m.name) && members(m).includes(id)));
    const placements = report.modes.filter((m) => LABELLED_MODES.includes(m.name)).flatMap((m) => members(m).map((id) => labels.modes.get(id)?.has(m.name) === true));
    const micro = placements.filter(Boolean).length / placements.length;
    expect(fitting.length / relevant.length).toBeGreaterThanOrEqual(0.85);
    expect(micro).toBeGreaterThanOrEqual(0.85);
  });
});

describe('real-world catalog: token snapshot and budgets', async () => {
  const sources = await readCatalogFile(path.join(CATALOGS, 'real-world.json'));
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const report = statusReport(catalog, config);

  it.each(report.modes.map((m) => m.name))('%s matches its snapshot of tool ids, tokens and budget', async (name) => {
    const mode = report.modes.find((m) => m.name === name);
    if (!mode) throw new Error(`no mode ${name}`);
    const { tools, tokens, budget, withinBudget, reduction, toolIds, heldBackTokens } = mode;
    const heldBack = mode.heldBack.length;
    const snapshot = `${JSON.stringify({ mode: name, tools, tokens, reduction, budget, withinBudget, heldBack, heldBackTokens, toolIds }, null, 2)}\n`;
    await expect(snapshot).toMatchFileSnapshot(`./__toolsnaps__/real-world/${name}.json`);
  });
});
