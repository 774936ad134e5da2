import { describe, expect, it } from 'vitest';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { closestGroups } from '../../src/catalog/closest-groups.js';
import { mergeCatalogs, parseCatalog } from '../../src/catalog/file.js';
import { MAX_SERVER_TOOLS } from '../../src/catalog/admit.js';
import { summarize, words } from '../../src/catalog/text.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { countToolTokens } from '../../src/util/tokens.js';
import { ConfigError } from '../../src/util/errors.js';
import { statusReport } from '../../src/tokens/report.js';
import { visibleTools } from '../../src/focus/visible.js';
import { initialFocus } from '../../src/focus/state.js';
import { referenceProject, referenceSources } from '../harness/index.js';

const tool = (name: string, description?: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  ...(description === undefined ? {} : { description }),
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

describe('closest groups of an unplaced tool', () => {
  const groups = [
    { name: 'history', config: { topics: ['changes'], readOnly: true } },
    { name: 'tasks', config: { topics: ['tracker'] } },
  ];
  const topics = [
    { topic: 'changes', score: 7, reason: 'name "commit"' },
    { topic: 'tracker', score: 2.25, reason: 'name "status"' },
  ];

  it('says when the closest group takes only read-only tools and the tool may write', () => {
    expect(closestGroups(groups)({ topics, readOnly: false })).toEqual(['history 7 (read-only group)', 'tasks 2.25']);
    expect(closestGroups(groups, true)({ topics, readOnly: false })).toEqual(['history 7 (name "commit", read-only group: this tool may write)', 'tasks 2.25 (name "status")']);
    expect(closestGroups(groups)({ topics, readOnly: true })).toEqual(['history 7', 'tasks 2.25']);
  });
});

describe('summaries', () => {
  it('takes the first sentence', () => {
    expect(summarize('Read a file. Then more text.', 'x')).toBe('Read a file.');
  });
  it('cuts long sentences at a word, within 80 characters', () => {
    const long = 'Get the contents of a file or directory from a GitHub repository including every branch and tag there is';
    const summary = summarize(long, 'x');
    expect(summary.length).toBeLessThanOrEqual(80);
    expect(summary.endsWith('…')).toBe(true);
    expect(long.startsWith(summary.slice(0, -1))).toBe(true);
    expect(long[summary.length - 1]).toBe(' ');
  });
  it('of a tool without a description take its title with no terminal escapes, and never half a code point', () => {
    // `lazytools search` prints summaries as they are: an upstream's title cleared the screen and wrote the clipboard.
    const built = buildCatalog([{ server: 's', tools: [tool('t', undefined, { title: '\u001b]52;c;aGk=\u0007Evil\u001b[2J title' })] }], resolveConfig({}));
    expect(built.catalog.tools[0]?.summary).toBe(' ]52;c;aGk= Evil [2J title');
    expect(summarize(undefined, `${'x'.repeat(79)}😀`)).toBe('x'.repeat(79));
    expect(summarize(`${'x'.repeat(78)}😀 and more words after it`, 'x')).toBe(`${'x'.repeat(78)}…`);
  });
  it('drops markdown emphasis and line breaks', () => {
    expect(summarize('**Strongly recommended**: tools\nfor context', 'x')).toBe('Strongly recommended: tools for context');
  });
  it('summarizes a long description as its whole text would, whatever straddles the part it reads', () => {
    // The rule on the whole text, as written before summarize read only a long description's start.
    const whole = (description: string) => {
      const text = description.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
      const end = text.search(/[.!?](\s|$)/);
      const sentence = end >= 0 ? text.slice(0, end + 1) : text;
      return sentence.length <= 80 ? sentence : summarize(sentence.slice(0, 100), 'x');
    };
    const fillers = ['**', '__', '`', ' ', '\n\n  ', '. ', '!', 'word '];
    for (let at = 470; at < 530; at++)
      for (const filler of fillers)
        for (const lead of ['', '   ', '** ', `${'x'.repeat(30)}. `, `${'y '.repeat(200)}`, `${'z'.repeat(500)} `]) {
          const description = `${lead}${'a '.repeat(Math.max(0, (at - lead.length) / 2))}`.slice(0, at) + filler.repeat(3) + ' tail. More text.'.repeat(40);
          expect(summarize(description, 'x')).toBe(whole(description));
        }
  });
  it('falls back to the title or name', () => {
    expect(summarize(undefined, 'get_me')).toBe('get_me');
    expect(summarize('   ', 'Title')).toBe('Title');
  });
  it('keeps every summary of the reference catalogs within 80 characters', async () => {
    const { catalog } = await referenceProject();
    for (const t of catalog.tools) expect(t.summary.length, t.id).toBeLessThanOrEqual(80);
  });
  it('uses a summary set in the rc', () => {
    const { catalog } = buildCatalog([{ server: 's', tools: [tool('a', 'Long text.')] }], resolveConfig({ tools: { 's:a': { summary: 'Mine' } } }));
    expect(catalog.byId.get('s:a')?.summary).toBe('Mine');
  });
});

describe('names and words', () => {
  it('splits snake, kebab, camel and dotted names', () => {
    expect(words('list_pull-requests.getHTTPStatus')).toEqual(['list', 'pull', 'requests', 'get', 'http', 'status']);
  });
  it('prefixes only colliding names with their server', () => {
    const { catalog } = buildCatalog(
      [
        { server: 'b', tools: [tool('search'), tool('only_b')] },
        { server: 'a', tools: [tool('search')] },
      ],
      resolveConfig({}),
    );
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['a_search', 'only_b', 'b_search']);
    expect(catalog.byName.get('a_search')?.definition.name).toBe('a_search');
    expect(catalog.byName.get('only_b')?.id).toBe('b:only_b');
  });
  it('prefixes every name with prefix: always', () => {
    const { catalog } = buildCatalog([{ server: 's', tools: [tool('x')] }], resolveConfig({ prefix: 'always' }));
    expect(catalog.tools[0]?.exposedName).toBe('s_x');
  });
  it('never exposes a prefixed name that is one of lazytools\' own tools (server "focus", tool "mode")', () => {
    const sources = [
      { server: 'focus', tools: [tool('mode'), tool('timer')] },
      { server: 'search', tools: [tool('tools')] },
      { server: 'other', tools: [tool('mode')] },
    ];
    for (const prefix of ['always', 'auto'] as const) {
      const { catalog, leftOut } = buildCatalog(sources, resolveConfig({ prefix }));
      // They were listed as "focus_mode" (auto: "mode" collides with other:mode) and "search_tools".
      expect(catalog.tools.map((t) => t.exposedName), prefix).not.toContain('focus_mode');
      expect(catalog.byId.has('focus:timer')).toBe(true);
      expect(leftOut).toContain('tool "focus:mode" left out: its exposed name "focus_mode" is one of lazytools\' own tools; rename server "focus" in the rc to list it');
    }
    expect(buildCatalog(sources, resolveConfig({ prefix: 'always' })).catalog.tools.map((t) => t.exposedName)).toEqual(['focus_timer', 'other_mode']);
  });

  it('sorts tools by server then name and drops duplicate names within a server', () => {
    const { catalog, leftOut } = buildCatalog([{ server: 's', tools: [tool('b'), tool('a'), tool('b')] }], resolveConfig({}));
    expect(catalog.tools.map((t) => t.id)).toEqual(['s:a', 's:b']);
    // A repeat within one server is no collision: no other server has the name, so it stays unprefixed.
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['a', 'b']);
    expect(leftOut).toContain('tool "s:b" is listed twice by its server: the first definition is kept');
  });
});

