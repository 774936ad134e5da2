import { afterEach, describe, expect, it } from 'vitest';
import { rawPost, rcProject, serveHttpCli, startCli, stdoutAnswers, stopAll } from '../harness/index.js';

/**
 * A tools/call whose arguments hold an own "__proto__" key: the SDK's request parsing drops that
 * key without a word, so focus_mode `{"__proto__": …}` answered status as if asked for nothing, and
 * execute_tool ran its tool without it. Each era and transport answers an isError naming the key;
 * prompts/get and completion/complete, which lost it alike, an Invalid Params error naming it.
 */

const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
// Written as text: an object literal's "__proto__" sets the prototype; JSON keeps it as a key.
const calls = [
  { line: '{"name":"focus_mode","arguments":{"__proto__":{"mode":"all"}}}', path: '__proto__' },
  { line: '{"name":"execute_tool","arguments":{"name":"focus_mode","arguments":{"__proto__":"x"}}}', path: 'arguments.__proto__' },
];
const request = (id: number, params: string, modern: boolean, method = 'tools/call') =>
  `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${modern ? `${params.slice(0, -1)},"_meta":${JSON.stringify(META)}}` : params}}`;
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

function expectRefused(answer: { id?: unknown; result?: { isError?: boolean; content?: Array<{ text?: string }> } }, id: number, tool: string, path: string): void {
  expect(answer.id).toBe(id);
  expect(answer.result?.isError).toBe(true);
  expect(answer.result?.content?.[0]?.text).toBe(`${tool}: argument "${path}": "__proto__" is JavaScript's prototype key, never an argument name; nothing was called.`);
}

describe('a "__proto__" argument is refused by name', () => {
  afterEach(() => stopAll());
  const { dir } = rcProject({ servers: {} });

  for (const era of ['2025', MODERN]) {
    const modern = era === MODERN;
    it(`stdio, ${era}`, async () => {
      const cli = startCli(['serve'], { cwd: dir });
      const answer = stdoutAnswers(cli);
      if (!modern) {
        cli.child.stdin.write(`${INITIALIZE}\n`);
        await answer(0);
        cli.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      }
      for (const [index, call] of calls.entries()) {
        cli.child.stdin.write(`${request(index + 1, call.line, modern)}\n`);
        const got = await answer(index + 1);
        expectRefused(got as never, index + 1, JSON.parse(call.line).name, call.path);
        if (modern) expect((got.result as { resultType?: string }).resultType).toBe('complete');
      }
      // prompts/get and completion/complete: refused before any routing, in both eras.
      cli.child.stdin.write(`${request(5, '{"name":"brief","arguments":{"__proto__":"x"}}', modern, 'prompts/get')}\n`);
      expect(await answer(5)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^prompts\/get "brief": argument "__proto__": .*nothing was asked of any server\.$/) } });
      const complete = '{"ref":{"type":"ref/prompt","name":"brief"},"argument":{"name":"a","value":""},"context":{"arguments":{"__proto__":"x"}}}';
      cli.child.stdin.write(`${request(6, complete, modern, 'completion/complete')}\n`);
      expect(await answer(6)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^completion\/complete: argument "context\.arguments\.__proto__": /) } });
      // The same call without the key is served as before.
      cli.child.stdin.write(`${request(9, '{"name":"focus_mode","arguments":{"status":true}}', modern)}\n`);
      expect(JSON.stringify(await answer(9))).toMatch(/mode/i);
    });

    it(`HTTP, ${era}`, async () => {
      const { url } = await serveHttpCli([], { cwd: dir });
      let headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' };
      if (!modern) {
        const opened = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INITIALIZE });
        headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
        await opened.text();
        await rawPost(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
      }
      for (const [index, call] of calls.entries()) {
        const tool = JSON.parse(call.line).name as string;
        const posted = await rawPost(url, request(index + 1, call.line, modern), modern ? { ...headers, 'mcp-name': tool } : headers);
        expect(posted.status).toBe(200);
        // A 2025 session answers on an SSE stream, a 2026-07-28 request in JSON.
        const body = posted.body.startsWith('{') ? posted.body : (/^data: (.*)$/m.exec(posted.body)?.[1] ?? '');
        expectRefused(JSON.parse(body), index + 1, tool, call.path);
      }
    });
  }
});
