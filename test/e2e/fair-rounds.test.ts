import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/app/serve.js';
import { silentLogger } from '../../src/util/log.js';
import { tempTree, ROOT } from '../harness/index.js';

/**
 * Fairness of input rounds: a call whose question is out at its client (a 2026-07-28
 * input round held for the client's retry) no longer counts as a possible cause of the upstream's
 * next request, so other clients' sampling and elicitation on the same stdio upstream go through
 * (they failed as "ambiguous" for as long as the round stayed open, up to 10 minutes).
 */

const KITCHEN = path.join(ROOT, 'test/fixtures/kitchen-sink.mjs');
const ACCEPT = 'application/json, text/event-stream';

interface Answer {
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, { method: string }>; content?: Array<{ text?: string }>; isError?: boolean };
  error?: { message: string };
}

describe('one open input round on a stdio upstream', () => {
  let served: Served;
  let port: number;

  beforeAll(async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const file = path.join(dir, '.lazytoolsrc.json');
    writeFileSync(file, JSON.stringify({ servers: { kitchen: { command: process.execPath, args: [KITCHEN, '--legacy-only'] } }, defaultMode: 'all' }));
    served = await serve({ config: file, http: { port: 0 }, logger: silentLogger });
    port = Number(new URL(served.http!.url).port);
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  /** One 2026-07-28 tools/call over a raw POST (a client that answers rounds by hand). */
  const modernCall = (name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, retry: Record<string, unknown> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta, ...retry } });
      const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
          resolve(JSON.parse(data) as Answer);
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  const textOf = (answer: Answer) => answer.result?.content?.[0]?.text ?? JSON.stringify(answer);

  it("does not make another client's sampling ambiguous, 2025 session or 2026-07-28 request; the round still finishes", async () => {
    // Client A: a question is out at it (input_required), and it takes its time to answer.
    const asked = await modernCall('test_elicitation', { message: 'who?' }, { elicitation: {} });
    expect(asked.result?.resultType).toBe('input_required');
    const [elicitKey = ''] = Object.keys(asked.result?.inputRequests ?? {});
    expect(asked.result?.inputRequests?.[elicitKey]?.method).toBe('elicitation/create');

    // Client B, a 2025 session with sampling: its call's sampling reaches it (was: "ambiguous").
    const legacy = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const prompts: string[] = [];
    legacy.setRequestHandler('sampling/createMessage', (req) => {
      prompts.push(JSON.stringify(req.params.messages));
      return { role: 'assistant', content: { type: 'text', text: 'from B' }, model: 'b' };
    });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
    const sampled = await legacy.callTool({ name: 'test_sampling', arguments: { prompt: 'B asks' } });
    expect((sampled.content as Array<{ text: string }>)[0]?.text).toBe('LLM response: from B');
    expect(prompts.join()).toContain('B asks');
    await legacy.close();

    // Client C, another 2026-07-28 request: its own round (was: "ambiguous").
    const other = await modernCall('test_sampling', { prompt: 'C asks' }, { sampling: {} });
    expect(other.result?.resultType).toBe('input_required');
    const [sampleKey = ''] = Object.keys(other.result?.inputRequests ?? {});
    expect(other.result?.inputRequests?.[sampleKey]?.method).toBe('sampling/createMessage');
    expect(JSON.stringify(other.result?.inputRequests)).toContain('C asks');

    // Both rounds finish with their own answers, in either order.
    const doneC = await modernCall('test_sampling', { prompt: 'C asks' }, { sampling: {} }, {
      requestState: other.result?.requestState,
      inputResponses: { [sampleKey]: { role: 'assistant', content: { type: 'text', text: 'from C' }, model: 'c' } },
    });
    expect(textOf(doneC)).toBe('LLM response: from C');
    const doneA = await modernCall('test_elicitation', { message: 'who?' }, { elicitation: {} }, {
      requestState: asked.result?.requestState,
      inputResponses: { [elicitKey]: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } },
    });
    expect(textOf(doneA)).toContain('User response: action=accept');
    expect(textOf(doneA)).toContain('ada@example.com');
  });
});