describe('groups', () => {
  it('applies servers, tools or keywords, readOnly and exclude in order', () => {
    const config = resolveConfig({
      groups: {
        reads: { servers: ['s*'], keywords: ['fetch'], tools: ['*:list_*'], readOnly: true, exclude: ['s1:list_secret'] },
        nothing: { tools: [] },
        everything: {},
      },
    });
    const ro = { annotations: { readOnlyHint: true } };
    const { catalog } = buildCatalog(
      [
        { server: 's1', tools: [tool('list_a', 'x', ro), tool('list_secret', 'x', ro), tool('get_b', 'Fetch one.', ro), tool('list_w', 'x', { annotations: { readOnlyHint: false } }), tool('other', 'x', ro)] },
        { server: 'other', tools: [tool('list_z', 'x', ro)] },
      ],
      config,
    );
    expect(catalog.groups.get('reads')?.tools.map((t) => t.id)).toEqual(['s1:get_b', 's1:list_a']);
    expect(catalog.groups.get('nothing')?.tools).toEqual([]);
    expect(catalog.groups.get('everything')?.tools).toHaveLength(6);
  });
  it('matches keywords at word starts only', () => {
    const config = resolveConfig({ groups: { notes: { keywords: ['note'] } } });
    const { catalog } = buildCatalog([{ server: 's', tools: [tool('a', 'Add notes.'), tool('b', 'Denote a thing.')] }], config);
    expect(catalog.groups.get('notes')?.tools.map((t) => t.name)).toEqual(['a']);
  });
  it('warns about tools no group matches and used groups that match nothing', () => {
    const config = resolveConfig({ groups: { mine: { tools: ['nothing_*'] } } });
    const { warnings } = buildCatalog([{ server: 's', tools: [tool('zzz_unmatched', 'Nothing like it.')] }], config);
    expect(warnings[0]).toContain('s:zzz_unmatched');
    expect(warnings[1]).toBe('group(s) matching no tool: mine');
  });
  it('groups every reference tool', async () => {
    const { warnings, catalog } = await referenceProject();
    expect(catalog.tools).toHaveLength(154);
    expect(warnings.filter((w) => w.includes('match no group'))).toEqual([]);
  });
});

