import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { expandQuery, stem } from '../../src/search/text.js';
import { readVocabulary, searchVocabulary, vocabularyFolder } from '../../src/search/vocabulary.js';
import { ConfigError } from '../../src/util/errors.js';
import { tempTree } from '../harness/projects.js';

/**
 * Related words (vocabulary/search/related.json, src/search/related.ts): an everyday word a
 * catalog has nowhere ("bought") is read as what tools say for it ("order purchase"); a catalog
 * that has the word is searched by the word alone.
 */

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } });
const fillers = ['invoices', 'coupons', 'refunds', 'shipments', 'reviews', 'carts', 'payouts'];
const shop = [tool('get_customer_orders', "Retrieve a customer's orders"), tool('list_products', 'List the products of the store'), ...fillers.map((what) => tool(`list_${what}`, `List ${what}`))];

function index(tools: ReturnType<typeof tool>[]): SearchIndex {
  const { catalog } = buildCatalog(parseCatalog({ servers: { shop: { tools } } }), resolveConfig({}));
  return new SearchIndex(catalog.tools, catalog.groups);
}

describe('related words', () => {
  it('reads a word the catalog lacks as its related words, standing for it', () => {
    const lacking = expandQuery('what has tom bought before', undefined, (term) => term !== 'bought');
    expect(lacking.find((e) => e.term === 'order')).toMatchObject({ weight: 0.75, of: ['bought'] });
    expect(lacking.find((e) => e.term === 'purchas')).toMatchObject({ weight: 0.75, of: ['bought'] });
    // The catalog has the word, or no catalog is asked (intent, a task's verbs): the word alone.
    for (const known of [() => true, undefined]) expect(expandQuery('what has tom bought before', undefined, known).some((e) => e.term === 'order')).toBe(false);
  });

  it('finds the orders tool for what a customer bought in a catalog that never says bought', () => {
    expect(index(shop).search('what has tom bought from us before', { limit: 1 }).map((hit) => hit.tool.id)).toEqual(['shop:get_customer_orders']);
    // A mode's fitting (steps: false) ranks as it was tuned: by the words as said.
    expect(index(shop).search('what has tom bought from us before', { limit: 1, steps: false })).toEqual([]);
  });

  it('leaves a catalog that says the word to the tools that say it', () => {
    const hits = index([...shop, tool('list_bought_items', 'Items a customer bought')]).search('what has tom bought from us before', { limit: 5 });
    expect(hits.map((hit) => hit.tool.id)).toEqual(['shop:list_bought_items']);
  });

  // Per entry: a task with the everyday word, in a catalog that never says it, reaches the tool that does what it means.
  const office = [
    tool('transcribe_audio', 'Transcribe speech in an audio recording to text'),
    tool('cancel_envelope', 'Cancel an envelope so it can no longer be signed'),
    tool('resend_envelope', 'Resend an envelope to its recipients as a reminder'),
    tool('update_recipient', 'Update a recipient of an envelope: name and email'),
    tool('find_agreements', 'Find agreement documents by title or counterparty'),
    tool('restart_addon', 'Restart an add-on that stopped answering'),
    tool('start_addon', 'Start an add-on that is not running'),
    ...fillers.map((what) => tool(`list_${what}`, `List ${what}`)),
  ];
  it.each([
    ['dictate my practice answer so I can read it back', 'transcribe_audio'],
    ['void the one for Umbrella', 'cancel_envelope'],
    ['nudge the board members about the consent form', 'resend_envelope'],
    ['swap the signer from Tom to his deputy', 'update_recipient'],
    ['where is the NDA with Fabrikam', 'find_agreements'],
    ['zigbee2mqtt looks dead, kick it', 'restart_addon'],
    // "kick off" is an idiom for start (idioms.json), read before the related word.
    ['kick off the zigbee2mqtt addon', 'start_addon'],
  ])('reads "%s" in a catalog that lacks its word: %s', (query, name) => {
    expect(index(office).search(query, { limit: 1 }).map((hit) => hit.tool.name)).toEqual([name]);
  });

  it('keeps related words as data: lowercase words, none a stopword, each with a reason', () => {
    const { related, stopwords } = searchVocabulary();
    expect(related.get('spend')).toBe('expense cost');
    for (const [word, means] of related) {
      expect(stopwords.has(word), word).toBe(false);
      for (const other of means.split(' ')) expect(stopwords.has(other) || stem(other) === stem(word), `${word}: ${other}`).toBe(false);
    }
  });

  it('refuses a reading that is no lowercase words, naming the file and the entry', () => {
    const copy = tempTree({});
    cpSync(vocabularyFolder(), copy, { recursive: true });
    const file = path.join(copy, 'related.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] };
    json.entries.push({ words: ['bought'], means: 'Orders!', reason: 'a reading that is not words' });
    writeFileSync(file, JSON.stringify(json));
    expect(() => readVocabulary(copy)).toThrow(ConfigError);
    expect(() => readVocabulary(copy)).toThrow(new RegExp(`related\\.json[\\s\\S]*entries\\[${json.entries.length - 1}\\]\\.means`));
  });
});
