import { McpServer } from '@modelcontextprotocol/server';
import { LoggingMessageNotificationSchema, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { LineReader } from '../../src/protocol/lines.js';
import { MAX_MESSAGE_DEPTH, nestedDeeperThan } from '../../src/util/bounds.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, text } from '../harness/index.js';

/**
 * A whole message nested over MAX_MESSAGE_DEPTH levels is refused where it comes in: read from a
 * line (a stdio client or upstream), or from an upstream over any other transport, whose answer
 * the gateway would serialize again (JSON.stringify overflowed the stack from about 5,000 levels).
 * The e2e side (the real gateway over stdio and HTTP) is test/e2e/nesting-bounds.test.ts.
 */

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 1; i < levels; i++) value = [value];
  return value;
};

const cleanups = cleanupAfterEach();

describe('message depth', () => {
  it('nestedDeeperThan counts objects and arrays, scalars not, in a walk that does not recurse', () => {
    expect(nestedDeeperThan('text', 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestedDeeperThan(nested(1_000_000), MAX_MESSAGE_DEPTH)).toBe(true);
  });

  it('a line nested too deep gets an error for its id; one within the bound is read', () => {
    const messages: JSONRPCMessage[] = [];
    const replies: unknown[] = [];
    const lines = new LineReader((message) => messages.push(message), (reply) => replies.push(reply));
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    lines.push(Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":${deep}}}}\n`));
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: `Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep` } }]);
    const within = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'x', arguments: { a: nested(MAX_MESSAGE_DEPTH - 5) } } });
    lines.push(Buffer.from(`${within}\n`));
    expect(messages.map((message) => (message as { id?: unknown }).id)).toEqual([8]);
  });

  it('an upstream over another transport: a too-deep answer fails its call, a too-deep log line is dropped', async () => {
    const config = resolveConfig({ groups: { notes: { servers: ['notes'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const notes = new McpServer({ name: 'notes', version: '1.0.0' }, { capabilities: { logging: {} } });
    const tool = { inputSchema: z.object({}), annotations: { readOnlyHint: true } };
    notes.registerTool('deep_note', { description: 'Read a deep note.', ...tool }, () => ({ content: [{ type: 'text', text: 'deep' }], structuredContent: { d: nested(5_000) } }));
    notes.registerTool('log_note', { description: 'Log a note.', ...tool }, async () => {
      await notes.server.sendLoggingMessage({ level: 'info', data: nested(5_000) });
      await notes.server.sendLoggingMessage({ level: 'info', data: 'shallow' });
      return { content: [{ type: 'text', text: 'logged' }] };
    });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', notes)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const logs: unknown[] = [];
    const client = await inMemoryClient((t) => gateway.createSession({}).connect(t), {
      name: 'nesting-bounds',
      cleanups,
      prepare: (c) => c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data)),
    });
    const failed = (await client.callTool({ name: 'deep_note', arguments: {} })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain(`upstream "notes" sent a message nested more than ${MAX_MESSAGE_DEPTH} levels deep`);
    expect(text((await client.callTool({ name: 'log_note', arguments: {} })) as CallToolResult)).toBe('logged');
    expect(logs).toEqual(['shallow']);
  });
});