describe('catalog files', () => {
  it('names the key path that does not fit: a bad shape fails, a bad tool is dropped with one warning each', () => {
    expect(() => parseCatalog({ tools: [] }, 'cat.json')).toThrow(ConfigError);
    const warnings: string[] = [];
    const good = { name: 'ok', inputSchema: { type: 'object' } };
    const bad = [{ name: 'x' }, { name: 5, inputSchema: {} }, { name: 'd', description: 5, inputSchema: {} }, { name: 't', title: {}, inputSchema: {} }, { name: 'a', annotations: 'x', inputSchema: {} }, { name: 'h', annotations: { readOnlyHint: 'yes' }, inputSchema: {} }, 7];
    const parsed = parseCatalog({ servers: { s: { tools: [good, ...bad] } } }, 'cat.json', warnings);
    expect(parsed[0]?.tools.map((tool) => tool.name)).toEqual(['ok']);
    expect(warnings).toHaveLength(bad.length);
    expect(warnings[0]).toBe('cat.json: servers.s.tools[1].inputSchema ("x"): expected an object; the tool is left out');
    expect(warnings[2]).toMatch(/\.description \("d"\): expected a string/);
    expect(warnings[bad.length - 1]).toBe('cat.json: servers.s.tools[7]: expected a tool definition object; the tool is left out');
  });

  it('warns about the first 20 left-out tools of a file and counts the rest (a truncated lock of 100,000 bad entries)', () => {
    const warnings: string[] = [];
    const parsed = parseCatalog({ servers: { s: { tools: [{ name: 'ok', inputSchema: { type: 'object' } }, ...Array.from({ length: 100_000 }, () => ({}))] } } }, 'lock.json', warnings);
    expect(parsed[0]?.tools.map((tool) => tool.name)).toEqual(['ok']);
    // It printed one line per entry: 600 KB of `{}` made 19.7 MB of warnings. Past a server's
    // MAX_SERVER_TOOLS entries none is read (one line says so).
    expect(warnings).toHaveLength(22);
    expect(warnings[0]).toBe(`lock.json: servers.s.tools: 100001 tools, more than ${MAX_SERVER_TOOLS}: only the first ${MAX_SERVER_TOOLS} are kept`);
    expect(warnings[1]).toBe('lock.json: servers.s.tools[1].name: expected a non-empty string; the tool is left out');
    expect(warnings[21]).toBe(`… and ${MAX_SERVER_TOOLS - 21} more tools left out of lock.json`);
  });

  it(`keeps a server's first ${MAX_SERVER_TOOLS} tools of a lock, as of a live upstream`, () => {
    // A lock of a million tools of one server held every start and check for minutes, as an upstream listing them did.
    const warnings: string[] = [];
    const tools = Array.from({ length: MAX_SERVER_TOOLS + 500 }, (_, index) => ({ name: `t${index}`, inputSchema: { type: 'object' } }));
    const parsed = parseCatalog({ servers: { s: { tools }, small: { tools: tools.slice(0, 3) } } }, 'lock.json', warnings);
    expect(parsed.map((entry) => entry.tools.length)).toEqual([MAX_SERVER_TOOLS, 3]);
    expect(parsed[0]?.tools.at(-1)?.name).toBe(`t${MAX_SERVER_TOOLS - 1}`);
    expect(warnings).toEqual([`lock.json: servers.s.tools: ${MAX_SERVER_TOOLS + 500} tools, more than ${MAX_SERVER_TOOLS}: only the first ${MAX_SERVER_TOOLS} are kept`]);
  });

  it('warns about the first 20 repeats of one tool and counts the rest', () => {
    const { catalog, leftOut } = buildCatalog([{ server: 's', tools: Array.from({ length: 10_000 }, () => tool('dup')) }], resolveConfig({}));
    expect(catalog.tools.map((t) => t.id)).toEqual(['s:dup']);
    const repeats = leftOut.filter((w) => w.includes('"s:dup" is listed twice'));
    expect(repeats).toHaveLength(20);
    expect(leftOut).toContain('… and 9979 more tools listed twice or named like another tool');
  });

  it('says whole what a field was expected to be, though it holds ": "', () => {
    const warnings: string[] = [];
    parseCatalog({ servers: { s: { tools: [{ name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'always' } }] } } }, 'lock.json', warnings);
    // It read 'expected { taskSupport?; the tool is left out'.
    expect(warnings).toEqual(['lock.json: servers.s.tools[0].execution ("t"): expected { taskSupport?: "required" | "optional" | "forbidden" }; the tool is left out']);
  });
});

