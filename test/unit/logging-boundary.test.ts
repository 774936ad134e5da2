import { McpServer } from '@modelcontextprotocol/server';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream } from '../harness/index.js';

/**
 * A server's log messages that no call caused go to every session: under a bearer token only to
 * the sessions whose modes reach that server, as its prompts, resources and instructions do. A
 * token of mode `notes` received the `vault` server's log lines (fails on the old main).
 */

const cleanups = cleanupAfterEach();

function loggingApp(tool: string): McpServer {
  const server = new McpServer({ name: tool, version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool(tool, { description: `${tool.replace('_', ' ')}.`, inputSchema: z.object({}), annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: tool }] }));
  return server;
}

describe('upstream log messages and a bearer token', () => {
  it('a log line of a server outside the token\'s modes reaches only sessions that may use that server', async () => {
    const config = resolveConfig({
      groups: { notes: { servers: ['notes'] }, vault: { servers: ['vault'] } },
      modes: { notes: { groups: ['notes'] }, vault: { groups: ['vault'] } },
      defaultMode: 'notes',
      strategy: 'hybrid',
    });
    const notes = loggingApp('read_note');
    const vault = loggingApp('open_vault');
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', notes), inProcessUpstream('vault', vault)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    let heard!: () => void;
    const adminHeard = new Promise<void>((resolve) => (heard = resolve));
    const open = (boundary?: ReturnType<typeof boundaryOf>) => {
      const logs: unknown[] = [];
      const client = inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), {
        name: 'logging-boundary',
        cleanups,
        prepare: (c) =>
          c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
            logs.push(n.params.data);
            if (!boundary && n.params.data === 'notes: indexed') heard();
          }),
      });
      return { client, logs };
    };
    const token = open(boundaryOf({ tokenModes: ['notes'], tokenLabel: 'ci' }));
    const admin = open();
    const [bounded] = await Promise.all([token.client, admin.client]);
    await vault.server.sendLoggingMessage({ level: 'info', data: 'vault: rotated the root key' });
    await notes.server.sendLoggingMessage({ level: 'info', data: 'notes: indexed' });
    await adminHeard;
    // The token's session was written to in the same turn; a round trip on its transport flushes it.
    await bounded.ping();
    expect(admin.logs).toEqual(expect.arrayContaining(['vault: rotated the root key', 'notes: indexed']));
    expect(token.logs).toEqual(['notes: indexed']);
  });
});
