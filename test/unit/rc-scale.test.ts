import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';
import { MAX_LOCK_GROUP_PLACEMENTS } from '../../src/catalog/placement-cache.js';
import { compileGroup, confirmsPlacements, type CompiledGroup } from '../../src/catalog/groups.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { callRefusal, modesWith } from '../../src/focus/policy.js';
import { groupsReport } from '../../src/tokens/groups.js';
import { buildGroupView, groupResult } from '../../src/focus/group-view.js';
import { offeredModes, withModeGroups } from '../../src/focus/mode-groups.js';
import { listedTools, visibleTools } from '../../src/focus/visible.js';
import { countTextTokens } from '../../src/util/tokens.js';
import { statusReport } from '../../src/tokens/report.js';
import { SearchIndex } from '../../src/search/engine.js';

// Large rcs (thousands of groups, each holding every tool; many modes over them) must cost about
// tools x groups, never tools x groups x groups: the work is counted, not timed, so a busy
// machine cannot make these pass or fail.

const tool = (name: string): ToolDefinition => ({ name, description: `Gets record ${name} of the store.`, inputSchema: { type: 'object', properties: {} } });
const servers = { srv: { command: 'node', args: ['x.js'] } };

/** Counts calls of `owner[key]` (an Array.prototype method, Object.values, JSON.stringify) while `run` runs (restored after). */
function counting<O extends object, T>(owner: O, key: keyof O & string, run: () => T): { result: T; calls: number } {
  const original = owner[key] as (...args: unknown[]) => unknown;
  let calls = 0;
  Object.defineProperty(owner, key, {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      calls++;
      return original.apply(this, args);
    },
  });
  try {
    return { result: run(), calls };
  } finally {
    Object.defineProperty(owner, key, { configurable: true, writable: true, value: original });
  }
}

describe('an rc of thousands of groups over a large catalog', () => {
  const TOOLS = 400;
  const GROUPS = 1_500;
  const groups = Object.fromEntries(Array.from({ length: GROUPS }, (_, i) => [`g${i}`, { tools: ['srv:*'] }]));
  const empty = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`none${i}`, { tools: ['elsewhere:*'] }]));
  const modes = {
    all: { groups: Object.keys(groups), budget: 3_000 },
    ...Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`other${k}`, { groups: Object.keys(empty) }])),
  };
  const config = resolveConfig({ servers, groups: { ...groups, ...empty }, modes });
  const { catalog } = buildCatalog([{ server: 'srv', tools: Array.from({ length: TOOLS }, (_, i) => tool(`get_${i}`)) }], config);

  it('places every tool in every group once, sharing one placement per group and selector', () => {
    const [first, second] = catalog.tools;
    expect(first?.groups.filter((group) => group.startsWith('g'))).toHaveLength(GROUPS);
    const placed = (t: typeof first) => t?.placements.find((placement) => placement.group === 'g7');
    expect(placed(first)).toEqual({ group: 'g7', reason: 'tool glob "srv:*"' });
    // The same object: 600,000 placements held one fresh object and reason string each.
    expect(placed(first)).toBe(placed(second));
  });

  it('the search index adds each group\'s words to its tools without a Map entry per tool and group, with the same counts', () => {
    const { result: index, calls } = counting(Map.prototype, 'set', () => new SearchIndex(catalog.tools, catalog.groups));
    // Before: one Map entry per (tool, group word): 600,000 here (15 million on 5,000 groups x 3,000 tools: 32 s, 1.4 GB of the index's build).
    expect(calls).toBeLessThan(20_000);
    const postings = (index as unknown as { postings: Map<string, { docs: Int32Array; tf: Float32Array }> }).postings;
    const g7 = postings.get('g7');
    expect([...(g7?.docs ?? [])]).toEqual(catalog.tools.map((_, doc) => doc));
    // A group of 400 tools adds each of its words at 0.6 x sqrt(10 / 400): its name, and its description (its name again).
    const weight = 0.6 * Math.sqrt(10 / TOOLS);
    expect(new Set(g7?.tf)).toEqual(new Set([Math.fround(weight + weight)]));
    expect(index.termCount('g7')).toBe(TOOLS);
    expect(index.search('g7 get 12', { limit: 1 })[0]?.tool.name).toBe('get_12');
  });

  it('status and check count group tokens and mode members without a groups x groups scan', { timeout: 60_000 }, () => {
    const { result: report, calls } = counting(Array.prototype, 'includes', () => counting(Array.prototype, 'indexOf', () => statusReport(catalog, config, 'hybrid')));
    // Before: an includes per mode group per listed tool (600,000), and one per tool group per tool per other mode (12 million).
    expect(calls).toBeLessThan(20_000);
    expect(report.calls).toBeLessThan(20_000);
    const all = report.result.modes.find((mode) => mode.name === 'all');
    expect(all?.groupTokens).toHaveLength(GROUPS);
    const listedTokens = catalog.tools.filter((t) => all?.toolIds.includes(t.id)).reduce((sum, t) => sum + t.tokens, 0);
    expect(all?.tools).toBeGreaterThan(0);
    expect(all?.tools).toBeLessThan(TOOLS);
    expect(new Set(all?.groupTokens.map((row) => row.tokens))).toEqual(new Set([listedTokens]));
    // Equal tokens keep the mode's order.
    expect(all?.groupTokens.slice(0, 3).map((row) => row.group)).toEqual(['g0', 'g1', 'g2']);
    expect(report.result.modes.find((mode) => mode.name === 'other3')?.tools).toBe(0);
  });

  it('names the modes that include a tool with one pass over the modes\' groups', () => {
    const target = catalog.tools[0];
    if (!target) throw new Error('no tool');
    const { result, calls } = counting(Array.prototype, 'includes', () => modesWith(config, target));
    expect(result).toEqual(['all']);
    expect(calls).toBeLessThan(100);
  });
});

