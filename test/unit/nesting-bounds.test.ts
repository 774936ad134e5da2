import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/server';
import { LoggingMessageNotificationSchema, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { StdioFrontTransport } from '../../src/transports/stdio.js';
import { SHALLOW_TEXT, tooDeep } from '../../src/protocol/jsonrpc.js';
import { MAX_MESSAGE_DEPTH, nestedDeeperThan } from '../../src/util/bounds.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, text } from '../harness/index.js';

/**
 * A whole message nested over MAX_MESSAGE_DEPTH levels is refused where it comes in (a stdio
 * client's line, an HTTP body, any upstream's message but answers to the SDK's own list requests,
 * whose entries are admitted one by one): passed on, it would be serialized again, and
 * JSON.stringify overflowed the stack from about 5,000 levels.
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

  it('tooDeep skips the walk only for a text too short to nest past the bound: the shortest too-deep text is SHALLOW_TEXT long', () => {
    const brackets = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const over = brackets(MAX_MESSAGE_DEPTH + 1);
    expect(over.length).toBe(SHALLOW_TEXT);
    expect(tooDeep(JSON.parse(over), over.length)).toBe(`Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep`);
    // Objects take brackets too (and a key each), whitespace only adds length.
    const objects = `${'{"a":'.repeat(MAX_MESSAGE_DEPTH + 1)}1${'}'.repeat(MAX_MESSAGE_DEPTH + 1)}`;
    expect(objects.length).toBeGreaterThan(SHALLOW_TEXT);
    expect(tooDeep(JSON.parse(objects), objects.length)).toBeDefined();
    const within = brackets(MAX_MESSAGE_DEPTH);
    expect(within.length).toBeLessThan(SHALLOW_TEXT);
    expect(tooDeep(JSON.parse(within), within.length)).toBeUndefined();
    expect(tooDeep(JSON.parse(within))).toBeUndefined();
    // Without a text length the walk decides, as before.
    expect(tooDeep(JSON.parse(over))).toBeDefined();
  });

  it('a stdio client\'s message nested too deep gets an error for its id; one within the bound is read', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioFrontTransport(input, output);
    const messages: JSONRPCMessage[] = [];
    const lastRead = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        messages.push(message as JSONRPCMessage);
        if ((message as { id?: unknown }).id === 8) resolve();
      };
    });
    await transport.start();
    cleanups.push(() => transport.close());
    const answered = new Promise<string>((resolve) => output.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const within = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'x', arguments: { a: nested(MAX_MESSAGE_DEPTH - 5) } } });
    input.write(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":${deep}}}}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"x":${deep}}}\n${within}\n`);
    await lastRead;
    expect(messages.map((message) => (message as { id?: unknown }).id)).toEqual([8]);
    expect(JSON.parse(await answered)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: `Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep` } });
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
