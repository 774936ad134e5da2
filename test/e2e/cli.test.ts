import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rcJsonSchema } from '../../src/config/json-schema.js';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { resolveIntentIn } from '../../src/focus/intent-catalog.js';
import { modeFit } from '../../src/focus/fit.js';
import { CATALOGS, GITHUB_CATALOG, REFERENCE_CATALOG, ROOT, stackSources, tempTree, runCli } from '../harness/index.js';

/** Runs the built CLI (npm test builds first) as a user would. */
const cli = (args: string[], cwd = ROOT) => runCli(args, { cwd });

const catalogs = ['--catalog', GITHUB_CATALOG, '--catalog', REFERENCE_CATALOG];

describe('lazytools status', () => {
  it('prints the JSON contract for every preset', () => {
    const { code, stdout } = cli(['status', ...catalogs, '--json'], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { modes: Array<Record<string, unknown>> };
    expect(json.modes).toHaveLength(17);
    for (const mode of json.modes) {
      expect(Object.keys(mode)).toEqual(['name', 'tools', 'totalTools', 'tokens', 'totalTokens', 'reduction', 'budget', 'withinBudget', 'toolNames', 'toolIds', 'fit', 'heldBack', 'heldBackTokens']);
      const { toolNames, toolIds } = mode as { toolNames: string[]; toolIds: string[] };
      expect(toolIds).toHaveLength(toolNames.length);
      toolIds.forEach((id, i) => expect(id.endsWith(`:${toolNames[i] ?? ''}`) || id.replace(':', '_') === toolNames[i], id).toBe(true));
      expect(mode.reduction).toBeGreaterThanOrEqual(0);
      expect(mode.reduction).toBeLessThanOrEqual(1);
    }
    expect(json.modes.find((m) => m.name === 'all')).toMatchObject({ tools: 154, totalTools: 154, totalTokens: 29_579 });
  });

  it('--explain --json puts the explanation in the JSON on stdout (it went to stderr as text); --explain alone prints it after the table', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"security_review":{"budget":1000}}}' });
    const { code, stdout, stderr } = cli(['status', ...catalogs, '--json', '--explain', '--mode', 'security_review'], dir);
    expect(code).toBe(0);
    expect(stderr).not.toContain('security_review: budget');
    const json = JSON.parse(stdout) as { modes: unknown[]; explain: Array<{ mode: string; fit: boolean; budget: number; shown: number; heldBack: number; tools: Array<{ id: string; name: string; shown: boolean; tokens: number; priority: number; reason: string; why: string[] }> }> };
    expect(json.modes).toHaveLength(17);
    expect(json.explain.map((mode) => mode.mode)).toEqual(['security_review']);
    const [mode] = json.explain;
    expect(mode).toMatchObject({ fit: true, budget: 1000 });
    expect(mode!.heldBack).toBeGreaterThan(0);
    expect(mode!.tools.filter((tool) => tool.shown)).toHaveLength(mode!.shown);
    expect(mode!.tools.filter((tool) => !tool.shown)).toHaveLength(mode!.heldBack);
    expect(Object.keys(mode!.tools[0]!)).toEqual(['id', 'name', 'shown', 'tokens', 'priority', 'reason', 'why']);
    const human = cli(['status', ...catalogs, '--explain', '--mode', 'security_review'], dir);
    expect(human.stdout).toMatch(/\nsecurity_review: budget \d+, lazytools' own tools \d+ tokens; \d+ shown, \d+ held back/);
    expect(human.stdout).toContain(`  - ${mode!.tools.find((tool) => !tool.shown)!.name} `);
    expect(JSON.parse(cli(['status', ...catalogs, '--json'], dir).stdout)).not.toHaveProperty('explain');
  });

  it('prints a table and a Markdown table', () => {
    const table = cli(['status', ...catalogs]);
    expect(table.stdout).toMatch(/security_review\s+\d+\/154\s+\d+\/29579\s+\d+\.\d%/);
    const markdown = cli(['status', ...catalogs, '--markdown']);
    expect(markdown.stdout).toContain('| mode | tools | tokens | reduction | budget | within budget | held back |');
  });
});

