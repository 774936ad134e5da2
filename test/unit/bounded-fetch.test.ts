import { describe, expect, it } from 'vitest';
import { boundedFetch } from '../../src/upstream/bounded-fetch.js';

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
});
