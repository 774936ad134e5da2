import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../src/config/resolve.js';
import { deferred, EventCounter, FIXTURES, rcProject, suiteGateway } from '../harness/index.js';

/** The kitchen-sink server; the default mode `work` shows the tools of group `shown`. */
function rc(shown: string[], cacheTtlMs?: number) {
  return {
    servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } },
    groups: { shown: { tools: shown } },
    modes: { work: { description: 'The work at hand', groups: ['shown'] } },
    defaultMode: 'work',
    strategy: 'hybrid',
    ...(cacheTtlMs === undefined ? {} : { cache: { ttlMs: cacheTtlMs } }),
  };
}

/**
 * The same rc changes seen by a client of each era over one HTTP gateway (v2 clients both, per
 * test/README): a 2025 session (tools/list_changed on its standalone stream) and a 2026-07-28
 * client (on its subscriptions/listen stream). Both eras decide through handlers/list-changes.
 */
describe('list_changed in both eras for the same change', () => {
  let file = '';
  const suite = suiteGateway(() => (file = rcProject(rc(['kitchen:test_simple_text'])).file), { watch: true });

  /** Writes the rc and waits until the gateway has reloaded it (its tools listeners ran). */
  async function reload(next: ReturnType<typeof rc>, loaded: (config: ResolvedConfig) => boolean): Promise<void> {
    const done = deferred();
    const listener = (kind: string) => {
      if (kind === 'tools' && loaded(suite.served.gateway.config)) done.resolve();
    };
    suite.served.gateway.listChangeListeners.add(listener);
    writeFileSync(file, JSON.stringify(next));
    await done.promise;
    suite.served.gateway.listChangeListeners.delete(listener);
  }

  it('a reload that changes the visible list is announced once to each; one that changes no list to neither', async () => {
    const url = suite.url;
    // 2025: a session, with a barrier on its standalone stream (a server ping the client answers).
    const legacy = new Client({ name: 'eras-legacy', version: '1.0.0' });
    const legacyTools = new EventCounter();
    legacy.setNotificationHandler('notifications/tools/list_changed', legacyTools.hit);
    const streamOpen = deferred();
    const legacyTransport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'GET' && response.ok) streamOpen.resolve();
        return response;
      },
    });
    await legacy.connect(legacyTransport);
    await streamOpen.promise;
    const legacyBarrier = () => suite.served.http!.sessions.get(legacyTransport.sessionId!)!.session.server.ping();
    // 2026-07-28: a listen stream; an upstream prompt change is its barrier (same stream, later).
    const modern = new Client({ name: 'eras-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(url)));
    const modernTools = new EventCounter();
    const modernPrompts = new EventCounter();
    modern.setNotificationHandler('notifications/tools/list_changed', modernTools.hit);
    modern.setNotificationHandler('notifications/prompts/list_changed', modernPrompts.hit);
    const subscription = await modern.listen({ toolsListChanged: true, promptsListChanged: true });
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(legacy)).toContain('test_simple_text');
    expect(await names(legacy)).toEqual(await names(modern));

    // A reload that changes no tool list (only the 2026-07-28 cache hint): silent in both eras.
    await reload(rc(['kitchen:test_simple_text'], 1234), (config) => config.cacheTtlMs === 1234);
    await legacyBarrier();
    await modern.callTool({ name: 'test_add_prompt', arguments: { name: 'barrier_one' } });
    await modernPrompts.reached(1);
    expect([legacyTools.count, modernTools.count]).toEqual([0, 0]);

    // A reload that changes the default mode's list: announced once in each era.
    await reload(rc(['kitchen:test_simple_text', 'kitchen:test_log'], 1234), (config) => (config.groups.shown?.tools ?? []).length === 2);
    await Promise.all([legacyTools.reached(1), modernTools.reached(1)]);
    await legacyBarrier();
    await modern.callTool({ name: 'test_add_prompt', arguments: { name: 'barrier_two' } });
    await modernPrompts.reached(2);
    expect([legacyTools.count, modernTools.count]).toEqual([1, 1]);
    expect(await names(legacy)).toContain('test_log');
    expect(await names(legacy)).toEqual(await names(modern));

    await subscription.close();
    await modern.close();
    await legacyTransport.terminateSession();
    await legacy.close();
  }, 120_000);
});
