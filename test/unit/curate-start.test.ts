import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';

/** A v1 SDK server whose tools/list answers as `list` says (never, or with an error). */
function server(list: () => Promise<never>): Server {
  const app = new Server({ name: 'stuck', version: '1.0.0' }, { capabilities: { tools: {} } });
  app.setRequestHandler(ListToolsRequestSchema, list);
  app.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return app;
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('curate() when the server does not list its tools', () => {
  it('honours the rc startTimeout and says the start timed out', async () => {
    const failure = curate(server(() => new Promise<never>(() => {})), { config: { startTimeout: 300 }, logger: quiet as never });
    await expect(failure).rejects.toThrow('upstream "stuck" gave no answer within the start timeout (300 ms)');
  });

  it('says what the server answered when its list fails', async () => {
    await expect(curate(server(() => Promise.reject(new Error('database is locked'))), { logger: quiet as never })).rejects.toThrow(/database is locked/);
  });
});

describe('curate() when the server will not connect', () => {
  // Its connect() failing was an unhandled rejection: it ended the host process.
  it('fails the start with the server\'s reason when it is already connected elsewhere', async () => {
    const app = server(() => Promise.resolve({ tools: [] } as never));
    await app.connect(InMemoryTransport.createLinkedPair()[1]);
    await expect(curate(app, { name: 'billing', config: { startTimeout: 2_000 }, logger: quiet as never })).rejects.toThrow(/Already connected/);
  });

  it('fails the start when connect() rejects', async () => {
    const broken = { connect: () => Promise.reject(new Error('no database')) };
    await expect(curate(broken, { name: 'billing', config: { startTimeout: 2_000 }, logger: quiet as never })).rejects.toThrow(/no database/);
  });
});


describe('curate() without a name, when the server never finishes connecting', () => {
  // Its serverInfo lookup had no timeout: curate() never settled.
  it('fails after the start timeout, saying why', async () => {
    const stuck = { connect: () => new Promise<void>(() => {}) };
    await expect(curate(stuck, { config: { startTimeout: 300 }, logger: quiet as never })).rejects.toThrow('the server gave no serverInfo within the start timeout (300 ms)');
  });

  it('fails after the start timeout when the server connects but never answers initialize', async () => {
    const silent = { connect: async (transport: { start(): Promise<void> }) => transport.start() };
    await expect(curate(silent as never, { config: { startTimeout: 300 }, logger: quiet as never })).rejects.toThrow('the server gave no serverInfo within the start timeout (300 ms)');
  });
});

describe('curate() server names', () => {
  const listing = () => server(() => Promise.resolve({ tools: [{ name: 'read_note', inputSchema: { type: 'object' } }] } as never));

  // "a:b" split every tool id (a:b:read_note), and a name of any length reached every id.
  it('refuses a name an rc could not hold, saying what a name may be', async () => {
    for (const name of ['a:b', '', '__proto__', 'bad\u001b[31m', 'x'.repeat(65)]) {
      const failure = curate(listing(), { name, logger: quiet as never });
      await expect(failure, JSON.stringify(name.slice(0, 20))).rejects.toThrow(/^name: .* cannot name a server: expected /);
      await expect(failure).rejects.not.toThrow('\u001b');
    }
  });

  // A 100,000-character serverInfo name was repeated in every search answer, once per tool.
  it('names a server "app" when its serverInfo name is not one an rc could hold', async () => {
    const app = new Server({ name: 'x'.repeat(100_000), version: '1.0.0' }, { capabilities: { tools: {} } });
    app.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'read_note', inputSchema: { type: 'object' } }] }));
    const curated = await curate(app, { logger: quiet as never });
    try {
      expect(curated.gateway.catalog.tools.map((tool) => tool.id)).toEqual(['app:read_note']);
    } finally {
      await curated.close();
    }
  });
});
