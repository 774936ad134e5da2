import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { buildResourceIndex, resourceOwner } from '../../src/handlers/resources.js';
import { compileTemplate, TEMPLATE_STEP_BUDGET } from '../../src/handlers/uri-template.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * An upstream's resource templates are matched against every URI a client reads: what matching
 * and compiling them costs is the gateway's, in its one event loop, whatever the upstream lists.
 * Counted in steps, not timed.
 */

const cleanups = cleanupAfterEach();

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

describe('an upstream template of unclosed braces', () => {
  it('costs reading it once: the client lists templates and reads the other templates\' URIs at once', async () => {
    const app = new Server({ name: 'braces', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
    app.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    // 300,000 unclosed braces, listed first so every read reaches it (its prefix is empty).
    const braces = '{'.repeat(300_000);
    app.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [{ uriTemplate: braces, name: 'braces' }, { uriTemplate: 'note://{id}', name: 'note' }] }));
    app.setRequestHandler(ReadResourceRequestSchema, (request) => ({ contents: [{ uri: request.params.uri, text: `read ${request.params.uri}` }] }));
    const curated = await curate(app, { name: 'braces', config: { defaultMode: 'all' }, strategy: 'hybrid' });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'reader', cleanups });
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.name)).toEqual(['group', 'braces', 'note']);
    expect((await client.readResource({ uri: 'note://1' })).contents).toEqual([{ uri: 'note://1', text: 'read note://1' }]);
    // The template of braces alone matches itself: braces are literal text outside an expression.
    expect(compileTemplate('{{{').test('{{{')).toBe(true);
    expect(compileTemplate('{{{a}').test('{{x')).toBe(true);
  });
});
