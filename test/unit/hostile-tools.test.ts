import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RcConfig } from '../../src/config/schema.js';
import { curate } from '../../src/app/curate.js';
import { PAGE_MAX_BYTES } from '../../src/handlers/paging.js';
import { exampleArguments } from '../../src/handlers/examples.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * Adversarial pass (hadv): tool definitions an upstream should not send, and does. One bad tool
 * must cost only itself: not the upstream's start, not a client's whole tools/list.
 */

const deep = (levels: number): Record<string, unknown> => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
};

const HOSTILE: unknown[] = [
  { name: 'good', description: 'Look up a record.', inputSchema: { type: 'object', properties: { id: { type: 'string', title: 'Id' } } } },
  { name: 'numeric_description', description: 12345, title: { evil: true }, inputSchema: { type: 'object' } },
  { name: 'null_schema', description: 'n', inputSchema: null },
  { name: 'array_schema', description: 'n', inputSchema: [1, 2] },
  { name: 'string_schema', description: 'n', inputSchema: { type: 'string' } },
  // Deep but within the admission bound (catalog/admit.ts drops a tool nested over 64 levels).
  { name: 'deep_schema', description: 'd', inputSchema: { type: 'object', properties: { d: deep(25) } } },
  { name: 'proto_keys', description: 'p', inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"},"constructor":{"type":"number"}},"required":["__proto__"]}') },
  { name: 'long_texts', description: 'word '.repeat(40_000), inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'Field notes, kept long. '.repeat(8_000), enum: Array.from({ length: 20_000 }, (_, i) => `v${i}`) } } } },
];

function hostileServer(): Server {
  const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: HOSTILE as never }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
  return server;
}

const rc: RcConfig = { groups: { all_hostile: { servers: ['hostile'] } }, modes: { work: { groups: ['all_hostile'] } }, defaultMode: 'work' };

const cleanups = cleanupAfterEach();

async function connect(definitions: 'compact' | 'verbatim') {
  const curated = await curate(hostileServer(), { config: { ...rc, definitions }, strategy: 'hybrid' });
  cleanups.push(() => curated.close());
  const client = await inMemoryClient((t) => curated.connect(t), { name: 'hostile-test', cleanups });
  return { client, gateway: curated.gateway };
}

describe('hostile tool definitions from an upstream', () => {
  for (const definitions of ['compact', 'verbatim'] as const)
    it(`(${definitions}) the upstream starts, and a strict SDK client lists every valid tool`, async () => {
      const { client, gateway } = await connect(definitions);
      // The SDK client validates the whole answer: one non-object inputSchema used to fail it all.
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['good', 'numeric_description', 'deep_schema', 'proto_keys', 'long_texts']));
      for (const skipped of ['null_schema', 'array_schema', 'string_schema']) expect(names).not.toContain(skipped);
      // A non-string description or title is dropped, the tool kept.
      const numeric = tools.find((tool) => tool.name === 'numeric_description');
      expect(numeric?.description).toBeUndefined();
      expect(numeric?.title).toBeUndefined();
      // `__proto__` stays a property name through compaction, and calls pass arguments unchanged.
      // (read from the gateway: the SDK client's own parsing drops a `__proto__` key on its side)
      const proto = gateway.catalog.tools.find((tool) => tool.name === 'proto_keys');
      expect(Object.keys((proto?.listed.inputSchema as { properties: object }).properties)).toEqual(['__proto__', 'constructor']);
      expect(Object.getPrototypeOf((proto?.listed.inputSchema as { properties: object }).properties)).toBe(Object.prototype);
      // (a `__proto__` argument is dropped by the SDKs' own request parsing before lazytools sees it)
      const args = { constructor: 1, toString: 'x' };
      const result = (await client.callTool({ name: 'proto_keys', arguments: args })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect((result.content[0] as { text: string }).text).toBe('{"constructor":1,"toString":"x"}');
      expect(((await client.callTool({ name: 'deep_schema', arguments: { d: { a: 1 } } })) as CallToolResult).isError).toBeFalsy();
    });
});

/** A tool whose schema alone is about 300 KB: an enum is kept verbatim by compaction. */
const bulky = (i: number) => ({
  name: `bulky_${i}`,
  description: `Bulky tool ${i}.`,
  inputSchema: { type: 'object', properties: { v: { type: 'string', enum: Array.from({ length: 25_000 }, (_, k) => `value-${k}`) } } },
});

