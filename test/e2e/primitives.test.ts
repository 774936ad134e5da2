import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { serveHttp, type HttpFront } from '../../src/transports/http.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pathToFileURL } from 'node:url';
import { EventCounter, FIXTURES, serverEntry, tempTree, text, waitFor, rcProject, cliStdio } from '../harness/index.js';

// Two copies of the kitchen-sink fixture behind one gateway: same prompt, tool and resource names,
// so names are prefixed (kitchen_…, other_…) and URIs go to their first owner (kitchen).
const FIXTURE = FIXTURES.kitchenSink;
const RC = {
  servers: {
    kitchen: { command: process.execPath, args: [FIXTURE, '--name', 'kitchen'] },
    other: { command: process.execPath, args: [FIXTURE, '--name', 'other'] },
  },
  defaultMode: 'all',
  strategy: 'notify',
};

interface Opened {
  client: Client;
  logs: Array<Record<string, unknown>>;
  updates: string[];
  /** resources/updated heard (waited on: an update travels apart from the call that caused it). */
  updated: EventCounter;
  promptChanges: EventCounter;
}

type Front = (capabilities: ClientCapabilities) => Promise<Opened>;

/** A client with handlers for every server-to-client request and recorders for notifications. */
async function open(transport: StdioClientTransport | StreamableHTTPClientTransport, capabilities: ClientCapabilities): Promise<Opened> {
  const client = new Client({ name: 'primitives-e2e', version: '1.0.0' }, { capabilities });
  const opened: Opened = { client, logs: [], updates: [], updated: new EventCounter(), promptChanges: new EventCounter() };
  if (capabilities.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: `sampled: ${(request.params.messages[0]?.content as { text: string }).text}` },
    }));
  if (capabilities.elicitation) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }));
  if (capabilities.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work/project', name: 'project' }] }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void opened.logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    opened.updates.push(n.params.uri);
    opened.updated.hit();
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, opened.promptChanges.hit);
  await client.connect(transport);
  return opened;
}

const ALL: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

