import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { resolveIntent } from '../../src/search/intent.js';
import { ROOT } from '../harness/index.js';

interface Phrase {
  phrase: string;
  modes: string[];
  split: 'dev' | 'test';
}
const { phrases } = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/tasks/intent-phrases.json'), 'utf8')) as { phrases: Phrase[] };
const modes = Object.values(resolveConfig({}).modes);

describe('intent to mode on task-like phrases (focus_mode {intent}, lazytools mode)', () => {
  it.each([
    ['why is the payments pod restarting?', ['debugging', 'operations']],
    ['take a screenshot of the pricing page', ['browser_testing', 'development']],
  ])('"%s" picks %j', (phrase, fitting) => {
    expect(fitting).toContain(resolveIntent(phrase, modes).mode);
  });

  it.each(['dev', 'test'] as const)('picks a fitting mode for most %s phrases (dev tuned, test held out)', (split) => {
    const set = phrases.filter((p) => p.split === split);
    const wrong = set.filter((p) => !p.modes.includes(resolveIntent(p.phrase, modes).mode ?? '')).map((p) => `${p.phrase} -> ${resolveIntent(p.phrase, modes).mode}`);
    // The figures: bench/fit.mjs (BENCHMARKS.md, intent to mode by split).
    expect(set.length).toBeGreaterThanOrEqual(20);
    expect((set.length - wrong.length) / set.length, wrong.join('; ')).toBeGreaterThanOrEqual(split === 'dev' ? 0.9 : 0.75);
  });
});
