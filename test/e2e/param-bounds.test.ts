import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, rawPost, rcProject, serveHttpCli, startCli, stdoutAnswers, stopAll } from '../harness/index.js';

/**
 * prompts/get with 200,000 number-valued arguments (the SDK's schema wants strings): zod built an
 * issue per entry and a 36 MB message before any handler ran, ~4 s of the event loop for every
 * client, then a 43.8 MiB error lazytools would not send. Past 1,024 keys such a record is refused
 * with -32602 naming its path before the SDK parses, in both eras; a ping sent right after answers
 * (a tools/list in 2026-07-28, which has no ping).
 */

const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const KEYS = 100_000;
const numbers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`a${index}`, index]));
const BIG = numbers(KEYS);
const request = (id: number, method: string, params: Record<string, unknown>, modern: boolean) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: modern ? { ...params, _meta: { ...META, ...(params._meta as object) } } : params });
const initialize = (id: number, capabilities: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } } });
const refusal = (path: string) => ({ error: { code: -32602, message: expect.stringContaining(`params.${path} has more than 1024 keys`) } });

describe('records the SDK checks key by key are bounded before it parses', () => {
  afterEach(() => stopAll());
  const { dir } = rcProject({ servers: { ks: { command: process.execPath, args: [FIXTURES.kitchenSink] } } });

  for (const era of ['2025', MODERN]) {
    const modern = era === MODERN;
    it(`stdio, ${era}: refused with -32602, and a ping right after answers`, async () => {
      const cli = startCli(['serve'], { cwd: dir });
      const answer = stdoutAnswers(cli);
      const write = (line: string) => cli.child.stdin.write(`${line}\n`);
      if (modern) {
        // Client capabilities ride on every 2026-07-28 request's _meta.
        write(request(1, 'ping', { _meta: { 'io.modelcontextprotocol/clientCapabilities': { experimental: BIG } } }, true));
        expect(await answer(1)).toMatchObject(refusal('_meta["io.modelcontextprotocol/clientCapabilities"].experimental'));
      } else {
        write(initialize(1, { extensions: BIG }));
        expect(await answer(1)).toMatchObject(refusal('capabilities.extensions'));
        write(initialize(0, {}));
        await answer(0);
        write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      }
      const cases = [
        { method: 'prompts/get', params: { name: 'greet', arguments: BIG }, path: 'arguments' },
        { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' }, context: { arguments: BIG } }, path: 'context.arguments' },
      ];
      for (const [index, { method, params, path }] of cases.entries()) {
        const id = 10 * (index + 1);
        write(request(id, method, params, modern));
        // 2026-07-28 has no ping: a tools/list stands in for it.
        write(request(id + 1, modern ? 'tools/list' : 'ping', {}, modern));
        const [refused, pong] = await Promise.all([answer(id), answer(id + 1)]);
        expect(refused).toMatchObject(refusal(path));
        expect(pong).toMatchObject({ id: id + 1, result: modern ? { tools: expect.any(Array) } : {} });
      }
      // At the bound, the request is the SDK's as before (its own complaint about the values).
      write(request(40, 'prompts/get', { name: 'greet', arguments: numbers(1024) }, modern));
      expect(JSON.stringify(await answer(40))).not.toContain('more than 1024 keys');
    });
  }

  it('HTTP, 2025 session: refused with -32602, and a ping right after answers', async () => {
    const { url } = await serveHttpCli([], { cwd: dir });
    const opened = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize(0, {}) });
    const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    await opened.text();
    await rawPost(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
    const sse = (body: string) => JSON.parse(body.startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? '')) as unknown;
    const [refused, pong] = await Promise.all([rawPost(url, request(1, 'prompts/get', { name: 'greet', arguments: BIG }, false), headers), rawPost(url, request(2, 'ping', {}, false), headers)]);
    expect(sse(refused.body)).toMatchObject(refusal('arguments'));
    expect(sse(pong.body)).toMatchObject({ id: 2, result: {} });
  });
});
