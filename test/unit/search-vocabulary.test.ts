import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { cleanQuery } from '../../src/search/query.js';
import { expandQuery, stem } from '../../src/search/text.js';
import { readVocabulary, searchVocabulary, vocabularyFolder } from '../../src/search/vocabulary.js';
import { ConfigError } from '../../src/util/errors.js';
import { CATALOGS } from '../harness/index.js';
import { tempTree } from '../harness/projects.js';

/** The search word lists are reviewed data: one file per kind, a reason on every entry. */

const dir = vocabularyFolder();
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
const raw = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { note: string; entries: Array<Record<string, unknown>> };

describe('search vocabulary', () => {
  it('gives every entry of every file a reason, and every file a note', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const json = raw(file);
      expect(json.note.length, file).toBeGreaterThan(20);
      for (const entry of json.entries) expect(typeof entry.reason === 'string' && entry.reason.trim().length >= 8, `${file}: ${JSON.stringify(entry)}`).toBe(true);
    }
  });

  it('loads what the engine reads: stopwords, idioms, synonyms, action verbs', () => {
    const vocabulary = searchVocabulary();
    expect(vocabulary.stopwords.has('the')).toBe(true);
    expect(vocabulary.idioms).toContainEqual(['log in', 'login']);
    expect(vocabulary.synonyms.some((set) => set.includes('pull request') && set.includes('pr'))).toBe(true);
    expect(vocabulary.actions.destroy).toContain('delete');
  });

  it('names no tool of a known server: knowledge about words, not about fixtures', () => {
    // The rule of the server-names check: names of 6+ characters with _, - or a capital mean one server.
    const names = new Set<string>();
    for (const file of readdirSync(CATALOGS).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(path.join(CATALOGS, file), 'utf8')) as { servers: Record<string, { tools: Array<{ name: string }> }> };
      for (const server of Object.values(json.servers)) for (const tool of server.tools) if (tool.name.length >= 6 && /[_\-A-Z]/.test(tool.name)) names.add(tool.name.toLowerCase());
    }
    expect(names.size).toBeGreaterThan(500);
    for (const file of files) {
      const text = JSON.stringify(raw(file).entries).toLowerCase();
      const found = [...names].filter((name) => new RegExp(`(^|[^a-z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_-]|$)`).test(text));
      expect(found, file).toEqual([]);
    }
  });

  it('refuses an entry without a reason, naming the file and the entry', () => {
    const copy = tempTree({});
    cpSync(dir, copy, { recursive: true });
    const synonyms = raw('synonyms.json');
    synonyms.entries.push({ set: ['invoice', 'bill'] });
    writeFileSync(path.join(copy, 'synonyms.json'), JSON.stringify(synonyms));
    expect(() => readVocabulary(copy)).toThrow(ConfigError);
    expect(() => readVocabulary(copy)).toThrow(new RegExp(`synonyms\\.json[\\s\\S]*entries\\[${synonyms.entries.length - 1}\\]\\.reason`));
  });
});

/** A catalog of made-up servers whose words are not the words people type. */
function syntheticIndex(): SearchIndex {
  const tool = (name: string, description: string, write = false) => ({ name, description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: !write } });
  const sources = parseCatalog({
    servers: {
      payments: { tools: [tool('list_disputes', 'List disputes opened by card holders against payments'), tool('list_payments', 'List payments'), tool('create_refund', 'Refund a payment', true)] },
      mail: { tools: [tool('send_email', 'Send an email message to recipients', true), tool('list_emails', 'List emails in the mailbox'), tool('get_email', 'Get one email by id')] },
      phone: { tools: [tool('send_sms', 'Send an SMS to a phone number', true), tool('list_calls', 'List phone calls')] },
      alerts: { tools: [tool('create_mute', 'Mute a monitor for a time window', true), tool('list_monitors', 'List monitors and their alert state'), tool('create_monitor', 'Create a monitor that alerts', true)] },
      analytics: { tools: [tool('run_query', 'Run a saved question, such as weekly active users per cohort'), tool('list_dashboards', 'List dashboards')] },
      docs: { tools: [tool('create_document', 'Create a new document', true), tool('append_to_document', 'Append text to a document', true), tool('list_documents', 'List documents')] },
    },
  });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  return new SearchIndex(catalog.tools, catalog.groups);
}

describe('search vocabulary at work (synthetic servers, words nobody listed for them)', () => {
  const index = syntheticIndex();
  const top = (query: string) => index.search(query, { limit: 1 })[0]?.tool.id;

  it('reaches a tool through a domain synonym: chargebacks are disputes, silencing an alert mutes it, WAU is weekly active users', () => {
    expect(top('show me this week\'s chargebacks')).toBe('payments:list_disputes');
    expect(top('silence the disk alerts on db-2 for an hour')).toBe('alerts:create_mute');
    expect(top('WAU for last month')).toBe('analytics:run_query');
  });

  it('reads a request\'s lead word as its verb: "email Sam" sends an email, "text the driver" sends an SMS', () => {
    expect(top('email sam the weekly report')).toBe('mail:send_email');
    expect(top('please text the driver that the pickup moved')).toBe('phone:send_sms');
    // The same words later in a request are what it is about, not how to act.
    expect(top('which emails did sam get today')).not.toBe('mail:send_email');
  });

  it('drops email addresses from queries: a person, not the topic', () => {
    expect(cleanQuery('email tom@acme.io the onboarding checklist')).toBe('email the onboarding checklist');
    expect(top('email tom@acme.io the onboarding checklist')).toBe('mail:send_email');
  });

  it('keeps word senses apart: a plan is no request to think, "me" no current-user call', () => {
    const expanded = (query: string) => expandQuery(query).map((e) => e.term);
    expect(expanded('show the terraform plan for staging')).not.toContain(stem('think'));
    expect(expanded('email tom the checklist and cc me')).not.toContain(stem('logged'));
  });

  it('reads "write up" as drafting something new', () => {
    expect(top('write up the refund policy as a doc')).toBe('docs:create_document');
  });
});

describe('search vocabulary at work: words tasks use where tools say otherwise', () => {
  const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
  const sources = parseCatalog({
    servers: {
      books: { tools: [tool('get_profit_loss', 'Profit and loss statement for a period'), tool('get_balance_sheet', 'Balance sheet at a date'), tool('list_aged_receivables', 'Receivables by how long they are unpaid')] },
      desk: { tools: [tool('list_tickets', 'List support tickets, newest first'), tool('list_agents', 'List the agents of the team')] },
      chain: { tools: [tool('get_transaction', 'Get a transaction by its hash'), tool('get_block', 'Get a block by number'), tool('get_balance', 'Get the native balance of an address')] },
      weather: { tools: [tool('get_alerts', 'Active weather alerts for a state'), tool('get_forecast', 'Forecast for a place')] },
    },
  });
  const { catalog } = buildCatalog(sources, resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const top = (query: string) => index.search(query, { limit: 1 })[0]?.tool.id;

  it('reads P&L, tx and "who owes us" as the statement, transaction and receivables they name', () => {
    expect(top('P&L for Q3 vs Q2')).toBe('books:get_profit_loss');
    expect(top('did my transfer go thru? tx 0x9f2c4e1d')).toBe('chain:get_transaction');
    expect(top('who owes us money?')).toBe('books:list_aged_receivables');
  });

  it('reads a helpdesk queue as its tickets and a storm warning as a weather alert', () => {
    expect(top("morning, what's in my helpdesk queue?")).toBe('desk:list_tickets');
    expect(top('any storm warnings in florida?')).toBe('weather:get_alerts');
  });
});
