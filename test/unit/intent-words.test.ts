import { describe, expect, it } from 'vitest';
import type { ResolvedMode } from '../../src/config/resolve.js';
import { resolveIntent, unclearIntentText, type IntentMatch } from '../../src/search/intent.js';

/** Intent from words alone, on made-up modes: how names and aliases are found in a phrase. */

const mode = (name: string, aliases: string[], description: string): ResolvedMode => ({ name, aliases, description, tasks: [], groups: [], readOnly: false, budget: undefined, maxBudget: undefined, fit: true, fill: false, pin: [], lean: undefined });
const MODES = [
  mode('operations', ['incident', 'on call'], 'Run production'),
  mode('analytics', ['dashboard'], 'Answer questions with data'),
  mode('debugging', ['network requests'], 'Find and fix bugs'),
  mode('content', ['cms'], 'Open, create, add, make and draft new pages'),
];

describe('intent from words', () => {
  it('finds an alias whole in the plural too: "open incidents" names the alias "incident"', () => {
    expect(resolveIntent('any open incidents?', MODES).mode).toBe('operations');
    expect(resolveIntent('show me the dashboards', MODES).mode).toBe('analytics');
  });

  it('keeps an alias\'s small words: "on call" is not any "call"', () => {
    expect(resolveIntent('who is on call tonight?', MODES).mode).toBe('operations');
    expect(resolveIntent('which API calls fail? list the network requests', MODES).mode).toBe('debugging');
    expect(resolveIntent('which API calls fail?', MODES).mode).toBeNull();
  });
});

describe('the answer to an unclear phrase', () => {
  // Names of 64 characters (the rc's most), descriptions past a headline, a phrase of 100,000.
  const many = Array.from({ length: 3_000 }, (_, i) => mode(`m${i}_${'x'.repeat(58)}`.slice(0, 64), [], `${'telling words '.repeat(20)}`));
  const phrase = 'q'.repeat(100_000);

  it('stays within its bound whatever the modes and the phrase: whole lines, then how many more', () => {
    const text = unclearIntentText(phrase, resolveIntent(phrase, many), many, 1_500);
    expect(text.length).toBeLessThanOrEqual(1_500);
    expect(text).toMatch(/\n… and \d+ more modes\.$/);
  });

  it('keeps its first two lines under 700 characters, even under a smaller bound', () => {
    const match: IntentMatch = { mode: null, confidence: 0.21, alternatives: many.slice(0, 3).map((m) => ({ mode: m.name, confidence: 0.12 })) };
    const text = unclearIntentText(phrase, match, many, 0);
    expect(text.length).toBeLessThan(700);
    expect(text).toMatch(/^Not sure which mode fits "q{200}…/);
    expect(text).toMatch(/\n… and 3000 more modes\.$/);
  });
});
