import { describe, expect, it } from 'vitest';
import { buildResourceIndex, resourceOwner } from '../../src/handlers/resources.js';
import { compileTemplate, TEMPLATE_STEP_BUDGET } from '../../src/handlers/uri-template.js';

/**
 * An upstream's resource templates are matched against every URI a client reads: what matching
 * and compiling them costs is the gateway's, in its one event loop, whatever the upstream lists.
 * Counted in steps, not timed.
 */

describe('compiling a template', () => {
  it('is paid from the step budget, once, when a URI first reaches it', () => {
    const template = compileTemplate(`t://${'a'.repeat(100_000)}{id}`);
    const first = { steps: 1_000_000 };
    expect(template.test('t://b', first)).toBe(false);
    expect(1_000_000 - first.steps, 'the first test reads the whole template').toBeGreaterThanOrEqual(100_000);
    const second = { steps: 1_000_000 };
    expect(template.test('t://b', second)).toBe(false);
    expect(1_000_000 - second.steps, 'compiled once').toBeLessThan(100);
    expect(template.test(`t://${'a'.repeat(100_000)}x`)).toBe(true);
  });

  it('of more templates than a budget compiles stops there: 64 MB of templates never compile on one read', () => {
    // 2,000 templates of 4,000 characters (8 MB): a read that reaches them all compiles what the budget allows.
    const templates = Array.from({ length: 2_000 }, (_, i) => ({ uriTemplate: `${'{/a}'.repeat(1_000)}z${i}`, name: `t${i}` }));
    const index = buildResourceIndex([{ name: 'many', primitives: { prompts: [], resources: [], templates } }]);
    const routing = { resources: () => index, upstreams: new Map([['many', {} as never]]) };
    expect(resourceOwner(routing as never, 'x')).toBeUndefined();
    // A template compiled by that read costs no more than its states to test again: count them.
    const compiled = index.matchers.filter((matcher) => {
      const budget = { steps: 1_000_000 };
      matcher.pattern.test('x', budget);
      return 1_000_000 - budget.steps < 4_000;
    }).length;
    expect(compiled).toBeGreaterThan(0);
    expect(compiled).toBeLessThanOrEqual(Math.ceil(TEMPLATE_STEP_BUDGET / 4_000));
  });
});