describe('cached placements confirmed against thousands of groups', () => {
  it('finds each placement\'s group by name once per compiled list, not with a scan per placement', () => {
    const GROUPS = 3_000;
    let reads = 0;
    const compiled: CompiledGroup[] = Array.from({ length: GROUPS }, (_, i) => {
      const group = compileGroup(`g${i}`, { tools: ['srv:*'] });
      return {
        ...group,
        get name() {
          reads++;
          return group.name;
        },
      };
    });
    const candidate = { id: 'srv:get_1', server: 'srv', text: ' get 1 ', readOnly: true };
    const placements = Array.from({ length: GROUPS }, (_, i) => ({ group: `g${i}`, reason: 'tool glob "srv:*"' }));
    expect(confirmsPlacements(placements, compiled, candidate)).toBe(true);
    // Before: a findIndex by name per placement, 4.5 million reads.
    expect(reads).toBeLessThan(3 * GROUPS);
    // Out of order or twice is still refused.
    expect(confirmsPlacements([placements[1], placements[0]].filter((p) => p !== undefined), compiled, candidate)).toBe(false);
    expect(confirmsPlacements([placements[1], placements[1]].filter((p) => p !== undefined), compiled, candidate)).toBe(false);
    expect(confirmsPlacements([{ group: 'missing', reason: 'tool glob "srv:*"' }], compiled, candidate)).toBe(false);
  });
});

describe('many read-only modes over a catalog of writers', () => {
  it('status\'s groups figures ask which modes include each writer once, not once per mode (the same refusals)', () => {
    const writers = Array.from({ length: 300 }, (_, i): ToolDefinition => ({ name: `delete_${i}`, description: `Deletes record ${i} of the store.`, inputSchema: { type: 'object', properties: {} } }));
    const modes = {
      ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`ro${i}`, { groups: ['store'], readOnly: true }])),
      work: { groups: ['store'] },
    };
    const config = resolveConfig({ servers, groups: { store: { tools: ['srv:*'] } }, modes });
    const { catalog } = buildCatalog([{ server: 'srv', tools: writers }], config);
    const { result: report, calls } = counting(Object, 'values', () => groupsReport(catalog, config, 'hybrid'));
    // Before: every mode's groups read again for each writer refused in each read-only mode (30,000 passes).
    expect(calls).toBeLessThan(3_000);
    expect(report.map((row) => row.mode)).toContain('ro99');
    const writer = catalog.tools[0];
    if (!writer) throw new Error('no tool');
    expect(callRefusal(config, { mode: 'ro3', fixedMode: undefined, inMode: () => true }, writer)).toBe(
      `Mode "ro3" is read-only and "delete_0" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads). Modes that include it: all, work (switch with focus_mode).`,
    );
    expect(modesWith(config, writer)).toBe(modesWith(config, writer));
  });
});

