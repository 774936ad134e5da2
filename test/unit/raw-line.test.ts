import { describe, expect, it } from 'vitest';
import { CallTable } from '../../src/upstream/calls.js';
import type { UpstreamError } from '../../src/upstream/error.js';
import { attachRaw } from '../../src/upstream/raw.js';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';

/**
 * The raw path's check of an upstream's answer line (raw.ts rawLine), line by line: the result's
 * value is parsed alone when it can be, the whole line otherwise, and the verdict is the one the
 * whole-line check always gave. The e2e side (a real upstream, a real client) is
 * test/e2e/malformed-upstream.test.ts.
 */

function harness() {
  const transport = new StdioUpstreamTransport({ command: 'unused', args: [], env: {}, cwd: undefined, onStderr: () => {} });
  const settled: Array<{ name: string; failed: boolean }> = [];
  const calls = new CallTable('s', { settled: (_method, name, _ms, failed) => settled.push({ name, failed }), timedOut: () => {} });
  attachRaw('s', transport, calls, { answered: () => {}, notification: () => false, warn: () => {}, gated: () => false });
  const pending = () => {
    const id = calls.nextId();
    const out: { raw?: string; error?: UpstreamError } = {};
    calls.add(id, 'tools/call', { name: 'echo' }, 60_000, { raw: (prefix) => (out.raw = prefix), done: (error) => (out.error = error), onProgress: undefined, origin: undefined });
    return { id, out };
  };
  const line = (text: string) => (transport.onLine as (line: string) => boolean)(text);
  return { calls, settled, pending, line };
}

describe('raw answer lines', () => {
  it('a well-formed answer goes on as sent, minus its id; isError counts as failed', () => {
    const { calls, settled, pending, line } = harness();
    const a = pending();
    const text = `{"result":{"content":[{"type":"text","text":"Echo: hello"}]},"jsonrpc":"2.0","id":"${a.id}"}`;
    expect(line(text)).toBe(true);
    expect(a.out.raw).toBe('{"result":{"content":[{"type":"text","text":"Echo: hello"}]},"jsonrpc":"2.0"');
    const b = pending();
    expect(line(`{"result": {"content":[],"isError":true} ,"jsonrpc":"2.0","id":"${b.id}"}`)).toBe(true);
    expect(b.out.raw).toBe('{"result": {"content":[],"isError":true} ,"jsonrpc":"2.0"');
    expect(settled).toEqual([
      { name: 'echo', failed: false },
      { name: 'echo', failed: true },
    ]);
    expect(calls.size).toBe(0);
  });

  it('a result that is not an object, or a key besides the three, is left to the parsed path', () => {
    const { calls, pending, line } = harness();
    for (const result of ['"text"', '[1]', 'null', '3', '{},"extra":1']) {
      const call = pending();
      expect(line(`{"result":${result},"jsonrpc":"2.0","id":"${call.id}"}`)).toBe(false);
      expect(call.out).toEqual({});
      expect(calls.has(call.id)).toBe(true);
    }
  });

  it('a line that is not JSON fails its call, saying so', () => {
    const { calls, pending, line } = harness();
    const call = pending();
    expect(line(`{"result":{"content":[},"jsonrpc":"2.0","id":"${call.id}"}`)).toBe(true);
    expect(call.out.raw).toBeUndefined();
    expect(call.out.error?.message).toBe('upstream "s" sent a line that is not a JSON-RPC message (invalid JSON)');
    expect(calls.has(call.id)).toBe(false);
  });

  it('a line whose result cannot be read alone is judged whole, as before: a repeated envelope still reads as one answer', () => {
    const { pending, line } = harness();
    const call = pending();
    const text = `{"result":{"content":[]},"jsonrpc":"2.0","id":"${call.id}","jsonrpc":"2.0","id":"${call.id}"}`;
    expect(line(text)).toBe(true);
    expect(call.out.raw).toBe(`{"result":{"content":[]},"jsonrpc":"2.0","id":"${call.id}","jsonrpc":"2.0"`);
  });

  it('a call that takes the parsed result is settled with the result parsed alone; a line too deep or not JSON is left to the parsed path', () => {
    const { calls, settled, line } = harness();
    const parsedCall = () => {
      const id = calls.nextId();
      const out: { result?: Record<string, unknown>; error?: UpstreamError; done: number } = { done: 0 };
      calls.add(id, 'tools/call', { name: 'echo' }, 60_000, {
        raw: undefined,
        done: (error, result) => {
          out.done++;
          out.error = error;
          out.result = result;
        },
        onProgress: undefined,
        origin: undefined,
      });
      return { id, out };
    };
    const a = parsedCall();
    expect(line(`{"result":{"content":[{"type":"text","text":"Echo: hello"}],"isError":true},"jsonrpc":"2.0","id":"${a.id}"}`)).toBe(true);
    expect(a.out).toEqual({ done: 1, error: undefined, result: { content: [{ type: 'text', text: 'Echo: hello' }], isError: true } });
    expect(settled).toEqual([{ name: 'echo', failed: true }]);
    const deep = parsedCall();
    expect(line(`{"result":{"a":${'['.repeat(600)}${']'.repeat(600)}},"jsonrpc":"2.0","id":"${deep.id}"}`)).toBe(false);
    const broken = parsedCall();
    expect(line(`{"result":{"content":[},"jsonrpc":"2.0","id":"${broken.id}"}`)).toBe(false);
    expect([deep.out.done, broken.out.done, calls.has(deep.id), calls.has(broken.id)]).toEqual([0, 0, true, true]);
  });
});
