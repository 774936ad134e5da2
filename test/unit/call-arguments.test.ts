import { completable, InMemoryTransport, type JSONRPCMessage, type McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, namedToolsApp } from '../harness/index.js';

/**
 * One call, one set of upstream arguments, whichever way the gateway takes it. A 2025 session's
 * `tools/call` of a ready upstream goes the fast path (callers/fast-path.ts, raw JSON relayed),
 * execute_tool and the rest go through the SDK's request parsing (zod), which leaves an own
 * `__proto__` key (as JSON.parse makes it) out of `arguments`. The fast path relayed it, so the
 * upstream saw `{"__proto__":…,"n":1}` from tools/call and `{"n":1}` from execute_tool; then both
 * ran without it, without a word. Now both are refused by name before either path (protocol/proto-args).
 * prompts/get (fast path too) and completion/complete (the SDK's parsing) lost it the same way:
 * they are refused alike, with an Invalid Params error naming the key.
 */

const cleanups = cleanupAfterEach();

describe('tool arguments reach the upstream the same on every path', () => {
  it('an own "__proto__" argument: tools/call (2025 fast path) and execute_tool are refused alike, naming it; the upstream gets neither', async () => {
    const app = namedToolsApp({ proto_keys: false });
    const { request, received } = await rawSession(app, 'tools/call', (params) => params.arguments);

    // The bytes a client sends: JSON.parse keeps "__proto__" as an own key.
    const args = JSON.parse('{"__proto__":{"polluted":true},"n":1}') as Record<string, unknown>;
    const direct = await request(1, 'tools/call', { name: 'proto_keys', arguments: args });
    const executed = await request(2, 'tools/call', { name: 'execute_tool', arguments: { name: 'proto_keys', arguments: args } });
    const refusal = (tool: string, path: string) => `${tool}: argument "${path}": "__proto__" is JavaScript's prototype key, never an argument name; nothing was called.`;
    expect(direct).toMatchObject({ result: { isError: true, content: [{ text: refusal('proto_keys', '__proto__') }] } });
    expect(executed).toMatchObject({ result: { isError: true, content: [{ text: refusal('execute_tool', 'arguments.__proto__') }] } });
    // focus_mode answered status as if asked for nothing.
    const focus = await request(3, 'tools/call', { name: 'focus_mode', arguments: JSON.parse('{"__proto__":{"mode":"all"}}') });
    expect(focus).toMatchObject({ result: { isError: true, content: [{ text: refusal('focus_mode', '__proto__') }] } });
    expect(received, 'arguments the upstream got').toEqual([]);
    const plain = await request(4, 'tools/call', { name: 'proto_keys', arguments: { n: 1 } });
    expect(plain).toMatchObject({ result: { content: [{ text: 'proto_keys' }] } });
    expect(received).toEqual(['{"n":1}']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an own "__proto__" in prompts/get arguments or completion context arguments is refused by name; "constructor" and "prototype" pass as written', async () => {
    const app = namedToolsApp({ read_brief: true });
    const topic = completable(z.string(), (value) => [`${value}-1`]);
    app.registerPrompt('brief', { description: 'A brief.', argsSchema: z.object({ topic }) }, ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `brief on ${topic}` } }],
    }));
    const { request, received } = await rawSession(app, 'prompts/get completion/complete', (params, method) => (method === 'prompts/get' ? params.arguments : params.context));
    const refusal = (what: string, path: string) => ({ error: { code: -32602, message: `${what}: argument "${path}": "__proto__" is JavaScript's prototype key, never an argument name; nothing was asked of any server.` } });

    const get = await request(1, 'prompts/get', { name: 'brief', arguments: JSON.parse('{"__proto__":"x","topic":"t"}') });
    expect(get).toMatchObject(refusal('prompts/get "brief"', '__proto__'));
    const ref = { type: 'ref/prompt', name: 'brief' };
    const complete = await request(2, 'completion/complete', { ref, argument: { name: 'topic', value: 'a' }, context: { arguments: JSON.parse('{"__proto__":"x"}') } });
    expect(complete).toMatchObject(refusal('completion/complete', 'context.arguments.__proto__'));
    expect(received, 'what the upstream got').toEqual([]);

    // Object's other key names are data: relayed to the upstream verbatim, on both paths.
    const named = { topic: 't', constructor: 'c', prototype: 'p' };
    expect(await request(3, 'prompts/get', { name: 'brief', arguments: named })).toMatchObject({ result: { messages: [{ content: { text: 'brief on t' } }] } });
    expect(await request(4, 'completion/complete', { ref, argument: { name: 'topic', value: 'a' }, context: { arguments: { constructor: 'c' } } })).toMatchObject({ result: { completion: { values: ['a-1'] } } });
    expect(received).toEqual([JSON.stringify(named), JSON.stringify({ arguments: { constructor: 'c' } })]);
  });
});

/**
 * A 2025 session over a raw in-memory transport to a gateway over `app` (server "app"), and what
 * the upstream's transport receives of `methods` (space-separated), before its own SDK parses it:
 * `pick` of each such request's params, as JSON.
 */
async function rawSession(app: McpServer, methods: string, pick: (params: Record<string, unknown>, method: string) => unknown) {
  const received: string[] = [];
  const watched = new Set(methods.split(' '));
  const upstream = new Upstream('app', {
    connect: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void app.connect(serverSide).then(() => {
        const sdk = serverSide.onmessage;
        serverSide.onmessage = (message, extra) => {
          if ('method' in message && watched.has(message.method)) received.push(JSON.stringify(pick((message.params ?? {}) as Record<string, unknown>, message.method)));
          sdk?.(message, extra);
        };
      });
      return clientSide;
    },
    logger: silentLogger,
  });
  const config = resolveConfig({ groups: { app: { servers: ['app'] } }, modes: { work: { groups: ['app'] } }, defaultMode: 'work', strategy: 'hybrid' });
  const gateway = new Gateway({ config, upstreams: [upstream] });
  await gateway.start();
  cleanups.push(() => gateway.close());

  const [client, server] = InMemoryTransport.createLinkedPair();
  await gateway.createSession({}).connect(server);
  const waiters = new Map<unknown, (message: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    if ('id' in message) waiters.get(message.id)?.(message);
  };
  await client.start();
  cleanups.push(() => client.close());
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<JSONRPCMessage>((resolve) => {
      waiters.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, params });
    });
  await request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, received };
}