describe('lazytools groups on a catalog whose every tool is in hundreds of groups', () => {
  it('writes a tool at a time, text and --json, the same bytes as one write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lazytools-rc-scale-'));
    try {
      const tools = Array.from({ length: 300 }, (_, i) => tool(`get_${i}`));
      writeFileSync(join(dir, 'lazytools.lock.json'), JSON.stringify({ lockfileVersion: 1, servers: { srv: { hash: 'x', tools } } }));
      const rc = { servers, groups: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`g${i}`, { tools: ['srv:*'] }])), modes: { m: { groups: ['g0', 'g1'] } } };
      writeFileSync(join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
      const run = async (args: string[]) => {
        const chunks: string[] = [];
        const io = { out: (text: string) => void chunks.push(text.endsWith('\n') ? text : `${text}\n`), err: () => undefined, cwd: dir, env: {} };
        expect(await main(['groups', ...args], io)).toBe(0);
        return chunks;
      };
      const text = await run([]);
      // 300 tools x 200 groups were one string of every line (past V8's limit at 5,000 groups over 3,000 tools).
      expect(text).toHaveLength(300);
      expect(Math.max(...text.map((chunk) => chunk.length))).toBeLessThan(100_000);
      expect(text[0]).toContain('  g199             tool glob "srv:*"\n');
      const json = await run(['--json']);
      expect(json.length).toBeGreaterThan(300);
      expect(Math.max(...json.map((chunk) => chunk.length))).toBeLessThan(100_000);
      const parsed = JSON.parse(json.join('')) as { tools: Array<{ id: string; groups: unknown[] }> };
      expect(json.join('')).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
      expect(parsed.tools).toHaveLength(300);
      expect(parsed.tools[299]?.groups.length).toBeGreaterThanOrEqual(200);
      // No tool matched: one write, as before.
      expect((await run(['--json', '--tool', 'srv:get_7'])).join('')).toContain('"id": "srv:get_7"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('status groups figures over hundreds of modes alike', () => {
  it('builds and counts one groups view per distinct list, the same figures as a view per mode', () => {
    const tools = Array.from({ length: 200 }, (_, i) => tool(`get_${i}`));
    const modes = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}`, { groups: ['store'], budget: 1_500 }]));
    const config = resolveConfig({ servers, groups: { store: { tools: ['srv:get_1*'] } }, modes });
    const { catalog } = buildCatalog([{ server: 'srv', tools }], config);
    const { result: report, calls } = counting(JSON, 'stringify', () => groupsReport(catalog, config, 'hybrid'));
    // Before: every mode's view (a mode group for each of 300 modes) stringified again per mode: 193,597 calls measured.
    expect(calls).toBeLessThan(20_000);
    // The figures of one mode, computed on their own as before.
    const focus = { mode: 'm7', enabled: [], disabled: [], discovered: [] };
    const visible = new Set(visibleTools(catalog, config, focus).map((t) => t.id));
    const subject = { mode: 'm7', fixedMode: undefined, inMode: (t: { id: string }) => visible.has(t.id) };
    const top = listedTools(catalog, config, focus, 'hybrid');
    const view = withModeGroups(buildGroupView({ catalog, top, callable: (t) => callRefusal(config, subject, t) === undefined }), { catalog, config, modes: offeredModes(config, subject), top });
    const getTokens = Object.fromEntries([...view.groups.keys()].sort().map((name) => [name, countTextTokens(JSON.stringify(groupResult(view, name)), catalog.tokenizer)]));
    const row = report.find((entry) => entry.mode === 'm7');
    expect(row?.listTokens).toBe(countTextTokens(JSON.stringify({ groups: view.top }), catalog.tokenizer));
    expect({ ...row?.getTokens }).toEqual(getTokens);
    expect(Object.keys(getTokens).length).toBeGreaterThan(300);
  });
});

describe('a lock of an rc whose groups each hold every tool', () => {
  it('caches no group placements past MAX_LOCK_GROUP_PLACEMENTS, and a start from it places tools the same', () => {
    const GROUPS = 250;
    const config = resolveConfig({ servers, groups: Object.fromEntries(Array.from({ length: GROUPS }, (_, i) => [`g${i}`, { tools: ['srv:*'] }])) });
    const sources = [{ server: 'srv', tools: Array.from({ length: 1_000 }, (_, i) => tool(`get_${i}`)) }];
    const lock = makeLock(sources, config);
    // Before: 250,000 cached placements, about 28 MB of lock (150,000 measured 16.7 MB; 15 million pass V8's string limit).
    expect(lock.placement.groups).toBeUndefined();
    expect(Object.values(lock.placement.servers.srv ?? {}).every((entry) => entry.groups === undefined)).toBe(true);
    expect(JSON.stringify(lock).length).toBeLessThan(5_000_000);
    const placed = (built: ReturnType<typeof buildCatalog>) => built.catalog.tools.map((t) => `${t.id} ${t.groups.length}`);
    expect(placed(buildCatalog(parseCatalog(JSON.parse(JSON.stringify(lock))), config))).toEqual(placed(buildCatalog(sources, config)));
    // Under the bound the lock still caches them.
    const small = makeLock([{ server: 'srv', tools: sources[0]?.tools.slice(0, 100) ?? [] }], config);
    expect(small.placement.groups).toBeDefined();
    expect(MAX_LOCK_GROUP_PLACEMENTS).toBeLessThan(GROUPS * 1_000);
  });
});
