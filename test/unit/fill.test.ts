import { describe, expect, it } from 'vitest';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { modeCoverage, taskCoverage } from '../../src/focus/fill.js';
import { modeFit } from '../../src/focus/fit.js';

// rc `fill` on invented servers whose words no topic knows: a beekeeping suite. Its swarm
// tools land in no group a mode lists; the mode's own tasks say they are its work.
const tool = (name: string, description: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, description, inputSchema: { type: 'object' }, ...extra });
const reads = { annotations: { readOnlyHint: true } };
const sources = [
  {
    server: 'combly',
    tools: [
      tool('swarm_request_create', 'File a swarm request for a beekeeper', { annotations: { readOnlyHint: false } }),
      tool('swarm_balance', 'Frames of swarm a beekeeper has left', reads),
      tool('weather_now', 'Current weather at a city', reads),
    ],
  },
  { server: 'notes', tools: [tool('create_note', 'Create a note'), tool('list_notes', 'List notes', reads)] },
];
// The presets' fill is off here: what their tasks find would compete for these tools (see below).
const presetsOff = Object.fromEntries(Object.keys(resolveConfig({}).modes).map((name) => [name, { fill: false }]));
const rc = (fill: boolean, readOnly = false, extra: RcConfig['modes'] = {}): RcConfig => ({
  groups: { notes: { tools: ['notes:*'] } },
  modes: { ...presetsOff, hives: { groups: ['notes'], budget: 100_000, fill, readOnly, description: 'Apiary operations', tasks: ['book a spring swarm for sofia', 'how many swarm frames has marco got left'] }, ...extra },
});

function fitted(config: RcConfig) {
  const resolved = resolveConfig(config);
  const { catalog } = buildCatalog(sources, resolved);
  const fit = modeFit(catalog, resolved, 'hives');
  if (!fit) throw new Error('no mode hives');
  return { fit, catalog };
}

