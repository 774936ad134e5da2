import { describe, expect, it } from 'vitest';
import { expandQuery, stem } from '../../src/search/text.js';

/**
 * How search reads a query as people type it: function words and negations name nothing, and a
 * light verb's synonyms weigh as little as the verb.
 */

describe('query words', () => {
  const terms = (query: string) => expandQuery(query).map((e) => e.term);

  it('drops pronouns, auxiliaries, negations and contraction leftovers: they name no tool', () => {
    const got = terms("the customer didn't see it, did they tell me why it was not sent?");
    for (const word of ['didn', 't', 'did', 'they', 'me', 'was', 'not']) expect(got, word).not.toContain(stem(word));
    expect(got).toContain(stem('customer'));
    expect(got).toContain(stem('sent'));
  });

  it('weighs a light verb\'s synonyms as little as the verb', () => {
    const weight = (query: string, term: string) => expandQuery(query).find((e) => e.term === stem(term))?.weight;
    // "see" is a light verb (half weight): "view", its synonym, weighs half of a full word's synonym.
    expect(weight('see the invoices', 'see')).toBe(0.5);
    expect(weight('see the invoices', 'view')).toBeCloseTo(0.35);
    expect(weight('read the invoices', 'view')).toBeCloseTo(0.7);
  });
});
