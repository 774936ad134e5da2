import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, rawPost, rcProject, serveHttpCli, startCli, stopAll, text } from '../harness/index.js';

/**
 * JSON.parse takes any depth, but a message passed on is serialized again, and JSON.stringify
 * overflowed the stack from about 5,000 levels: a 10 KB client line over stdio, or an upstream's
 * result or log line, ended a stdio gateway with a stack trace, and over HTTP a too-deep answer
 * left its call unanswered (fails on the old main). A message
 * nested over 512 levels is now refused where it comes in: the client gets an error for its id,
 * a call whose answer is too deep fails as an isError result, a log line is dropped.
 */

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const rc = { servers: { deep: { command: process.execPath, args: [FIXTURES.deepServer] } }, defaultMode: 'all', strategy: 'hybrid' };

afterAll(stopAll);

describe('messages nested too deep (stdio front, a raw client)', () => {
  it('answers a 5,000-level request with an error for its id, fails a too-deep answer, drops a too-deep log line, and keeps serving', async () => {
    const { dir } = rcProject(rc);
    const cli = startCli(['serve'], { cwd: dir });
    const answers = new Map<unknown, { result?: CallToolResult; error?: { code: number; message: string } }>();
    const waiting = new Map<unknown, () => void>();
    let buffer = '';
    cli.child.stdout.on('data', (chunk: Buffer) => {
      const parts = (buffer + chunk.toString('utf8')).split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts.filter(Boolean)) {
        const message = JSON.parse(part) as { id?: unknown; result?: CallToolResult; error?: { code: number; message: string } };
        if (message.id === undefined) continue;
        answers.set(message.id, message);
        waiting.get(message.id)?.();
      }
    });
    // The old gateway died on these lines: fail at its exit, not at the test's timeout.
    const died = cli.exited.then(({ code }) => {
      throw new Error(`the gateway exited (${code}): ${cli.stderr().slice(-400)}`);
    });
    died.catch(() => {});
    const ask = (id: number, line: string) => {
      const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
      cli.child.stdin.write(`${line}\n`);
      return Promise.race([answered, died]).then(() => answers.get(id));
    };
    const call = (id: number, name: string, args = '{}') => ask(id, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`);
    await ask(0, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    cli.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

    const refused = await call(1, 'ok', `{"a":${deep(5_000)}}`);
    expect(refused?.error).toEqual({ code: -32600, message: 'Invalid Request: nested more than 512 levels deep' });
    const viaExecute = await call(2, 'execute_tool', `{"name":"ok","arguments":{"a":${deep(5_000)}}}`);
    expect(viaExecute?.error?.message).toBe('Invalid Request: nested more than 512 levels deep');
    const failed = await call(3, 'deep_result');
    expect(failed?.result?.isError).toBe(true);
    expect(text(failed?.result as CallToolResult)).toContain('nested more than 512 levels deep');
    expect((await call(4, 'deep_log'))?.result?.content).toEqual([{ type: 'text', text: 'deep_log done' }]);
    // Within the bound, a nested argument still goes through.
    expect((await call(5, 'ok', `{"a":${deep(100)}}`))?.result?.content).toEqual([{ type: 'text', text: 'ok done' }]);
    expect((await ask(6, '{"jsonrpc":"2.0","id":6,"method":"ping"}'))?.result).toEqual({});
    expect(cli.child.exitCode).toBeNull();
    expect(cli.stderr()).not.toContain('RangeError');
  });
});

describe('messages nested too deep (HTTP front)', () => {
  it('refuses a too-deep body, fails a too-deep answer, drops a too-deep log line, and keeps serving', async () => {
    const { dir } = rcProject(rc);
    const served = await serveHttpCli([], { cwd: dir });
    const client = new Client({ name: 'nesting-bounds', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    // The old gateway never answered this call (its answer failed to serialize).
    const failed = (await client.callTool({ name: 'deep_result', arguments: {} }, undefined, { timeout: 15_000 })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('nested more than 512 levels deep');
    expect(text((await client.callTool({ name: 'deep_log', arguments: {} })) as CallToolResult)).toBe('deep_log done');
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":${deep(5_000)}},"clientInfo":{"name":"raw","version":"1"}}}`;
    const refused = await rawPost(served.url, body);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('nested more than 512 levels deep');
    expect(text((await client.callTool({ name: 'ok', arguments: {} })) as CallToolResult)).toBe('ok done');
    await client.close();
    expect(served.child.exitCode).toBeNull();
    expect(served.stderr()).not.toContain('RangeError');
  });

  // Within the 4 MiB body bound, 1.3 million empty objects held ~36 MB of the gateway per call in
  // flight and blocked it 1-3 s; 160 at once took it past 3 GB (the old main took this body).
  it('refuses a body of more than 200,000 values; one long string is one value', async () => {
    const { dir } = rcProject(rc);
    const served = await serveHttpCli([], { cwd: dir });
    const initialize = (capabilities: string) =>
      rawPost(served.url, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":${capabilities},"clientInfo":{"name":"raw","version":"1"}}}`);
    const many = await initialize(`{"x":[${'{},'.repeat(1_000_000)}{}]}`);
    expect(many.status).toBe(400);
    expect(many.body).toContain('Invalid Request: more than 200000 values');
    expect((await initialize(`{"x":"${'y'.repeat(3_000_000)}"}`)).status).toBe(200);
    expect((await initialize(`{"x":[${'0,'.repeat(150_000)}0]}`)).status).toBe(200);
  });
});
