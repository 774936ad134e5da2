import { describe, expect, it } from 'vitest';
import { boundedFetch } from '../../src/upstream/bounded-fetch.js';
import { MAX_MESSAGE_VALUES } from '../../src/protocol/jsonrpc.js';
import { JsonValueCount, moreJsonValuesThan } from '../../src/util/json.js';

/** boundedFetch over a fetch that answers with scripted chunks (a real Response, no network). */
function answering(type: string, chunks: string[]) {
  const encoder = new TextEncoder();
  return boundedFetch('s', async () => new Response(new ReadableStream({ start(c) { for (const chunk of chunks) c.enqueue(encoder.encode(chunk)); c.close(); } }), { headers: { 'content-type': type } }), 20);
}

describe('boundedFetch', () => {
  it('counts each SSE event on its own: blank lines (LF, CRLF split across chunks, CR) end one', async () => {
    const chunks = ['data: 123456789\n\n', 'data: 123456789\r', '\n\r\n', 'data: 123456789\r\r', 'data: 1234\n', 'data: 5\n\n'];
    const response = await answering('text/event-stream', chunks)('http://x/', { method: 'GET' });
    expect(await response.text()).toBe(chunks.join(''));
  });

  it('cuts an SSE event past the bound and answers the POST request with an error', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'lt-7', method: 'tools/call' });
    const response = await answering('text/event-stream', ['data: 12345', '67890 and more', '\n\ndata: late\n\n'])('http://x/', { method: 'POST', body });
    const text = await response.text();
    expect(text.startsWith('data: 1234567890 and\n\nevent: message\ndata: ')).toBe(true);
    expect(text).toContain('"id":"lt-7"');
    expect(text).toContain('sent an event over');
    expect(text).not.toContain('late');
  });

  it('fails a body past the bound', async () => {
    const response = await answering('application/json', ['{"a":', '"12345678901234567"}'])('http://x/', {});
    await expect(response.text()).rejects.toThrow('sent an answer over');
  });

  it('fails a body or cuts an SSE event past MAX_MESSAGE_VALUES JSON values, before the SDK parses it; separators in strings are no values', async () => {
    const respond = (type: string, chunks: string[]) => {
      const encoder = new TextEncoder();
      return boundedFetch('s', async () => new Response(new ReadableStream({ start(c) { for (const chunk of chunks) c.enqueue(encoder.encode(chunk)); c.close(); } }), { headers: { 'content-type': type } }));
    };
    const many = Array(MAX_MESSAGE_VALUES / 2).fill('{}').join(',');
    const json = await respond('application/json', ['{"jsonrpc":"2.0","id":"lt-1","result":{"a":[', many, ',', many, ']}}'])('http://x/', {});
    await expect(json.text()).rejects.toThrow('upstream "s" sent an answer of more than 2,000,000 JSON values');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'lt-9', method: 'tools/call' });
    const sse = await respond('text/event-stream', ['data: {"jsonrpc":"2.0","id":"lt-9","result":{"a":[', many, '\ndata: ,', many, ']}}\n\ndata: late\n\n'])('http://x/', { method: 'POST', body });
    const text = await sse.text();
    expect(text).toContain('"id":"lt-9"');
    expect(text).toContain('sent an event of more than 2,000,000 JSON values');
    expect(text).not.toContain('late');
    const words = `{"text":"${',{['.repeat(MAX_MESSAGE_VALUES)}"}`;
    expect(await (await respond('application/json', [words]) ('http://x/', {})).text()).toBe(words);
    const events = `data: ${many}\n\ndata: ${many}\n\n`;
    expect(await (await respond('text/event-stream', [events])('http://x/', { method: 'GET' })).text(), 'each event counted alone').toBe(events);
  });

  it('counts values the same in chunks as whole, wherever the chunks split a string or an escape', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pieces = ['{', '}', '[', ']', ',', ':', '"a', '\\"', '\\\\', '"', 'x', ' '];
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 40 }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const bytes = new TextEncoder().encode(text);
      for (const max of [1, 3, 6, 10]) {
        const counter = new JsonValueCount(max);
        let over = false;
        for (let at = 0; at < bytes.length && !over; ) {
          const to = Math.min(bytes.length, at + 1 + Math.floor(next() * 6));
          over = counter.add(bytes, at, to);
          at = to;
        }
        expect(over, `${text} (max ${max})`).toBe(moreJsonValuesThan(text, max));
      }
    }
  });
});