describe('tokens', () => {
  it('counts o200k over name, description and input_schema (GitHub: 25,101)', async () => {
    const { catalog } = await referenceProject({ definitions: 'verbatim' });
    const github = catalog.tools.filter((t) => t.server === 'github').reduce((sum, t) => sum + t.tokens, 0);
    expect(github).toBe(25_101);
    expect(catalog.totalTokens).toBe(25_101 + 1_650 + 891 + 1_075 + 862);
    expect(catalog.tools.every((t) => t.listed === t.definition)).toBe(true);
  });
  it('counts what clients list: the compact definitions by default, against the verbatim total', async () => {
    const sources = await referenceSources();
    const { catalog } = buildCatalog(sources, resolveConfig({}));
    const listed = catalog.tools.reduce((sum, t) => sum + t.tokens, 0);
    expect(listed).toBe(catalog.tools.reduce((sum, t) => sum + countToolTokens(t.listed), 0));
    expect(listed).toBeLessThan(catalog.totalTokens * 0.9);
    // The verbatim total stays the baseline: what listing every tool directly costs.
    expect(catalog.totalTokens).toBe(25_101 + 1_650 + 891 + 1_075 + 862);
    const compacted = catalog.tools.find((t) => (t.definition.description?.length ?? 0) > 1_000);
    expect(compacted?.listed.description?.length).toBeLessThanOrEqual(300);
    // The same object on a rebuild over the same definitions (sessions compare lists by identity).
    const again = buildCatalog(sources, resolveConfig({})).catalog.byId.get(compacted?.id ?? '');
    expect(again?.listed).toBe(compacted?.listed);
  });
  it('estimates the verbatim total past 1,000 compacted tools from an even sample, within 1%', () => {
    const long = (i: number) => `Reads record ${i} of the ledger.\n\n${'Every field of the record is described here at length, with its history and caveats. '.repeat(4 + (i % 9))}`;
    const many = Array.from({ length: 2_400 }, (_, i) => tool(`read_record_${i}`, long(i)));
    const { catalog } = buildCatalog([{ server: 'ledger', tools: many }], resolveConfig({}));
    expect(catalog.tools.every((t) => t.listed !== t.definition)).toBe(true);
    const exact = catalog.tools.reduce((sum, t) => sum + countToolTokens(t.definition), 0);
    expect(Math.abs(catalog.totalTokens - exact) / exact).toBeLessThan(0.01);
    expect(catalog.totalTokens).toBeGreaterThan(1.5 * catalog.tools.reduce((sum, t) => sum + t.tokens, 0));
  });
  it('counts by content (the cache key), not by object', () => {
    const a = tool('cache_probe', 'A description that is only used here.');
    const first = countToolTokens(a);
    expect(countToolTokens({ ...a })).toBe(first);
    expect(countToolTokens({ ...a, description: 'A description that is only used here, and now a longer one.' })).toBeGreaterThan(first);
  });
});