describe('lazytools check', () => {
  it('exits when it is done, though a JS rc left a timer running (CI would wait for ever)', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.mjs': 'setInterval(() => {}, 1_000);\nexport default { defaultMode: "all" };\n' });
    // Killed at 60 s if it never exits: status null, not 0.
    const run = runCli(['check', '--catalog', REFERENCE_CATALOG], { cwd: dir, timeout: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('all');
  });

  it('and status print a lock\'s malformed entries bounded: the first 20, then how many more', () => {
    const tools = [...Array.from({ length: 3_000 }, (_, i) => ({ name: `t${i}`, inputSchema: 5 })), { name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' } }];
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{}', 'lazytools.lock.json': JSON.stringify({ servers: { s: { tools } } }) });
    for (const command of ['check', 'status']) {
      const { code, stderr } = cli([command], dir);
      expect(code, stderr).toBe(0);
      const lines = stderr.split('\n').filter((line) => line.includes('the tool is left out'));
      expect(lines, command).toHaveLength(20);
      expect(stderr, command).toMatch(/… and 2980 more tools left out of \S*lazytools\.lock\.json/);
      expect(stderr.split('\n').length, command).toBeLessThan(40);
    }
  });

  it('exits 0 when every preset fits its budget', () => {
    const { code, stdout } = cli(['check', ...catalogs], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    expect(stdout).toContain('ok    security_review');
  });

  it('fits a lowered budget by holding tools back, and says so (exit 0)', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"security_review":{"budget":1000}}}' });
    const { code, stdout } = cli(['check', ...catalogs], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok {4}security_review: \d+ tokens <= 1000, fits by holding back \d+ tool\(s\) \(\d+ tokens; search_tools reaches them\)$/m);
  });

  it('exits 1 over budget with "fit": false, naming the mode, the excess, the costliest groups and what to change', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"security_review":{"budget":1000,"fit":false}}}' });
    const { code, stdout, stderr } = cli(['check', ...catalogs], dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/OVER {2}security_review: \d+ tokens, budget 1000, over by \d+ \(\d+\.\d%\)\. Costliest groups: security \d+/);
    expect(stdout).toContain('Remove "fit": false so the mode holds back its lowest-priority tools');
    expect(stderr).toContain('1 mode(s) over budget: security_review');
  });

  it('exits 1 when the pinned tools alone are over budget, naming the costliest pins', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"development":{"budget":2000,"pin":["github:*"]}}}' });
    const { code, stdout } = cli(['check', ...catalogs], dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/OVER {2}development: \d+ tokens, budget 2000, over by \d+ .*Pinned and alwaysVisible tools alone cost \d+ tokens .*unpin some \(costliest: github:\w+ \d+ \(pinned \(modes\.development\.pin\)\)/);
  });

  it.each([
    ['real-world', [path.join(CATALOGS, 'real-world.json')]],
    ['reference + GitHub', catalogs.filter((arg) => arg !== '--catalog')],
  ])('exits 0 on the presets over the %s catalogs, fitting the modes that hold more', (_, files) => {
    const { code, stdout } = cli(['check', ...files.flatMap((file) => ['--catalog', file])], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    expect(stdout).not.toContain('OVER');
  });

  it('exits 0 on the presets over the 10-server developer stack, every formerly empty mode now holding tools', async () => {
    const dir = tempTree({ 'package.json': '{}', 'stack.json': JSON.stringify({ servers: Object.fromEntries((await stackSources()).map((s) => [s.server, { tools: s.tools }])) }) });
    const { code, stdout } = cli(['check', '--catalog', 'stack.json'], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok {4}development: \d+ tokens <= \d+, fits by holding back/m);
    const status = JSON.parse(cli(['status', '--catalog', 'stack.json', '--json'], dir).stdout) as { modes: Array<{ name: string; tools: number; fit: boolean; heldBack: Array<{ id: string; name: string; tokens: number; reason: string }>; heldBackTokens: number; toolIds: string[] }> };
    for (const name of ['code_review', 'daily_checkin', 'security_review', 'task_management']) expect(status.modes.find((m) => m.name === name)?.tools, name).toBeGreaterThan(0);
    const development = status.modes.find((m) => m.name === 'development');
    expect(development?.fit).toBe(true);
    expect(Object.keys(development?.heldBack[0] ?? {})).toEqual(['id', 'name', 'tokens', 'reason']);
    expect(development?.heldBackTokens).toBe(development?.heldBack.reduce((sum, tool) => sum + tool.tokens, 0));
    expect(development?.toolIds.some((id) => development.heldBack.some((held) => held.id === id))).toBe(false);
  });

  it('prints GitHub Actions annotations', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"daily_checkin":{"budget":10}}}' });
    const { code, stdout } = cli(['check', ...catalogs, '--format', 'github'], dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^::error file=.*\.lazytoolsrc\.json,title=lazytools budget::daily_checkin: /m);
  });

  it('warns on stderr as status does: a pin that pins nothing is said in CI too', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"development":{"pin":["memory:reed_graph"]}}}' });
    const { code, stderr } = cli(['check', ...catalogs], dir);
    expect(code).toBe(0);
    expect(stderr).toContain('warning: modes.development.pin "memory:reed_graph" matches no tool, so it pins nothing. Did you mean "memory:read_graph"');
  });

  it('exits 2 on a misspelled key, naming it, with no stack trace', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"modes":{"security_review":{"budgte":100}}}' });
    const { code, stderr } = cli(['check', ...catalogs], dir);
    expect(code).toBe(2);
    expect(stderr).toContain('.lazytoolsrc.json: invalid config');
    expect(stderr).toContain('Unrecognized key: "budgte"');
    expect(stderr).toContain('at modes.security_review');
    expect(stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('exits 2 on usage errors', () => {
    expect(cli(['check', '--bogus']).code).toBe(2);
    expect(cli(['check', ...catalogs, '--format', 'xml']).stderr).toContain('--format: expected "text" or "github"');
    const missing = cli(['status', '--catalog', 'missing.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.json: file not found');
    expect(cli(['nonsense']).code).toBe(2);
  });
});