describe('groups/get answers stay bounded whatever the upstream sends (io.modelcontextprotocol/groups)', () => {
  async function groupsClient() {
    const server = new Server({ name: 'bulky', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: Array.from({ length: 8 }, (_, i) => bulky(i)) as never }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    // proxy: nothing top-level, every tool in a group.
    const curated = await curate(server, { config: {}, strategy: 'proxy' });
    cleanups.push(() => curated.close());
    return inMemoryClient((t) => curated.connect(t), { name: 'groups-hostile', capabilities: { extensions: { 'io.modelcontextprotocol/groups': {} } } as never, cleanups });
  }
  const loose = z.looseObject({});
  type Answer = { groups?: Array<{ name: string }>; contents?: { tools?: Array<{ name: string }>; groups?: Array<{ name: string }> } };

  it('a leaf whose definitions pass the page bound is cut into parts; every tool stays reachable', async () => {
    const client = await groupsClient();
    const listed = (await client.request({ method: 'groups/list', params: {} } as never, loose)) as Answer;
    const queue = (listed.groups ?? []).map((group) => group.name);
    const reached: string[] = [];
    while (queue.length > 0) {
      const name = queue.shift() as string;
      const answer = (await client.request({ method: 'groups/get', params: { name } } as never, loose)) as Answer;
      expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(PAGE_MAX_BYTES + 1024);
      reached.push(...(answer.contents?.tools ?? []).map((tool) => tool.name));
      queue.push(...(answer.contents?.groups ?? []).map((group) => group.name));
    }
    expect(reached.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `bulky_${i}`).sort());
  });

  it('an unknown group name is echoed bounded', async () => {
    const client = await groupsClient();
    const name = 'x'.repeat(1_000_000);
    const error = await client.request({ method: 'groups/get', params: { name } } as never, loose).then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string; data?: unknown },
    );
    expect(error?.code).toBe(-32002);
    expect(error?.message.length).toBeLessThan(300);
    expect(JSON.stringify(error?.data).length).toBeLessThan(200);
  });
});

describe('the -32002 transport wrapper of groups/get touches only its own answers', () => {
  it('a cancelled groups/get leaves nothing behind: a later error reusing its id keeps its own code', async () => {
    const server = new Server({ name: 'one', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] }));
    const curated = await curate(server, { config: {}, strategy: 'proxy' });
    cleanups.push(() => curated.close());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await curated.connect(serverSide);
    // Raw JSON-RPC: the SDK client never reuses ids, a client may.
    const waiting = new Map<number | string, (message: { error?: { code: number } }) => void>();
    clientSide.onmessage = (message) => {
      const id = (message as { id?: number | string }).id;
      if (id !== undefined) waiting.get(id)?.(message as never);
    };
    await clientSide.start();
    const answer = (id: number) => new Promise<{ error?: { code: number } }>((resolve) => waiting.set(id, resolve));
    const send = (message: object) => clientSide.send({ jsonrpc: '2.0', ...message } as never);
    const initialized = answer(0);
    await send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { extensions: { 'io.modelcontextprotocol/groups': {} } }, clientInfo: { name: 'raw', version: '1' } } });
    await initialized;
    await send({ method: 'notifications/initialized' });
    // Cancelled before its handler runs: no answer is sent for id 7.
    await Promise.all([send({ id: 7, method: 'groups/get', params: { name: 'nope' } }), send({ method: 'notifications/cancelled', params: { requestId: 7 } })]);
    const pinged = answer(8);
    await send({ id: 8, method: 'ping' });
    await pinged;
    // Id 7 again, now an invalid-params error: it must leave as -32602, not as groups/get's -32002.
    const reused = answer(7);
    await send({ id: 7, method: 'groups/get', params: { name: 5 } });
    expect((await reused).error?.code).toBe(-32602);
  });
});

