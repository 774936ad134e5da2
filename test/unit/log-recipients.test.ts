import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { UNASKED_LEVEL, unsetSessionLevel } from '../../src/handlers/logging.js';
import { cleanupAfterEach, deferred, inMemoryClient, inProcessUpstream, namedToolsApp, notesAndVaultGateway, notesToken } from '../harness/index.js';

/**
 * Who hears an upstream's log line. One that no call caused goes to every session: under a bearer
 * token only to the sessions whose modes reach that server, as its prompts, resources and
 * instructions do (a token of mode `notes` received the `vault` server's log lines: fails on the
 * old main). One sent while calls of two sessions are in flight belongs to one of them: it went
 * to every session, bystanders included (fails on the old main); now to none.
 */

const cleanups = cleanupAfterEach();

const loggingApp = (tool: string) => namedToolsApp({ [tool]: true }, { logging: true });

describe('upstream log lines: who hears them', () => {
  it('a log line of a server outside the token\'s modes reaches only sessions that may use that server', async () => {
    const notes = loggingApp('read_note');
    const vault = loggingApp('open_vault');
    const gateway = await notesAndVaultGateway(notes, vault, cleanups);
    const adminHeard = deferred();
    const open = (boundary?: ReturnType<typeof notesToken>) => {
      const logs: unknown[] = [];
      const client = inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), {
        name: 'logging-boundary',
        cleanups,
        prepare: (c) =>
          c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
            logs.push(n.params.data);
            if (!boundary && n.params.data === 'notes: indexed') adminHeard.resolve();
          }),
      });
      return { client, logs };
    };
    const token = open(notesToken());
    const admin = open();
    const [bounded] = await Promise.all([token.client, admin.client]);
    await vault.server.sendLoggingMessage({ level: 'info', data: 'vault: rotated the root key' });
    await notes.server.sendLoggingMessage({ level: 'info', data: 'notes: indexed' });
    await adminHeard.promise;
    // The token's session was written to in the same turn; a round trip on its transport flushes it.
    await bounded.ping();
    expect(admin.logs).toEqual(expect.arrayContaining(['vault: rotated the root key', 'notes: indexed']));
    expect(token.logs).toEqual(['notes: indexed']);
  });

  it('a line sent while two sessions\' calls are in flight reaches neither a bystander nor a guess', async () => {
    const config = resolveConfig({ groups: { notes: { servers: ['notes'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const notes = loggingApp('read_note');
    const gate = deferred();
    let started = 0;
    const inFlight = deferred();
    notes.registerTool('wait_note', { description: 'Wait for a note.', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => {
      if (++started === 2) inFlight.resolve();
      await gate.promise;
      return { content: [{ type: 'text', text: 'waited' }] };
    });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', notes)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const bystanderHeard = deferred();
    const open = async (name: string) => {
      const logs: unknown[] = [];
      const client = await inMemoryClient((t) => gateway.createSession({}).connect(t), {
        name,
        cleanups,
        prepare: (c) =>
          c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
            logs.push(n.params.data);
            if (name === 'bystander' && n.params.data === 'notes: idle') bystanderHeard.resolve();
          }),
      });
      return { client, logs };
    };
    const [a, b, bystander] = await Promise.all([open('a'), open('b'), open('bystander')]);
    const calls = [a.client.callTool({ name: 'wait_note', arguments: {} }), b.client.callTool({ name: 'wait_note', arguments: {} })];
    await inFlight.promise;
    await notes.server.sendLoggingMessage({ level: 'info', data: 'notes: one of two calls' });
    gate.resolve();
    await Promise.all(calls);
    // With no call in flight, a line is everyone's: the bystander hears it, after the first one.
    await notes.server.sendLoggingMessage({ level: 'info', data: 'notes: idle' });
    await bystanderHeard.promise;
    await Promise.all([a.client.ping(), b.client.ping()]);
    expect(bystander.logs).toEqual(['notes: idle']);
    expect([...a.logs, ...b.logs]).not.toContain('notes: one of two calls');
  });

  it('a token\'s logging/setLevel reaches only the servers of its modes', async () => {
    const levels: Record<'notes' | 'vault', string[]> = { notes: [], vault: [] };
    const app = (name: 'notes' | 'vault', tool: string) => {
      const server = loggingApp(tool);
      server.server.setRequestHandler('logging/setLevel', (request) => {
        levels[name].push(request.params.level);
        return {};
      });
      return server;
    };
    const gateway = await notesAndVaultGateway(app('notes', 'read_note'), app('vault', 'open_vault'), cleanups);
    const client = await inMemoryClient((t) => gateway.createSession({ boundary: notesToken() }).connect(t), { name: 'log-levels', cleanups });
    await client.setLoggingLevel('debug');
    expect(levels).toEqual({ notes: ['debug'], vault: [] });
  });

  it('a session that never set a level is held to UNASKED_LEVEL only on a 2025 server another session made more verbose', () => {
    expect(unsetSessionLevel(undefined, 'legacy')).toBeUndefined();
    expect(unsetSessionLevel('debug', 'legacy')).toBe(UNASKED_LEVEL);
    expect(unsetSessionLevel('debug', undefined)).toBe(UNASKED_LEVEL);
    expect(unsetSessionLevel('info', 'legacy')).toBeUndefined();
    expect(unsetSessionLevel('warning', 'legacy')).toBeUndefined();
    // A 2026-07-28 server is asked for debug until a session sets a level: nothing changed for those that never did.
    expect(unsetSessionLevel('debug', 'modern')).toBeUndefined();
  });
});