describe('pins and alwaysVisible that match no tool', () => {
  const sources = [{ server: 'gitlab', tools: [tool('get_project', 'Get a project.'), tool('list_merge_requests', 'List merge requests.')] }, { server: 'later', tools: [] }];
  const servers = { gitlab: { command: 'x' }, later: { command: 'y' } };

  it('are warned about with the closest ids: a typo would otherwise pin nothing silently', () => {
    const config = resolveConfig({ servers, alwaysVisible: ['gitlab:get_projet', 'gitlab:get_*'], modes: { development: { pin: ['gitlab:list_merge_request', 'gitlab:list_*'] } } });
    const { warnings } = buildCatalog(sources, config);
    expect(warnings).toContain('alwaysVisible "gitlab:get_projet" matches no tool, so it shows nothing. Did you mean "gitlab:get_project"?');
    expect(warnings).toContain('modes.development.pin "gitlab:list_merge_request" matches no tool, so it pins nothing. Did you mean "gitlab:list_merge_requests"?');
    expect(warnings.filter((w) => w.includes('matches no tool'))).toHaveLength(2);
  });

  it('stay bounded, as do unknown "tools" keys: the first 20 with hints, the rest counted, names cut', () => {
    const many = Array.from({ length: 1_000 }, (_, i) => tool(`get_thing_${i}`, 'Get a thing.'));
    const tools = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`gitlab:fetch_other_${i}`, { summary: 'x' }]));
    const long = `gitlab:${'a'.repeat(100_000)}`;
    const config = resolveConfig({ servers, tools: { ...tools, [long]: { summary: 'y' } }, alwaysVisible: [long, ...Array.from({ length: 50 }, (_, i) => `gitlab:nothing_${i}`)] });
    const started = performance.now();
    const { warnings } = buildCatalog([{ server: 'gitlab', tools: many }], config);
    // Before: 2,001 lines (one of 100 KB) and seconds of "did you mean" over every tool id.
    expect(performance.now() - started).toBeLessThan(3_000);
    const keys = warnings.filter((w) => w.startsWith('tools.'));
    expect(keys).toHaveLength(20);
    expect(warnings).toContain('… and 1981 more "tools" keys that name no tool in the catalog');
    expect(warnings.filter((w) => w.includes('matches no tool'))).toHaveLength(20);
    expect(warnings).toContain('… and 31 more alwaysVisible or pin globs that show or pin nothing');
    expect(Math.max(...warnings.map((w) => w.length))).toBeLessThan(2_000);
  });

  // adv29: each wildcard glob was tested against every tool at each catalog build: 220,000 globs
  // of a 3 MB rc over 117 tools took `check` 9 s (and serve as long per upstream start).
  it('wildcard globs are judged within 2,000,000 glob-by-tool tests; the rest are counted in one line, exact ids still looked up', () => {
    const many = Array.from({ length: 1_000 }, (_, i) => tool(`get_thing_${i}`, 'Get a thing.'));
    const globs = Array.from({ length: 3_000 }, (_, i) => `gitlab:none_${i}*`);
    const config = resolveConfig({ servers, alwaysVisible: [...globs, 'gitlab:get_thinh_7'], modes: { development: { pin: ['gitlab:get_thing_*'] } } });
    const { warnings } = buildCatalog([{ server: 'gitlab', tools: many }], config);
    expect(warnings).toContain('1001 alwaysVisible or pin glob(s) with wildcards not checked for matching no tool: past 2,000,000 glob-by-tool tests');
    expect(warnings).toContain('… and 1981 more alwaysVisible or pin globs that show or pin nothing');
    expect(warnings.filter((w) => w.includes('matches no tool'))).toHaveLength(20);
  });

  // Each id was tested against every glob, at each fit and list: 50,000 ids over 3,000 tools made
  // `check` take 193 s (a catalog build and a status of every mode).
  it('50,000 alwaysVisible ids over 3,000 tools: the catalog and a status of every mode within the test limit, the same tools shown', { timeout: 20_000 }, () => {
    const many = Array.from({ length: 3_000 }, (_, i) => tool(`get_thing_${i}`, 'Get a thing.'));
    const ids = Array.from({ length: 50_000 }, (_, i) => `gitlab:nothing_${i}`);
    // A real id in another case, and globs with a wildcard, among them.
    // No fill: the mode shows what the globs show (its tasks' words would add a tool named for a number they say).
    const config = resolveConfig({ servers, modes: { analytics: { fill: false } }, alwaysVisible: [...ids, 'GITLAB:Get_Thing_7', 'gitlab:get_thing_29??', '*:get_thing_123'] });
    const { catalog, warnings } = buildCatalog([{ server: 'gitlab', tools: many }], config);
    const report = statusReport(catalog, config, 'hybrid');
    expect(warnings).toContain('… and 49980 more alwaysVisible or pin globs that show or pin nothing');
    const shown = visibleTools(catalog, config, initialFocus('analytics')).map((t) => t.id);
    expect(shown.sort()).toEqual(['gitlab:get_thing_7', 'gitlab:get_thing_123', ...Array.from({ length: 100 }, (_, i) => `gitlab:get_thing_${2900 + i}`)].sort());
    expect(report.modes.find((row) => row.name === 'analytics')?.tools).toBe(102);
  });

  it('a read-only mode\'s pin that matches only writers is warned about: the mode never shows them', () => {
    const withWriter = [{ server: 'gitlab', tools: [...(sources[0]?.tools ?? []), tool('create_issue', 'Create an issue.')] }];
    const config = resolveConfig({ servers, modes: { review: { groups: [], readOnly: true, pin: ['gitlab:create_issue', 'gitlab:*'] }, work: { groups: [], pin: ['gitlab:create_issue'] } } });
    const { warnings } = buildCatalog(withWriter, config);
    expect(warnings).toContain('modes.review.pin "gitlab:create_issue" matches only tools that may write (gitlab:create_issue) and mode "review" is read-only, so it pins nothing: pin them in a mode that may write, or drop the mode\'s "readOnly".');
    // A glob that also matches readers pins those; a mode that may write pins the writer.
    expect(warnings.filter((w) => w.includes('may write'))).toHaveLength(1);
  });

  it('are not judged for a server that listed nothing yet (not started, or missing from the lock)', () => {
    const config = resolveConfig({ servers, alwaysVisible: ['later:anything'], modes: { development: { pin: ['later:*'] } } });
    expect(buildCatalog(sources, config).warnings.filter((w) => w.includes('matches no tool'))).toEqual([]);
  });
});

describe('catalogs merged from several files', () => {
  it('a server in two of them is a config error naming both files and the key path', () => {
    const one = [{ server: 'a', tools: [tool('t')] }];
    let error: unknown;
    try {
      mergeCatalogs([one, [], one], ['one.json', 'two.json', 'three.json']);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe('three.json: servers.a: server "a" appears in more than one catalog (first in one.json): expected each server in one catalog');
    expect(mergeCatalogs([one, [{ server: 'b', tools: [] }]]).map((source) => source.server)).toEqual(['a', 'b']);
  });
});
