import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { deferred, EventCounter, FIXTURES, kitchenSinkHttp, rcProject, serveHttpGateway, suiteGateway } from '../harness/index.js';

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

describe('a 2026-07-28 upstream whose listen stream drops', () => {
  it('is listened to again: its list changes keep reaching the gateway', async () => {
    // Cut 300 ms after it opens, as a restart or a proxy that ends long streams would; before,
    // the gateway heard no list change from that server again until it restarted.
    const fixture = await kitchenSinkHttp(['--modern-only', '--drop-first-listen']);
    const lines: string[] = [];
    const second = deferred();
    fixture.child.stdout?.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter((line) => line.startsWith('listen ')));
      if (lines.includes('listen 2')) second.resolve();
    });
    const served = await serveHttpGateway(rcProject({ servers: { kitchen: { url: fixture.url } }, defaultMode: 'all' }).file);
    try {
      await second.promise;
      expect(lines.slice(0, 2)).toEqual(['listen 1', 'listen 2']);
    } finally {
      await served.close();
      fixture.child.kill();
    }
  });
});
