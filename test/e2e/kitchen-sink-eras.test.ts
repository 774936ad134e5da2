import { type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, text, kitchenSinkHttp } from '../harness/index.js';

// The kitchen-sink fixture serves both protocol eras from one server definition: a v2 Client pinned
// to 2026-07-28 (discover, per-request envelope, inputRequired results, subscriptions/listen) and a
// 2025-11-25 client (initialize, a session, real server-to-client requests, resources/subscribe),
// over stdio and over HTTP on the same endpoint. The gateway's tests lean on it for both eras.
const FIXTURE = FIXTURES.kitchenSink;
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/** A client answering every kind of question, recording what it was asked. */
function open(era: 'modern' | 'legacy') {
  const client = new Client(
    { name: `kitchen-eras-${era}`, version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: {} }, ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}) },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
  });
  client.setRequestHandler('sampling/createMessage', (request) => {
    asked.push(`sampling: ${(request.params.messages[0]?.content as { text: string }).text}`);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Paris' } };
  });
  client.setRequestHandler('roots/list', () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///work/project', name: 'project' }] };
  });
  return { client, asked };
}

/** Resolves with the params of the next notification of `method` the client receives. */
function next(client: Client, method: 'notifications/resources/updated'): Promise<{ uri: string }> {
  return new Promise((resolve) => client.setNotificationHandler(method, (notification) => resolve(notification.params)));
}

function eraSuite(name: string, transport: () => Transport) {
  describe(`the kitchen-sink fixture over ${name}`, () => {
    it('serves a client pinned to 2026-07-28: discover, list, call, a prompt, a resource', async () => {
      const { client } = open('modern');
      await client.connect(transport());
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
        const discovered = await client.discover();
        expect(discovered.supportedVersions).toContain(MODERN);
        expect(discovered.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {}, completions: {} });
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        expect(tools).toEqual(expect.arrayContaining(['test_simple_text', 'test_sampling', 'test_input_required_result_elicitation']));
        expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
        const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
        expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
        const resource = (await client.readResource({ uri: 'test://template/7/data' })).contents[0] as { text: string };
        expect(JSON.parse(resource.text)).toEqual({ id: '7', templateTest: true, data: 'Data for ID: 7' });
        const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
        expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
      } finally {
        await client.close();
      }
    });

    it('asks a 2026-07-28 client with inputRequired results, answered by hand or by its handlers', async () => {
      const { client, asked } = open('modern');
      await client.connect(transport());
      try {
        // By hand: the result asks; nothing reached the client's handlers; the retry carries the answer.
        const first = (await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, { allowInputRequired: true })) as unknown;
        expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create', params: { message: 'What is your name?' } } } });
        expect(asked).toEqual([]);
        const retry = { name: 'test_input_required_result_elicitation', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Bo' } } } };
        expect(text(await client.callTool(retry))).toBe('Hello, Bo!');
        // By the client: the SDK fulfils the embedded requests through the handlers and retries.
        expect(text(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'capital of France?' } }))).toBe('LLM response: Paris');
        expect(text(await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } }))).toBe(
          'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
        );
        const roots = (await client.callTool({ name: 'test_list_roots', arguments: {} })) as CallToolResult;
        expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
        expect(asked).toEqual(['sampling: capital of France?', 'elicitation: who?', 'roots']);
      } finally {
        await client.close();
      }
    });

    it('tells a 2026-07-28 client about a changed resource on its listen stream', async () => {
      const { client } = open('modern');
      await client.connect(transport());
      try {
        const updated = next(client, 'notifications/resources/updated');
        const subscription = await client.listen({ resourceSubscriptions: ['test://watched-resource'] });
        expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['test://watched-resource'] });
        await client.callTool({ name: 'test_touch_resource', arguments: { value: 'modern' } });
        expect((await updated).uri).toBe('test://watched-resource');
        await subscription.close();
        expect((await client.readResource({ uri: 'test://watched-resource' })).contents[0]).toMatchObject({ text: 'modern' });
      } finally {
        await client.close();
      }
    });

    it('still serves 2025-11-25: a session, requests to the client tied to the call, resources/updated', async () => {
      const { client, asked } = open('legacy');
      await client.connect(transport());
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(LEGACY);
        expect(client.getInstructions()).toContain('exercises every MCP primitive');
        expect(text(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } }))).toBe('LLM response: Paris');
        expect(text(await client.callTool({ name: 'test_elicitation', arguments: { message: 'legacy?' } }))).toContain('action=accept');
        const roots = (await client.callTool({ name: 'test_list_roots', arguments: {} })) as CallToolResult;
        expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
        expect(asked).toEqual(['sampling: hi', 'elicitation: legacy?', 'roots']);
        const updated = next(client, 'notifications/resources/updated');
        await client.subscribeResource({ uri: 'test://watched-resource' });
        await client.callTool({ name: 'test_touch_resource', arguments: { value: 'legacy' } });
        expect((await updated).uri).toBe('test://watched-resource');
      } finally {
        await client.close();
      }
    });
  });
}

eraSuite('stdio', () => new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));

let fixture: { child: ChildProcess; url: string } | undefined;
beforeAll(async () => {
  fixture = await kitchenSinkHttp();
});
afterAll(() => {
  fixture?.child.kill();
});
eraSuite('HTTP (both eras on one endpoint)', () => new StreamableHTTPClientTransport(new URL(fixture!.url)));

describe('the kitchen-sink fixture serving one era', () => {
  it('with --legacy-only answers like a 2025 server: a negotiating client falls back, a pinned one fails', async () => {
    const stdio = () => new StdioClientTransport({ command: process.execPath, args: [FIXTURE, '--legacy-only'], stderr: 'ignore' });
    const auto = new Client({ name: 'kitchen-eras-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await auto.connect(stdio());
    try {
      expect(auto.getNegotiatedProtocolVersion()).toBe(LEGACY);
      expect(text(await auto.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    } finally {
      await auto.close();
    }
    const pinned = open('modern').client;
    await expect(pinned.connect(stdio())).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
    await pinned.close();
  });

  it('with --modern-only refuses a 2025-11-25 client and serves one that negotiates', async () => {
    const stdio = () => new StdioClientTransport({ command: process.execPath, args: [FIXTURE, '--modern-only'], stderr: 'ignore' });
    const legacy = open('legacy').client;
    await expect(legacy.connect(stdio())).rejects.toThrow(/Unsupported protocol version: 2025-11-25/);
    await legacy.close();
    const auto = new Client({ name: 'kitchen-eras-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await auto.connect(stdio());
    try {
      expect(auto.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(text(await auto.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    } finally {
      await auto.close();
    }
  });
});