describe('describe_tools on schemas an upstream should not send', () => {
  it('a nested "required" that is no list costs nothing: every tool of the call is described, with examples', async () => {
    const tools = [
      { name: 'good', description: 'Look up a record.', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      // Admission checks the top level only: a nested `required: 7` made describe_tools throw for the whole call.
      { name: 'odd_nested', description: 'Odd.', inputSchema: { type: 'object', properties: { opts: { type: 'object', required: 7 } }, required: ['opts'] } },
      { name: 'proto_default', description: 'Proto.', inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","default":{"polluted":true}}},"required":["__proto__"]}') },
    ];
    const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }));
    const curated = await curate(server, { config: rc, strategy: 'proxy' });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'hostile-test', cleanups });
    const result = (await client.callTool({ name: 'describe_tools', arguments: { names: ['good', 'odd_nested', 'proto_default'] } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const described = JSON.parse((result.content[0] as { text: string }).text) as { tools: Array<{ name: string; examples: unknown[] }> };
    expect(described.tools.map((tool) => [tool.name, tool.examples])).toEqual([
      ['good', [{ id: '<id>' }]],
      ['odd_nested', [{ opts: {} }]],
      // An own "__proto__" key (as JSON.parse makes it), not a prototype swapped under the example.
      ['proto_default', [JSON.parse('{"__proto__":{"polluted":true}}')]],
    ]);
  });

  it('examples of nested objects stop four levels down (MAX_EXAMPLE_DEPTH), as arrays do', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] };
    for (let i = 0; i < 10; i++) schema = { type: 'object', properties: { a: schema }, required: ['a'] };
    expect(exampleArguments(schema)).toEqual({ a: { a: { a: { a: { a: {} } } } } });
    expect(exampleArguments({ type: 'object', properties: { list: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } } } }, required: ['list'] })).toEqual({ list: [[[[[]]]]] });
  });
});

describe('describe_tools on a schema built to multiply its work', () => {
  it('answers a schema of ten levels, each requiring the same name ten times, at once and bounded', async () => {
    // The example arguments were made once per required name at each level: ten to the tenth
    // walks for this 1 KB schema (eight levels took 3.4 s; ten never ended), the gateway blocked.
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 10; level++) schema = { type: 'object', required: Array(10).fill('k'), properties: { k: schema } };
    // A nested `required` that is not a list (a top-level one is refused by admission) and a `__proto__` name.
    const odd = JSON.parse('{"type":"object","required":["o","__proto__"],"properties":{"o":{"type":"object","required":5},"__proto__":{"type":"object","required":["x"],"properties":{"x":{"type":"number"}}}}}');
    const server = new Server({ name: 'nested', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'nested', inputSchema: schema as never }, { name: 'odd', inputSchema: odd }] }));
    const curated = await curate(server, { config: {}, strategy: 'proxy' });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'describe-nested', cleanups });
    const started = performance.now();
    const result = (await client.callTool({ name: 'describe_tools', arguments: { names: ['nested', 'odd'] } })) as CallToolResult;
    const ms = performance.now() - started;
    expect(ms, `describe_tools took ${Math.round(ms)} ms`).toBeLessThan(5_000);
    expect(result.isError).toBeFalsy();
    const [nested, oddTool] = (JSON.parse((result.content[0] as { text: string }).text) as { tools: Array<{ examples: unknown[] }> }).tools;
    // Each name once; nesting cut past four objects.
    expect(JSON.stringify(nested?.examples)).toBe('[{"k":{"k":{"k":{"k":{"k":{}}}}}}]');
    const example = oddTool?.examples[0] as Record<string, unknown>;
    expect(Object.keys(example)).toEqual(['o', '__proto__']);
    expect(example.o).toEqual({});
    expect(Object.getPrototypeOf(example)).toBe(Object.prototype);
  });
});

describe('warnings about the tools and prompts an upstream lists', () => {
  it('50,000 bad tools and 50,000 bad prompts cost a few lines at start, not one line each', async () => {
    // The lister warns once per item left out; the upstream's logger (util/rate-limit
    // limitWarnings) lets 10 a second through and counts the rest in one line when the second ends
    // (each list's skips are one synchronous burst: 10 lines, 20 if a burst straddles a second).
    const server = new Server({ name: 'bad', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    const tools = [
      { name: 'good', inputSchema: { type: 'object' } },
      ...Array.from({ length: 50_000 }, (_, i) => ({ name: `bad_${i}`, inputSchema: null })),
      ...Array.from({ length: 30 }, (_, i) => ({ name: `${'n'.repeat(300)}${i}`, inputSchema: { type: 'object' } })),
    ];
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: 'fine' }, ...Array.from({ length: 50_000 }, (_, i) => ({ name: `p${i}`, arguments: 'not a list' }))] as never }));
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => warnings.push(message), error: (message: string) => warnings.push(message) };
    const curated = await curate(server, { name: 'bad', config: {}, strategy: 'proxy', logger });
    cleanups.push(() => curated.close());
    expect(curated.gateway.catalog.tools.map((tool) => tool.name)).toEqual(['good']);
    const fromUpstream = warnings.filter((line) => line.startsWith('bad: '));
    expect(fromUpstream.length, 'lines the upstream\'s 100,030 bad items caused').toBeLessThanOrEqual(45);
    expect(fromUpstream[0]).toBe('bad: tool "bad_0" skipped: its inputSchema is not a JSON Schema object with "type": "object"');
  });
});
