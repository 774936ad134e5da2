import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { cleanupAfterEach, deferred, inProcessUpstream } from '../harness/index.js';

/**
 * The relay keeps a session's requests in flight by the client's id, at most MAX_INFLIGHT. A
 * client that reused an id still in flight replaced the first entry: that call ran on upstream
 * unanswered and uncounted, so one session could put any number of calls on an upstream past the
 * bound (fails on the old main). A request reusing an id in flight is now refused, not relayed.
 */

const cleanups = cleanupAfterEach();

describe('relayed requests keep their ids apart', () => {
  it('a second request on an id still in flight is refused and never reaches the upstream', async () => {
    const config = resolveConfig({ groups: { notes: { servers: ['notes'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const notes = new McpServer({ name: 'notes', version: '1.0.0' });
    const gate = deferred();
    let calls = 0;
    const arrived = deferred();
    notes.registerTool('wait_note', { description: 'Wait for a note.', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => {
      calls++;
      arrived.resolve();
      await gate.promise;
      return { content: [{ type: 'text', text: `call ${calls}` }] };
    });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', notes)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const [client, server] = InMemoryTransport.createLinkedPair();
    await gateway.createSession({}).connect(server);
    const answers: Array<{ id?: unknown; error?: { code: number; message: string }; result?: unknown }> = [];
    const waiters = new Map<unknown, () => void>();
    client.onmessage = (message) => {
      if (!('id' in message)) return;
      answers.push(message as (typeof answers)[number]);
      if (!('error' in message)) waiters.get(message.id)?.();
    };
    const answerTo = (id: number) => new Promise<void>((resolve) => waiters.set(id, resolve));
    await client.start();
    cleanups.push(() => client.close());
    const initialized = answerTo(0);
    await client.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await initialized;
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'wait_note', arguments: {} } };
    const done = answerTo(1);
    await client.send(call);
    await arrived.promise;
    await client.send(call);
    // A ping behind it: the refusal, written at once, arrives first.
    const pinged = answerTo(2);
    await client.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await pinged;
    expect(answers.filter((answer) => answer.id === 1)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request: a request with this id is already in flight' } }]);
    gate.resolve();
    await done;
    expect(calls).toBe(1);
    expect(answers.find((answer) => answer.id === 1 && answer.result)).toMatchObject({ result: { content: [{ type: 'text', text: 'call 1' }] } });
  });
});
