import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { sharedCap } from '../../src/focus/budget.js';
import { modeFit } from '../../src/focus/fit.js';
import { statusReport } from '../../src/tokens/report.js';
import { referenceSources, stackSources } from '../harness/index.js';

// Three of the developer stack's ten servers: 15,378 tokens, a catalog small for every preset's budget.
const small = (await stackSources()).filter((source) => ['brave-search', 'chrome-devtools', 'context7'].includes(source.server));

function project(rc: RcConfig = {}) {
  const config = resolveConfig(rc);
  return { config, catalog: buildCatalog(small, config).catalog };
}

/** The presets' mean cost, as a share of the catalog below it (what status and bench call the cut). */
function meanCut(rc: RcConfig = {}): number {
  const { config, catalog } = project(rc);
  const presets = statusReport(catalog, config).modes.filter((mode) => mode.name !== 'all');
  return 1 - presets.reduce((sum, mode) => sum + mode.tokens, 0) / presets.length / catalog.totalTokens;
}

describe('sharedCap', () => {
  it('is undefined while the mean cost is within 14.5% of the catalog', () => {
    expect(sharedCap([1000, 2000, 1300], 10_000, 500)).toBeUndefined();
  });

  it('is undefined where the share would leave a mode under 1,000 tokens beside lazytools\' own tools', () => {
    // 14.5% of 10,000 is 1,450: room for 950 tokens beside 500 of own tools.
    expect(sharedCap([500, 3000, 6000], 10_000, 500)).toBeUndefined();
  });

  it('water-fills: the costliest modes give up the most, cheaper ones keep what they cost', () => {
    // Allowed: 14.5% of 10,000 x 3 = 4,350. 500 stays; the other two share 3,850.
    expect(sharedCap([500, 3000, 6000], 10_000, 400)).toBe(1925);
    const cap = sharedCap([500, 3000, 6000], 10_000, 400) ?? 0;
    expect([500, 3000, 6000].reduce((sum, cost) => sum + Math.min(cost, cap), 0)).toBeLessThanOrEqual(4350);
  });
});

describe('modes on a small catalog', () => {
  it('keep the presets 85.5% below the catalog on average, every mode within its budget', () => {
    const { config, catalog } = project();
    expect(catalog.totalTokens).toBeLessThan(20_000);
    expect(meanCut()).toBeGreaterThanOrEqual(0.855);
    for (const mode of statusReport(catalog, config).modes) expect(mode.withinBudget, mode.name).toBe(true);
    // Each mode says the budget in force, and shows within it.
    const debugging = modeFit(catalog, config, 'debugging');
    expect(debugging?.budget).toBeLessThan(config.modes.debugging?.budget ?? 0);
    expect(debugging?.shown.length).toBeGreaterThan(0);
  });

  it('is the same whichever mode is fitted first', () => {
    const first = project();
    const debuggingFirst = modeFit(first.catalog, first.config, 'debugging')?.shown.map((tool) => tool.id);
    const second = project();
    for (const mode of Object.keys(second.config.modes)) modeFit(second.catalog, second.config, mode);
    expect(modeFit(second.catalog, second.config, 'debugging')?.shown.map((tool) => tool.id)).toEqual(debuggingFirst);
  });

  it('never holds back a pinned tool, and leaves a budget the rc fixed (no maxBudget) as the rc says', () => {
    const pinned = project({ modes: { debugging: { pin: ['chrome-devtools:*'] } } });
    const fitted = modeFit(pinned.catalog, pinned.config, 'debugging');
    const devtools = pinned.catalog.tools.filter((tool) => tool.server === 'chrome-devtools');
    for (const tool of devtools) expect(fitted?.shownIds.has(tool.id), tool.id).toBe(true);
    const fixed = project({ modes: { debugging: { budget: 8000, maxBudget: 8000 } } });
    expect(modeFit(fixed.catalog, fixed.config, 'debugging')?.budget).toBe(8000);
  });
});

describe('modes on a very small catalog', () => {
  it('keep their budgets: the reference servers (4,478 tokens) are too small to cut by', async () => {
    const config = resolveConfig({});
    const { catalog } = buildCatalog(await referenceSources(), config);
    for (const mode of Object.values(config.modes)) expect(modeFit(catalog, config, mode.name)?.shared, mode.name).toBe(false);
    expect(modeFit(catalog, config, 'development')?.shown.length).toBeGreaterThan(5);
  });
});
