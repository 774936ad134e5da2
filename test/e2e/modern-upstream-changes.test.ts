import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { EventCounter, FIXTURES, rcProject, suiteGateway } from '../harness/index.js';

const FIXTURE = FIXTURES.kitchenSink;

describe('2026-07-28 subscriptions/listen hears an upstream list change', () => {
  const suite = suiteGateway(() => rcProject({ servers: { kitchen: { command: process.execPath, args: [FIXTURE] } }, defaultMode: 'all' }).file);

  it('an upstream prompts/list_changed reaches the listen stream, and the next list has the prompt', async () => {
    const client = new Client({ name: 'modern-changes', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    const prompts = new EventCounter();
    const tools = new EventCounter();
    client.setNotificationHandler('notifications/prompts/list_changed', prompts.hit);
    client.setNotificationHandler('notifications/tools/list_changed', tools.hit);
    const subscription = await client.listen({ promptsListChanged: true, toolsListChanged: true });
    const added = await client.callTool({ name: 'test_add_prompt', arguments: { name: 'added_at_run_time' } });
    expect(added.isError).toBeFalsy();
    await prompts.reached(1);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('added_at_run_time');
    // The tool list did not change: no tools/list_changed (barrier: a call answered after the change).
    await client.callTool({ name: 'test_simple_text', arguments: {} });
    expect(tools.count).toBe(0);
    await subscription.close();
    await client.close();
  });
});
