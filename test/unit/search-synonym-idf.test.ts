import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { expandQuery } from '../../src/search/text.js';

/**
 * A synonym weighs no more than the word it stands for (engine.ts synonymIdf): a word the user
 * typed that is common in the catalog ("order", in every sort option) must not be outranked by a
 * rare synonym of it ("buy", vocabulary/search/synonyms.json) in one unrelated tool.
 */

describe("a synonym's idf is capped at its own word's", () => {
  const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
  const fillers = ['products', 'customers', 'invoices', 'coupons', 'refunds', 'shipments', 'reviews', 'carts', 'payouts', 'returns'];
  const sources = parseCatalog({
    servers: {
      shop: {
        tools: [
          tool('get_orders', 'Retrieve orders for the seller.'),
          tool('checkout_link', 'Make a link where a customer can buy an item.'),
          ...fillers.map((what) => tool(`list_${what}`, `List ${what}, sorted in the given order.`)),
        ],
      },
    },
  });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);

  it('says which own words each synonym term stands for', () => {
    const expansion = expandQuery('the orders of last week');
    expect(expansion.find((e) => e.term === 'order')).toMatchObject({ own: true, weight: 1 });
    expect(expansion.find((e) => e.term === 'buy')).toMatchObject({ of: ['order'] });
    expect(expansion.find((e) => e.term === 'order')?.of).toBeUndefined();
  });

  it('ranks the tool of the typed word first, where the rare synonym alone won uncapped', () => {
    expect(index.search('orders', { limit: 1 }).map((hit) => hit.tool.id)).toEqual(['shop:get_orders']);
    // A mode's fitting (steps: false) keeps the ranking it was tuned with: the synonym's full idf.
    expect(index.search('orders', { limit: 1, steps: false }).map((hit) => hit.tool.id)).toEqual(['shop:checkout_link']);
  });

  it('leaves a synonym of a word the catalog lacks at its own idf', () => {
    // "purchase" is in no tool: its synonym "buy" keeps its full weight and finds the checkout link.
    expect(index.search('purchase', { limit: 1 }).map((hit) => hit.tool.id)).toEqual(['shop:checkout_link']);
  });
});