describe('fill: what a mode\'s typical tasks find', () => {
  it('ranks and shows the tools its tasks find outside its groups, and says which task', () => {
    const { fit } = fitted(rc(true));
    expect(fit.shownIds.has('combly:swarm_request_create')).toBe(true);
    expect(fit.filledIds.has('combly:swarm_balance')).toBe(true);
    const why = fit.ranked.find((entry) => entry.tool.id === 'combly:swarm_balance')?.why.join('; ');
    expect(why).toContain('a typical task of the mode finds it ("how many swarm frames has marco got left")');
    // What no task (and no word of the mode) asks for stays out.
    expect(fit.memberIds.has('combly:weather_now')).toBe(false);
  });

  it('fills nothing into a mode whose groups hold none of the catalog\'s tools; a mode with no groups is all fill', () => {
    // Groups that match nothing here (a sales mode on a catalog with no CRM): its tasks' nearest
    // words are not its work, and filled they took its whole budget.
    const elsewhere = { groups: ['crm'], budget: 100_000, fill: true, description: 'Apiary operations', tasks: ['book a spring swarm for sofia', 'how many swarm frames has marco got left'] };
    const resolved = resolveConfig({ ...rc(true, false, { elsewhere }), groups: { notes: { tools: ['notes:*'] }, crm: { tools: ['crm:*'] } } });
    const { catalog } = buildCatalog(sources, resolved);
    expect(modeFit(catalog, resolved, 'elsewhere')?.memberIds.size).toBe(0);
    const words = resolveConfig(rc(true, false, { words: { ...elsewhere, groups: [] } }));
    expect(modeFit(buildCatalog(sources, words).catalog, words, 'words')?.shownIds.has('combly:swarm_balance')).toBe(true);
  });

  it('leaves the mode to its groups without fill', () => {
    const { fit } = fitted(rc(false));
    expect([...fit.memberIds].sort()).toEqual(['notes:create_note', 'notes:list_notes']);
  });

  it('never brings a writer into a read-only mode', () => {
    const { fit, catalog } = fitted(rc(true, true));
    expect(fit.shownIds.has('combly:swarm_balance')).toBe(true);
    expect(fit.memberIds.has('combly:swarm_request_create')).toBe(false);
    expect(taskCoverage(catalog, { description: 'Apiary operations', tasks: ['book a spring swarm'], readOnly: true }).has('combly:swarm_request_create')).toBe(false);
  });

  it('gives a tool to the mode whose tasks find it most, or whose tasks name it (two rank it first or second), not to every mode whose tasks find it at all', () => {
    const harvest = { groups: ['notes'], budget: 100_000, fill: true, description: 'Harvest', tasks: ['swarm balance of a beekeeper', 'swarm frames left', 'file a swarm request'] };
    // Hives' tasks are about notes on swarm requests: they find the balance too, fourth.
    const hives = { groups: ['notes'], budget: 100_000, fill: true, description: 'Apiary operations', tasks: ['file a swarm request note for a beekeeper', 'list notes about a beekeeper swarm request'] };
    // One task of its own names the swarm request too: one is not enough (a loose match can be first).
    const office = { groups: ['notes'], budget: 100_000, fill: true, description: 'Office', tasks: ['file a swarm request note for a beekeeper'] };
    const resolved = resolveConfig(rc(true, false, { harvest, hives, office }));
    const { catalog } = buildCatalog(sources, resolved);
    const why = (mode: string) => modeFit(catalog, resolved, mode)?.ranked.find((entry) => entry.tool.id === 'combly:swarm_balance')?.why.join('; ') ?? '';
    // Harvest's tasks rank the balance first: it is harvest's typical task; hives' find it
    // loosely, so hives keeps it only by the words of its profile (closeness), without the lift.
    expect(why('harvest')).toContain('a typical task of the mode finds it');
    expect(why('hives')).not.toContain('a typical task');
    const covers = (mode: string, id: string) => modeCoverage(catalog, resolved.modes, resolved.modes[mode]!).has(id);
    expect(covers('hives', 'combly:swarm_balance')).toBe(false);
    expect(covers('harvest', 'combly:swarm_balance')).toBe(true);
    // Two tasks of each rank the swarm request first or second: it is both modes' tool.
    expect(covers('hives', 'combly:swarm_request_create')).toBe(true);
    expect(covers('harvest', 'combly:swarm_request_create')).toBe(true);
    expect(covers('office', 'combly:swarm_request_create')).toBe(false);
    // status --explain says which: the mode whose tasks find it most, or tasks that name it.
    const explain = (mode: string) => modeFit(catalog, resolved, mode)?.ranked.find((entry) => entry.tool.id === 'combly:swarm_request_create')?.why.join('; ') ?? '';
    const named = (mode: string) => modeCoverage(catalog, resolved.modes, resolved.modes[mode]!).get('combly:swarm_request_create')?.named === true;
    expect(named('hives') !== named('harvest')).toBe(true);
    const [naming, most] = named('hives') ? ['hives', 'harvest'] : ['harvest', 'hives'];
    expect(explain(most)).toContain('a typical task of the mode finds it');
    expect(explain(naming)).toMatch(/\d typical tasks of the mode name it, though another mode's find it more/);
  });

  it('bounds what coverage costs: with too many modes with fill to read 10 tasks of each, fill ranks by closeness alone', () => {
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`m${i}`, { groups: ['notes'], budget: 1_000, fill: true, description: `Mode ${i}`, tasks: ['swarm balance'] }]));
    const resolved = resolveConfig(rc(true, false, many));
    const { catalog } = buildCatalog(sources, resolved);
    // 2,000 searches over 251 modes is 7 per mode: none is run.
    expect(modeCoverage(catalog, resolved.modes, resolved.modes.hives!).size).toBe(0);
    const few = resolveConfig(rc(true, false, Object.fromEntries(Object.entries(many).slice(0, 10))));
    expect(modeCoverage(buildCatalog(sources, few).catalog, few.modes, few.modes.hives!).size).toBeGreaterThan(0);
  });

  it('scores a task\'s first hit 1 and later ones by reciprocal rank, summed over tasks', () => {
    const { catalog } = fitted(rc(true));
    const coverage = taskCoverage(catalog, { description: 'Apiary operations', tasks: ['swarm balance', 'swarm balance of a beekeeper'], readOnly: false });
    expect(coverage.get('combly:swarm_balance')).toEqual({ score: 2, task: 'swarm balance', best: 1, names: 2 });
    const second = coverage.get('combly:swarm_request_create');
    expect(second?.score).toBeGreaterThan(0);
    expect(second?.score).toBeLessThanOrEqual(1);
  });
});
