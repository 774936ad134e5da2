import type { Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * An upstream's JSON-RPC error reaches the client as it came, but only a well-formed one: an error
 * whose `code` was no integer (a string, 1.5, missing) or that was no object at all was relayed
 * as is, the client's SDK refused the whole answer, and prompts/get or resources/read waited for
 * the client's own timeout (60 s) instead of failing at once.
 */

const cleanups = cleanupAfterEach();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A server written as raw JSON-RPC (an SDK server never sends such answers): every other request is answered by `answer`. */
function rawServer(answer: (id: string | number) => object) {
  return {
    async connect(transport: Transport) {
      transport.onmessage = (message) => {
        const { id, method, params } = message as { id?: string | number; method?: string; params?: { protocolVersion?: string } };
        if (id === undefined) return;
        const result = (value: unknown) => void transport.send({ jsonrpc: '2.0', id, result: value } as never);
        if (method === 'initialize') return result({ protocolVersion: params?.protocolVersion, capabilities: { tools: {}, prompts: {}, resources: {} }, serverInfo: { name: 'raw', version: '1' } });
        if (method === 'tools/list') return result({ tools: [{ name: 'tool', inputSchema: { type: 'object' } }] });
        if (method === 'prompts/list') return result({ prompts: [{ name: 'brief' }] });
        if (method === 'resources/list') return result({ resources: [{ uri: 'note://1', name: 'note' }] });
        if (method === 'resources/templates/list') return result({ resourceTemplates: [] });
        void transport.send(answer(id) as never);
      };
      await transport.start();
    },
  };
}

/** A client of the gateway curating a raw server that answers with `answer`. */
async function clientOf(answer: (id: string | number) => object) {
  const curated = await curate(rawServer(answer), { name: 'raw', logger: quiet as never });
  cleanups.push(() => curated.close());
  return inMemoryClient((t) => curated.connect(t), { name: 'upstream-errors', cleanups });
}

/** prompts/get and resources/read both fail at once (well within the client's timeout) as an internal error saying `said`. */
async function expectBothFail(client: Awaited<ReturnType<typeof clientOf>>, said: RegExp): Promise<void> {
  for (const request of [() => client.getPrompt({ name: 'brief' }, { timeout: 5_000 }), () => client.readResource({ uri: 'note://1' }, { timeout: 5_000 })]) {
    const failure = await request().then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string },
    );
    expect(failure?.code).toBe(-32603);
    expect(failure?.message).toMatch(said);
  }
}

describe('an upstream error that is not a JSON-RPC error', () => {
  for (const error of [{ code: 'boom', message: 'x' }, { code: 1.5, message: 'x' }, { message: 'no code' }, 'plain text', [1, 2]])
    it(`${JSON.stringify(error)} fails prompts/get and resources/read at once, naming the server`, async () => {
      await expectBothFail(await clientOf((id) => ({ jsonrpc: '2.0', id, error })), /upstream "raw" answered with an error/);
    });

  it('a well-formed one still passes verbatim (its code, message and data)', async () => {
    const client = await clientOf((id) => ({ jsonrpc: '2.0', id, error: { code: -32042, message: 'quota spent', data: { retryAfter: 30 } } }));
    const failure = await client.getPrompt({ name: 'brief' }).then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string; data?: unknown },
    );
    expect(failure?.code).toBe(-32042);
    expect(failure?.data).toEqual({ retryAfter: 30 });
  });
});

describe('an upstream answer with neither a result nor an error', () => {
  // It is no JSON-RPC response: the SDK client dropped it, and the call waited for its timeout.
  it('fails prompts/get, resources/read and tools/call at once, naming the server', async () => {
    const client = await clientOf((id) => ({ jsonrpc: '2.0', id }));
    await expectBothFail(client, /upstream "raw" answered with neither a result nor an error/);
    const called = await client.callTool({ name: 'tool', arguments: {} }, undefined, { timeout: 5_000 });
    expect(called.isError).toBe(true);
    expect(JSON.stringify(called.content)).toMatch(/neither a result nor an error/);
  });
});


describe("an upstream error's message, cut", () => {
  it('is cut at a whole character: an emoji across the cut is kept whole or dropped, never halved', async () => {
    // 499 characters, then emoji: the 500-character cut falls inside the first one.
    const message = `${'x'.repeat(499)}${'😀'.repeat(200)}`;
    const client = await clientOf((id) => ({ jsonrpc: '2.0', id, error: { code: -32042, message } }));
    const failure = await client.getPrompt({ name: 'brief' }).then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string },
    );
    expect(failure?.code).toBe(-32042);
    expect(failure?.message).toMatch(/more characters\)$/);
    expect(failure?.message, 'half an emoji (a lone surrogate) in the message').not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