describe('help and version', () => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  it.each([[['--help']], [['status', '--help']], [['check', '-h']]])('%j prints usage', (args) => {
    const { code, stdout } = cli(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(/[Uu]sage: lazytools/);
  });
  it.each([[['--version']], [['check', '--version']]])('%j prints the version', (args) => {
    expect(cli(args).stdout.trim()).toBe(version);
  });
});

describe('rc JSON Schema', () => {
  it('is generated from the zod schema and referenced by the example rc', () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'lazytools.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(rcJsonSchema());
    const example = JSON.parse(readFileSync(path.join(ROOT, '.lazytoolsrc.example.json'), 'utf8')) as { $schema: string };
    expect(example.$schema).toBe('./lazytools.schema.json');
  });

  it('accepts the example rc', () => {
    const dir = tempTree({ 'package.json': '{}' });
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), readFileSync(path.join(ROOT, '.lazytoolsrc.example.json')));
    const { code, stderr } = cli(['check', ...catalogs], dir);
    expect(stderr).not.toContain('invalid config');
    expect(code).toBe(0);
  });
});

describe('lazytools init', () => {
  const clientConfig = JSON.stringify({
    mcpServers: {
      github: { command: 'docker', args: ['run', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret', LOG_LEVEL: 'info' } },
      remote: { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer abc' } },
      'bad one': { transport: 'carrier pigeon' },
    },
  });

  it('writes an rc from a client config, keeping secrets out of it', () => {
    // Approved in Claude Code (the folder's local settings): imported enabled.
    const dir = tempTree({ 'package.json': '{}', '.mcp.json': clientConfig, '.claude/settings.local.json': JSON.stringify({ enableAllProjectMcpServers: true }) });
    // An empty home: a developer's own ~/.claude.json (user scope servers) stays out of the test.
    const { code, stdout, stderr } = runCli(['init', '--from', 'claude-code'], { cwd: dir, env: { HOME: tempTree({}), USERPROFILE: tempTree({}) } });
    expect(code).toBe(0);
    const rc = JSON.parse(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')) as { servers: Record<string, Record<string, unknown>>; groups?: Record<string, unknown> };
    expect(Object.keys(rc.servers)).toEqual(['github', 'remote']);
    expect(rc.servers.github).toMatchObject({ command: 'docker', env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}', LOG_LEVEL: 'info' } });
    expect(rc.servers.remote).toMatchObject({ headers: { Authorization: 'Bearer ${REMOTE_AUTHORIZATION}' } });
    expect(rc.groups).toBeUndefined();
    expect(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')).not.toContain('ghp_secret');
    expect(stderr).toContain('set them in your environment: GITHUB_PERSONAL_ACCESS_TOKEN, REMOTE_AUTHORIZATION');
    expect(stderr).toContain('skipped bad one');
    expect(stdout).toContain(`serve --config ${path.join(dir, '.lazytoolsrc.json')}`);
  });

  it('never overwrites an existing rc without --force', () => {
    const dir = tempTree({ 'package.json': '{}', 'client.json': clientConfig, '.lazytoolsrc.json': '{"budget": 1}' });
    const refused = cli(['init', '--from', 'client.json'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists; pass --force to overwrite it');
    expect(readFileSync(path.join(dir, '.lazytoolsrc.json'), 'utf8')).toBe('{"budget": 1}');
    expect(cli(['init', '--from', 'client.json', '--force'], dir).code).toBe(0);
  });

  it('says where it looked when the client has no config', () => {
    const { code, stderr } = cli(['init', '--from', 'cursor'], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(2);
    expect(stderr).toContain('no cursor MCP config found (looked in');
  });
});

describe('lazytools search and mode', () => {
  it('searches catalog files offline and prints the JSON shape', () => {
    const { code, stdout } = cli(['search', 'leaked', 'credentials', ...catalogs, '--limit', '3', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!)).toEqual(['name', 'server', 'tool', 'score', 'summary']);
    expect(rows.map((r) => r.name)).toContain('list_secret_scanning_alerts');
    expect((rows[0]!.score as number) >= (rows[1]!.score as number)).toBe(true);
  });

  it('takes one query per step with --query and merges the rankings, keeping the JSON shape', () => {
    const { code, stdout } = cli(['search', '--query', 'leaked credentials', '--query', 'merge the pull request', ...catalogs, '--limit', '5', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(Object.keys(rows[0]!)).toEqual(['name', 'server', 'tool', 'score', 'summary']);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['list_secret_scanning_alerts', 'merge_pull_request']));
    expect(rows.every((r, i) => i === 0 || (rows[i - 1]!.score as number) >= (r.score as number))).toBe(true);
  });

  it('reads the words after -- as the query, even "-v" or "--help": --json stays JSON (it printed the version)', () => {
    for (const word of ['-v', '--help']) {
      const { code, stdout } = cli(['search', ...catalogs, '--json', '--', word]);
      expect(code, word).toBe(0);
      expect(Array.isArray(JSON.parse(stdout)), word).toBe(true);
    }
  });

  it('needs a query', () => {
    const { code, stderr } = cli(['search', ...catalogs]);
    expect(code).toBe(2);
    expect(stderr).toContain('expected a QUERY');
  });

  it('resolves a phrase to a mode', () => {
    const { code, stdout } = cli(['mode', 'time', 'for', 'a', 'security', 'audit', '--json'], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    const match = JSON.parse(stdout) as { mode: string; confidence: number; alternatives: unknown[] };
    expect(Object.keys(match)).toEqual(['mode', 'confidence', 'alternatives']);
    expect(match.mode).toBe('security_review');
  });

  it('weighs in the tools a task phrase finds when it has a catalog (--catalog or the lock)', async () => {
    const phrase = 'grab the spacing and colors of the checkout screen from our Figma file';
    const file = path.join(CATALOGS, 'developer-stack.json');
    const { code, stdout } = cli(['mode', phrase, '--catalog', file, '--json'], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    const config = resolveConfig({});
    const { catalog } = buildCatalog(await readCatalogFile(file), config);
    const expected = resolveIntentIn(phrase, Object.values(config.modes), catalog, config, new SearchIndex(catalog.tools, catalog.groups));
    const answer = JSON.parse(stdout) as { mode: string; taskTools: string[] };
    expect(answer.mode).toBe(expected.mode);
    // And the tools focus_mode would bring for the task: search's best three the mode does not show
    // (it shows the Figma data already).
    const shown = new Set(catalog.tools.filter((tool) => modeFit(catalog, config, answer.mode)?.shownIds.has(tool.id)).map((tool) => tool.exposedName));
    expect(shown.has('get_figma_data')).toBe(true);
    expect(answer.taskTools).toHaveLength(3);
    expect(answer.taskTools.filter((name) => shown.has(name))).toEqual([]);
    expect(cli(['mode', phrase, '--catalog', file], tempTree({ 'package.json': '{}' })).stdout).toMatch(new RegExp(`^for this task: ${answer.taskTools[0]}, `, 'm'));
    // Without a catalog the words alone decide, and they choose otherwise (code_review holds no Figma tool).
    const words = JSON.parse(cli(['mode', phrase, '--json'], tempTree({ 'package.json': '{}' })).stdout) as { mode: string };
    expect(words.mode).not.toBe(expected.mode);
    expect(Object.keys(words)).not.toContain('taskTools');
  });
});
