import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/front/curate.js';
import { PAGE_MAX_BYTES } from '../../src/handlers/paging.js';
import { serveHttp } from '../../src/front/http.js';
import { MAX_MIRRORED_PARAM } from '../../src/front/http-modern.js';
import { MAX_URI_ECHO } from '../../src/protocol/errors.js';
import { cleanupAfterEach, modernMeta, rawPost } from '../harness/index.js';

/**
 * What a client sends is never echoed unbounded. On the old main a 2026-07-28 resources/read of an
 * unknown 2 MB URI answered 4 MB (the URI whole in the message and in data.uri), and describe_tools
 * with 60,000 unknown names answered 4.46 MB, over the documented 1 MiB.
 */

const cleanups = cleanupAfterEach();

async function front(): Promise<string> {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
  app.registerResource('note', 'notes://one', { description: 'One note.' }, () => ({ contents: [{ uri: 'notes://one', text: 'one' }] }));
  const curated = await curate(app, { name: 'notes', config: { defaultMode: 'all', strategy: 'proxy' } });
  const http = await serveHttp(curated.gateway, { port: 0 });
  cleanups.push(() => curated.close(), () => http.close());
  return http.url;
}

const modern = (url: string, method: string, params: Record<string, unknown>, name?: string) =>
  rawPost(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } }), {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  });

describe('bounded echoes', () => {
  it('a 2026-07-28 resources/read of an unknown 2 MB URI answers in a few hundred bytes; a 5,000-character one has it cut in the message and data.uri', async () => {
    const url = await front();
    const huge = await modern(url, 'resources/read', { uri: `notes://${'x'.repeat(2 * 1024 * 1024)}` });
    expect(huge.status).toBe(400);
    expect(Buffer.byteLength(huge.body)).toBeLessThan(500);
    expect(huge.body).toContain(`params.uri is over ${MAX_MIRRORED_PARAM} characters`);
    const uri = `notes://${'y'.repeat(5_000)}`;
    const answer = await modern(url, 'resources/read', { uri }, uri);
    expect(Buffer.byteLength(answer.body)).toBeLessThan(MAX_URI_ECHO + 1_000);
    const error = (JSON.parse(answer.body) as { error: { message: string; data: { uri: string } } }).error;
    expect(error.message).toMatch(/Resource not found: no server lists "notes:\/\/y+… \[name cut by lazytools at 200 characters\]"/);
    expect(error.data.uri.startsWith(uri.slice(0, MAX_URI_ECHO))).toBe(true);
    expect(error.data.uri.length).toBeLessThan(MAX_URI_ECHO + 100);
  });

  it('describe_tools with 60,000 unknown names answers under 1 MiB, naming what it left out', async () => {
    const url = await front();
    const names = Array.from({ length: 60_000 }, (_, i) => `missing_tool_${i}`);
    const answer = await modern(url, 'tools/call', { name: 'describe_tools', arguments: { names } }, 'describe_tools');
    const text = (JSON.parse(answer.body) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
    // The bound is the model's text; the JSON-RPC envelope escapes its quotes on the wire.
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    const body = JSON.parse(text) as { tools: Array<{ name: string }>; notDescribed: string[]; note: string };
    expect(body.tools[0]).toMatchObject({ name: 'missing_tool_0', error: 'unknown tool' });
    expect(body.notDescribed[0]).toBe(`missing_tool_${body.tools.length}`);
    const after = Number(/and the (\d+) names after them/.exec(body.note)?.[1]);
    expect(body.tools.length + body.notDescribed.length + after).toBe(60_000);
  });
});
