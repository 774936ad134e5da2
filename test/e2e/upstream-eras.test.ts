import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { cleanupAfterEach, EventCounter, FIXTURES, text, inMemoryClientV2 } from '../harness/index.js';

// Upstreams of either protocol era behind a 2025 client session: the kitchen-sink fixture as a
// 2026-07-28-only server, as a server of both eras, and as a 2025-only one, over stdio.
const FIXTURE = FIXTURES.kitchenSink;

const cleanups = cleanupAfterEach();

/** `timeout`: the rc's per-call timeout for the server. */
async function gatewayFor(flags: string[], timeout?: number, updated?: (uri: string) => void) {
  const config = resolveConfig(parseConfig({ servers: { kitchen: { command: process.execPath, args: [FIXTURE, ...flags], ...(timeout === undefined ? {} : { timeout }) } }, defaultMode: 'all', strategy: 'notify' }));
  const gateway = new Gateway({ config });
  cleanups.push(() => gateway.close());
  await gateway.start();
  const asked: string[] = [];
  const client = await inMemoryClientV2((t) => gateway.createSession().connect(t), {
    name: 'eras-e2e',
    clientOptions: { capabilities: { elicitation: {}, sampling: {} } },
    cleanups,
    prepare: (c) => {
      c.setNotificationHandler('notifications/resources/updated', (notification) => updated?.(notification.params.uri));
      c.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.method);
        return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
      });
      c.setRequestHandler('sampling/createMessage', (request) => {
        asked.push(request.method);
        return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'test-model' };
      });
    },
  });
  const upstream = gateway.upstreams.get('kitchen');
  if (!upstream) throw new Error('no upstream');
  return { client, upstream, asked };
}

describe('upstreams of either era, for a 2025 client', () => {
  for (const [label, flags, era] of [
    ['a 2026-07-28-only server', ['--modern-only'], 'modern'],
    ['a server of both eras (spoken to in 2025)', [], 'legacy'],
    ['a 2025-only server', ['--legacy-only'], 'legacy'],
  ] as const) {
    it(`reaches ${label}: tools, a prompt, a resource, and its questions to the client`, async () => {
      const { client, upstream, asked } = await gatewayFor([...flags]);
      expect(upstream.era).toBe(era);
      expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
      // The server asks the client: a real request on a 2025 connection, an input_required round
      // in 2026-07-28 that lazytools carries to this client as a request and retries.
      expect(text(await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } }))).toBe(
        'User response: action=accept, content={"username":"grace","email":"grace@example.com"}',
      );
      expect(text(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } }))).toBe('LLM response: sampled');
      expect(asked).toEqual(['elicitation/create', 'sampling/createMessage']);
      const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
      expect((await client.readResource({ uri: 'test://static-text' })).contents[0]).toMatchObject({ text: 'This is the content of the static text resource.' });
    });
  }

  it('finds the era again when the one the lock remembered no longer holds', async () => {
    const config = resolveConfig(parseConfig({ servers: { kitchen: { command: process.execPath, args: [FIXTURE, '--modern-only'] } }, defaultMode: 'all' }));
    const locked = [{ server: 'kitchen', tools: [{ name: 'test_simple_text', inputSchema: { type: 'object' as const } }], profile: { protocol: { era: 'legacy' as const } } }];
    const gateway = new Gateway({ config, locked });
    cleanups.push(() => gateway.close());
    await gateway.start();
    const upstream = gateway.upstreams.get('kitchen');
    expect(upstream?.discovery).toEqual({ kind: 'legacy' });
    const result = await upstream?.call({ name: 'test_simple_text', arguments: {} });
    expect(text(result)).toBe('This is a simple text response for testing.');
    expect(upstream?.era).toBe('modern');
  });

  it('keeps the era verdict for a restart (the next start connects with it)', async () => {
    const { client, upstream } = await gatewayFor(['--modern-only']);
    expect(upstream.discovery?.kind).toBe('modern');
    await upstream.stop();
    expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    expect(upstream.era).toBe('modern');
  });
});

describe('a call past its timeout, whatever the era of its upstream', () => {
  for (const [label, flags] of [
    ['a 2026-07-28-only server', ['--modern-only']],
    ['a 2025-only server', ['--legacy-only']],
  ] as const) {
    it(`${label}: fails with lazytools' own timeout error, and the server serves the next call`, async () => {
      // The tool takes 20 s (two steps of 10 s); the rc gives each call 300 ms.
      const { client } = await gatewayFor([...flags, '--step-ms', '10000'], 300);
      const late = await client.callTool({ name: 'test_tool_with_progress', arguments: {} });
      expect(late.isError).toBe(true);
      expect(text(late)).toContain('"test_tool_with_progress" on upstream "kitchen" timed out after 300 ms');
      expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    });
  }
});

describe('resource subscriptions, whatever the era of the upstream', () => {
  for (const [label, flags] of [
    ['a 2026-07-28-only server', ['--modern-only']],
    ['a 2025-only server', ['--legacy-only']],
  ] as const) {
    it(`${label}: a subscribed session hears resources/updated, and none after it unsubscribed`, async () => {
      const updates: string[] = [];
      const heard = new EventCounter();
      const { client } = await gatewayFor([...flags], undefined, (uri) => {
        updates.push(uri);
        heard.hit();
      });
      await client.subscribeResource({ uri: 'test://watched-resource' });
      await client.callTool({ name: 'test_touch_resource', arguments: { value: 'one' } });
      await heard.reached(1);
      expect(updates).toEqual(['test://watched-resource']);
      await client.unsubscribeResource({ uri: 'test://watched-resource' });
      await client.callTool({ name: 'test_touch_resource', arguments: { value: 'two' } });
      // Barrier: subscribe again and change it once more; an update for "two" would have come first.
      await client.subscribeResource({ uri: 'test://watched-resource' });
      await client.callTool({ name: 'test_touch_resource', arguments: { value: 'three' } });
      await heard.reached(2);
      expect(updates).toEqual(['test://watched-resource', 'test://watched-resource']);
    });
  }
});
