import { describe, expect, it } from 'vitest';
import type { ResolvedMode } from '../../src/config/resolve.js';
import { resolveIntent } from '../../src/search/intent.js';

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
