import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';

/**
 * A reload (serve --watch) that removes a server from the rc: the server's lock entry no longer
 * stands in for it. Before, its tools stayed listed and searchable from the lock, and every call
 * answered "not configured".
 */
const object = { type: 'object' as const };
const locked = [
  { server: 'memory', tools: [{ name: 'create_entities', description: 'Create entities.', inputSchema: object }] },
  { server: 'notes', tools: [{ name: 'add_note', description: 'Add a note.', inputSchema: object }] },
];
// Never started: a server on the lock starts on its first call, and no call is made here.
const server = { command: process.execPath, args: ['-e', ''] };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('Gateway.reload and the lock', () => {
  it('drops the lock stand-in of a server the new rc no longer names, and keeps the others', async () => {
    const config = (servers: Record<string, unknown>) => resolveConfig(parseConfig({ servers, defaultMode: 'all' }));
    const gateway = new Gateway({ config: config({ memory: server, notes: server }), locked, logger: quiet });
    try {
      await gateway.start();
      expect(gateway.catalog.tools.map((tool) => tool.id).sort()).toEqual(['memory:create_entities', 'notes:add_note']);
      await gateway.reload(config({ notes: server }));
      expect(gateway.catalog.tools.map((tool) => tool.id)).toEqual(['notes:add_note']);
    } finally {
      await gateway.close();
    }
  });

  it('serves no lock stand-in for a server the rc keeps with disabled: true, at start or after a reload', async () => {
    const config = (servers: Record<string, unknown>) => resolveConfig(parseConfig({ servers, defaultMode: 'all' }));
    // Before, its locked tools were listed and searchable, and every call answered "not configured".
    const gateway = new Gateway({ config: config({ memory: server, notes: { ...server, disabled: true } }), locked, logger: quiet });
    try {
      await gateway.start();
      expect(gateway.catalog.tools.map((tool) => tool.id)).toEqual(['memory:create_entities']);
      await gateway.reload(config({ memory: { ...server, disabled: true }, notes: server }));
      expect(gateway.catalog.tools.map((tool) => tool.id)).toEqual(['notes:add_note']);
    } finally {
      await gateway.close();
    }
  });
});

