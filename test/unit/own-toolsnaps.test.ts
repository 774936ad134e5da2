import path from 'node:path';
import { describe, it } from 'vitest';
import { ownTools } from '../../src/catalog/own-tools.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { countToolsTokens } from '../../src/util/tokens.js';
import { matchToolsnap } from '../harness/index.js';

const SNAPS = path.join(import.meta.dirname, '__toolsnaps__', 'own');

/**
 * lazytools' own tools as each strategy lists them over the preset modes (what every client pays
 * for on every turn), with their o200k tokens: any change to a description, a schema (derived from
 * catalog/own-args.ts) or the modes focus_mode names shows here first.
 */
describe('own tools per strategy (toolsnaps)', () => {
  const modes = Object.values(resolveConfig({}).modes);
  it.each(['notify', 'hybrid', 'proxy'] as const)('%s', (strategy) => {
    const tools = ownTools(strategy, modes);
    matchToolsnap(path.join(SNAPS, `${strategy}.snap`), { strategy, tokens: countToolsTokens(tools), tools });
  });
});