function primitiveSuite(name: string, front: () => Front) {
  describe(`primitives through the ${name} front`, () => {
    let a: Opened;
    beforeAll(async () => {
      a = await front()(ALL);
    });

    it('advertises what the upstreams offer and joins their instructions', () => {
      const caps = a.client.getServerCapabilities();
      expect(caps).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} });
      expect(a.client.getInstructions()).toContain('## kitchen\nkitchen exercises every MCP primitive');
      expect(a.client.getInstructions()).toContain('## other\nother exercises');
    });

    it('aggregates prompts under unique names and routes prompts/get', async () => {
      const names = (await a.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).toContain('kitchen_test_prompt_with_arguments');
      expect(names).toContain('other_test_prompt_with_arguments');
      const result = await a.client.getPrompt({ name: 'other_test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" });
      const image = await a.client.getPrompt({ name: 'kitchen_test_prompt_with_image' });
      expect(image.messages[0]?.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
      await expect(a.client.getPrompt({ name: 'test_simple_prompt' })).rejects.toThrow(/Unknown prompt "test_simple_prompt"/);
    });

    it('routes completion/complete by prompt and by template', async () => {
      const byPrompt = await a.client.complete({ ref: { type: 'ref/prompt', name: 'kitchen_test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
      expect(byPrompt.completion.values).toEqual(['paris', 'park', 'party']);
      const byTemplate = await a.client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '12' } });
      expect(byTemplate.completion.values).toEqual(['12', '123']);
    });

    it('lists resources and templates after its own and reads them by URI and template', async () => {
      const resources = (await a.client.listResources()).resources.map((r) => r.uri);
      expect(resources[0]).toBe('lazytools://groups');
      expect(resources.filter((uri) => uri === 'test://static-text')).toHaveLength(1);
      const templates = (await a.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toEqual(['lazytools://groups/{group}', 'test://template/{id}/data', 'test://template/{id}/data']);
      expect((await a.client.readResource({ uri: 'test://static-text' })).contents[0]).toEqual({
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      });
      expect((await a.client.readResource({ uri: 'test://static-binary' })).contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
      const templated = (await a.client.readResource({ uri: 'test://template/42/data' })).contents[0] as { text: string };
      expect(JSON.parse(templated.text)).toEqual({ id: '42', templateTest: true, data: 'Data for ID: 42' });
      expect((await a.client.readResource({ uri: 'lazytools://groups' })).contents[0]?.uri).toBe('lazytools://groups');
      await expect(a.client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(/Resource not found/);
    });

    it('answers a subscription to a URI no server lists as a read of it: invalid params with data.uri', async () => {
      const refused = await a.client.subscribeResource({ uri: 'nowhere://x' }).then(
        () => undefined,
        (error: { code?: number; data?: unknown; message: string }) => error,
      );
      expect(refused).toMatchObject({ code: -32602, data: { uri: 'nowhere://x' } });
      expect(refused?.message).toContain('Resource not found: no server lists "nowhere://x"');
    });

    it('delivers resources/updated while subscribed, and none after unsubscribe', async () => {
      a.updates.length = 0;
      const seen = a.updated.count;
      await a.client.subscribeResource({ uri: 'test://watched-resource' });
      await a.client.callTool({ name: 'kitchen_test_touch_resource', arguments: { value: 'one' } });
      // Over HTTP the update rides the session's standalone stream: wait for it.
      await a.updated.reached(seen + 1);
      expect(a.updates).toEqual(['test://watched-resource']);
      await a.client.unsubscribeResource({ uri: 'test://watched-resource' });
      await a.client.callTool({ name: 'kitchen_test_touch_resource', arguments: { value: 'two' } });
      expect((await a.client.readResource({ uri: 'test://watched-resource' })).contents[0]).toMatchObject({ text: 'two' });
      // Barrier: subscribe again and change it once more; an update for "two" would have come first.
      await a.client.subscribeResource({ uri: 'test://watched-resource' });
      await a.client.callTool({ name: 'kitchen_test_touch_resource', arguments: { value: 'three' } });
      await a.updated.reached(seen + 2);
      await a.client.ping();
      expect(a.updates).toEqual(['test://watched-resource', 'test://watched-resource']);
      await a.client.unsubscribeResource({ uri: 'test://watched-resource' });
    });

    it('passes setLevel on and log messages back with the server as logger, filtered by level', async () => {
      const during = await a.client.callTool({ name: 'other_test_tool_with_logging', arguments: {} });
      expect(text(during)).toContain('executed');
      expect(a.logs.map((log) => log.data)).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
      expect(a.logs[0]?.logger).toBe('other/kitchen');
      a.logs.length = 0;
      await a.client.setLoggingLevel('warning');
      await a.client.callTool({ name: 'kitchen_test_log', arguments: { level: 'info', message: 'quiet' } });
      await a.client.callTool({ name: 'kitchen_test_log', arguments: { level: 'error', message: 'loud' } });
      await a.client.ping();
      expect(a.logs).toEqual([{ level: 'error', logger: 'kitchen/kitchen', data: 'loud' }]);
      await a.client.setLoggingLevel('debug');
    });

    it('carries sampling, elicitation and roots requests to the calling client and the answers back', async () => {
      const sampled = await a.client.callTool({ name: 'kitchen_test_sampling', arguments: { prompt: 'hi there' } });
      expect(text(sampled)).toBe('LLM response: sampled: hi there');
      const elicited = await a.client.callTool({ name: 'other_test_elicitation', arguments: { message: 'who are you?' } });
      expect(text(elicited)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
      const roots = (await a.client.callTool({ name: 'kitchen_test_list_roots', arguments: {} })) as CallToolResult;
      expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
    });

    it('forwards an upstream prompt list change', async () => {
      const before = a.promptChanges.count;
      await a.client.callTool({ name: 'other_test_add_prompt', arguments: { name: `added_${name}` } });
      // Re-listing happens before the notification goes out; wait on the notification itself.
      await a.promptChanges.reached(before + 1);
      const names = (await a.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).toContain(`added_${name}`);
      const got = await a.client.getPrompt({ name: `added_${name}` });
      expect(got.messages[0]?.content).toEqual({ type: 'text', text: `Prompt added_${name} from other` });
    });

    it('refuses a sampling request clearly when the calling client cannot sample', async () => {
      const plain = await front()({});
      try {
        const result = (await plain.client.callTool({ name: 'kitchen_test_sampling', arguments: { prompt: 'x' } })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('the client of this session does not support sampling');
      } finally {
        await plain.client.close();
      }
    });

    afterAll(async () => {
      await a?.client.close();
    });
  });
}

describe('stdio and HTTP fronts', () => {
  const { dir, file } = rcProject(RC);

  primitiveSuite('stdio', () => async (capabilities) =>
    open(new StdioClientTransport(cliStdio(['serve', '--config', file], { cwd: dir })), capabilities),
  );

  let gateway: Gateway | undefined;
  let http: HttpFront | undefined;
  const httpFront = (): Front => async (capabilities) => {
    if (!http) {
      const loaded = await loadConfig({ file });
      gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
      await gateway.start();
      http = await serveHttp(gateway, { port: 0 });
    }
    return open(new StreamableHTTPClientTransport(new URL(http.url)), capabilities);
  };
  primitiveSuite('HTTP', httpFront);

  describe('HTTP sessions side by side', () => {
    it('delivers resources/updated only to the subscribed session and routes elicitation to the caller', async () => {
      const front = httpFront();
      const a = await front(ALL);
      const b = await front({ elicitation: {} });
      try {
        await a.client.subscribeResource({ uri: 'test://watched-resource' });
        await b.client.callTool({ name: 'kitchen_test_touch_resource', arguments: { value: 'from b' } });
        await a.updated.reached(1);
        await b.client.ping();
        expect(b.updates).toEqual([]);
        const elicited = await b.client.callTool({ name: 'kitchen_test_elicitation', arguments: { message: 'b?' } });
        expect(text(elicited)).toContain('action=accept');
      } finally {
        await a.client.close();
        await b.client.close();
      }
    });
  });

  afterAll(async () => {
    await http?.close();
    await gateway?.close();
  });
});

describe('roots', () => {
  it('reach a filesystem server started without directories, from the first client with roots', async () => {
    const dir = tempTree({ 'package.json': '{}', 'shared/hello.txt': 'hi\n' });
    const gateway = new Gateway({
      config: resolveConfig({ servers: { fs: { command: process.execPath, args: [serverEntry('filesystem')] } }, defaultMode: 'all', strategy: 'notify' }),
    });
    await gateway.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.createSession().connect(serverSide);
    const client = new Client({ name: 'roots-e2e', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    const shared = path.join(dir, 'shared');
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(shared).href, name: 'shared' }] }));
    try {
      await client.connect(clientSide);
      // The server fetches the roots after lazytools tells it they changed: wait for its answer to say so.
      const allowed = async () => text(await client.callTool({ name: 'list_allowed_directories', arguments: {} }));
      await expect.poll(allowed, { timeout: 15_000 }).toContain(shared);
      expect(text(await client.callTool({ name: 'read_text_file', arguments: { path: path.join(shared, 'hello.txt') } }))).toBe('hi\n');
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

describe('idle upstreams', () => {
  it('keep running while a session holds a subscription on them', async () => {
    const idle = { idleTimeout: 300 };
    const gateway = new Gateway({
      config: resolveConfig({
        servers: { kitchen: { command: process.execPath, args: [FIXTURE], ...idle }, other: { command: process.execPath, args: [FIXTURE, '--name', 'other'], ...idle } },
        defaultMode: 'all',
      }),
    });
    await gateway.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.createSession().connect(serverSide);
    const client = new Client({ name: 'idle-e2e', version: '1.0.0' });
    try {
      await client.connect(clientSide);
      await client.subscribeResource({ uri: 'test://watched-resource' });
      // "other" (no subscription, used later) is the control: once it stopped for idleness, the
      // subscribed upstream, idle for longer, would have stopped too.
      await client.callTool({ name: 'other_test_simple_text', arguments: {} });
      const other = gateway.upstreams.get('other');
      expect(await waitFor(() => other?.status === 'idle', 10_000)).toBe(true);
      expect(await waitFor(() => gateway.upstreams.get('kitchen')?.status !== 'ready', 500)).toBe(false);
      await client.unsubscribeResource({ uri: 'test://watched-resource' });
      expect(await waitFor(() => gateway.upstreams.get('kitchen')?.status === 'idle', 10_000)).toBe(true);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
