import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LineReader, serialize } from '../../src/protocol/lines.js';
import { MAX_MESSAGE_VALUES } from '../../src/protocol/jsonrpc.js';

/** The reader's line limit (64 MiB), as its error message states it. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

function reader(intercept?: (line: string) => boolean) {
  const messages: JSONRPCMessage[] = [];
  const replies: Array<{ id: unknown; error: { code: number; message: string } }> = [];
  const lines = new LineReader(
    (message) => messages.push(message),
    (reply) => replies.push(reply as unknown as (typeof replies)[number]),
    intercept,
  );
  return { lines, messages, replies };
}

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

describe('relay line parsing (LineReader)', () => {
  it('splits a stream into messages wherever the chunks break', () => {
    const { lines, messages } = reader();
    const text = `${JSON.stringify(ping)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 'x', result: {} })}\n`;
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 7) lines.push(bytes.subarray(i, i + 7));
    expect(messages).toEqual([ping, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'x', result: {} }]);
  });

  it('keeps a character split across chunks whole', () => {
    const { lines, messages } = reader();
    const bytes = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { text: 'héllo ✓ 🙂' } })}\n`);
    const at = bytes.indexOf(Buffer.from('🙂')) + 2;
    lines.push(bytes.subarray(0, at));
    lines.push(bytes.subarray(at));
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'note', params: { text: 'héllo ✓ 🙂' } }]);
  });

  it('waits for the newline, skips blank lines and takes CRLF', () => {
    const { lines, messages, replies } = reader();
    lines.push(Buffer.from(JSON.stringify(ping)));
    expect(messages).toEqual([]);
    lines.push(Buffer.from('\r\n\n   \n'));
    expect(messages).toEqual([ping]);
    expect(replies).toEqual([]);
  });

  it('answers a line that is not JSON with a parse error, and reads on', () => {
    const { lines, messages, replies } = reader();
    lines.push(Buffer.from(`{not json\n${JSON.stringify(ping)}\n`));
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: invalid JSON' } }]);
    expect(messages).toEqual([ping]);
  });

  it.each([
    ['[1,2]', null],
    ['"text"', null],
    ['null', null],
    ['{"id":3,"method":"ping"}', 3],
    ['{"jsonrpc":"1.0","id":"a","method":"ping"}', 'a'],
    ['{"jsonrpc":"2.0x","id":{"x":1}}', null],
  ])('answers %s with an invalid request (id %j)', (line, id) => {
    const { lines, messages, replies } = reader();
    lines.push(Buffer.from(`${line}\n`));
    expect(messages).toEqual([]);
    expect(replies).toEqual([{ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: expected a JSON-RPC 2.0 object' } }]);
  });

  it('passes payloads through as sent: only the envelope is checked', () => {
    const { lines, messages } = reader();
    const odd = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 42, arguments: 'not an object', extra: [null] } };
    lines.push(Buffer.from(`${JSON.stringify(odd)}\n`));
    expect(messages).toEqual([odd]);
  });

  it('gives each line to the interceptor first, which may consume it', () => {
    const seen: string[] = [];
    const { lines, messages } = reader((line) => {
      seen.push(line);
      return line.includes('"raw"');
    });
    lines.push(Buffer.from(`{"jsonrpc":"2.0","id":"raw","result":{}}\n${JSON.stringify(ping)}\n`));
    expect(seen).toEqual(['{"jsonrpc":"2.0","id":"raw","result":{}}', JSON.stringify(ping)]);
    expect(messages).toEqual([ping]);
  });

  it('drops a line longer than the limit with an error, and reads the next one', () => {
    const { lines, messages, replies } = reader();
    lines.push(Buffer.alloc(MAX_LINE_BYTES + 1, 0x61));
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Message larger than ${MAX_LINE_BYTES} bytes` } }]);
    lines.push(Buffer.from(`\n${JSON.stringify(ping)}\n`));
    expect(messages).toEqual([ping]);
  });

  it('writes one message per line', () => {
    expect(serialize(ping)).toBe(`${JSON.stringify(ping)}\n`);
    expect(serialize({ text: 'a\nb' })).toBe('{"text":"a\\nb"}\n');
  });

  it('refuses a line of more JSON values than a message may hold before parsing it, and counts none inside strings', () => {
    const { lines, messages, replies } = reader();
    const many = `{"jsonrpc":"2.0","id":7,"method":"note","params":{"junk":[${Array(MAX_MESSAGE_VALUES).fill('{}').join(',')}]}}\n`;
    lines.push(Buffer.from(many));
    expect(messages).toEqual([]);
    expect(replies[0]?.error.message).toBe('Invalid Request: a message of more than 2,000,000 JSON values');
    const commas = { jsonrpc: '2.0', id: 8, method: 'note', params: { text: `a, {b} [c] \\"${',{['.repeat(MAX_MESSAGE_VALUES)}` } };
    lines.push(Buffer.from(serialize(commas)));
    expect(messages, 'separators inside a string, escaped quotes among them, are no values').toEqual([commas]);
  });

  it('hears a line of too many values with its ends, as one past the size limit', () => {
    const heard: Array<{ head: string; tail: string; tooMany?: string }> = [];
    const lines = new LineReader(() => {}, () => {}, undefined, (_size, head, tail, tooMany) => heard.push({ head, tail, tooMany }));
    lines.push(Buffer.from(`{"result":{"junk":[${Array(MAX_MESSAGE_VALUES + 1).fill('1').join(',')}]},"jsonrpc":"2.0","id":"lt-3"}\n`));
    expect(heard).toHaveLength(1);
    expect(heard[0]?.tooMany).toBe('more than 2,000,000 JSON values');
    expect(heard[0]?.tail.endsWith('"id":"lt-3"}')).toBe(true);
  });
});
