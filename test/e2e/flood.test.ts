import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BUDGET_WINDOW_MS, NOTIFICATION_BUDGET } from '../../src/upstream/flood.js';
import type { Logger } from '../../src/util/log.js';
import { EventCounter, FIXTURES, httpFixture, rcProject, serveHttpGateway, tempTree, serveHttpCli, stopAll } from '../harness/index.js';

/**
 * A flood on one upstream slows only that one: while one stdio upstream writes
 * notifications without end (test/fixtures/servers/flood.mjs), another upstream's calls through
 * the same gateway complete, and the flooding one still answers once it stops. On the old main an
 * endless tools/list_changed or log flood starved every client: the calls below never completed.
 */

const FLOOD = FIXTURES.flood;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await stopAll();
});

async function gateway(): Promise<string> {
  const dir = tempTree({ 'package.json': '{}' });
  const file = path.join(dir, '.lazytoolsrc.json');
  const server = (name: string) => ({ command: process.execPath, args: [FLOOD], env: { FLOOD_NAME: name } });
  writeFileSync(file, JSON.stringify({ servers: { noisy: server('noisy'), calm: server('calm') }, defaultMode: 'all' }));
  return (await serveHttpCli(['--config', file], { cwd: dir })).url;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'flood-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('an endless notification flood on one upstream', () => {
  for (const kind of ['tools', 'prompts', 'message'] as const) {
    it(`(${kind}) leaves the other upstream's calls answered while it runs; the flooding upstream answers once it stops`, async () => {
      const url = await gateway();
      const [a, b] = [await connect(url), await connect(url)];
      // Both upstreams up (they start with the gateway).
      expect(text(await b.callTool({ name: 'calm_ok', arguments: {} }))).toBe('ok from calm');
      expect(text(await a.callTool({ name: 'noisy_ok', arguments: {} }))).toBe('ok from noisy');
      expect(text(await a.callTool({ name: 'noisy_flood', arguments: { kind } }))).toBe('flooding');
      for (let i = 0; i < 20; i++) expect(text(await b.callTool({ name: 'calm_ok', arguments: {} }))).toBe('ok from calm');
      // The flood was still running when the calls above were answered (it runs until told to stop).
      expect(text(await a.callTool({ name: 'noisy_stop', arguments: {} }))).toBe('stopped');
      expect(text(await a.callTool({ name: 'noisy_ok', arguments: {} }))).toBe('ok from noisy');
      expect((await b.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['noisy_ok', 'calm_ok']));
    }, 30_000);
  }
});

/**
 * The same flood from an HTTP upstream: its stream cannot be held, so past NOTIFICATION_BUDGET a
 * window the excess is dropped before parsing (flood.ts) and reported in one warning when the next
 * window starts. The gateway runs in process, so its warnings are read with their times.
 */
describe('a notification flood from an HTTP upstream', () => {
  it('drops the excess, keeps every call answered, and reports the drops at most once a second', async () => {
    const noisy = await httpFixture(FLOOD, [], { FLOOD_NAME: 'noisy' });
    const drops: Array<{ at: number; message: string }> = [];
    const dropped = new EventCounter();
    const logger: Logger = {
      info: () => {},
      error: () => {},
      warn: (message) => {
        if (!/notifications dropped/.test(message)) return;
        drops.push({ at: performance.now(), message });
        dropped.hit();
      },
    };
    const { file } = rcProject({ servers: { noisy: { url: noisy.url }, calm: { command: process.execPath, args: [FLOOD], env: { FLOOD_NAME: 'calm' } } }, defaultMode: 'all' });
    const served = await serveHttpGateway(file, { logger });
    try {
      const client = await connect(served.http!.url);
      expect(text(await client.callTool({ name: 'noisy_ok', arguments: {} }))).toBe('ok from noisy');
      expect(text(await client.callTool({ name: 'calm_ok', arguments: {} }))).toBe('ok from calm');
      expect(text(await client.callTool({ name: 'noisy_flood', arguments: { kind: 'message' } }))).toBe('flooding');
      await dropped.reached(1);
      // While it floods (and drops), both upstreams answer, the flooding one too.
      for (let i = 0; i < 10; i++) {
        expect(text(await client.callTool({ name: 'calm_ok', arguments: {} }))).toBe('ok from calm');
        expect(text(await client.callTool({ name: 'noisy_ok', arguments: {} }))).toBe('ok from noisy');
      }
      await dropped.reached(3);
      expect(text(await client.callTool({ name: 'noisy_stop', arguments: {} }))).toBe('stopped');
      // One warning per window that dropped, with its count, never two within a window.
      for (const { message } of drops) expect(message).toMatch(new RegExp(`^noisy: \\d+ notifications dropped \\(over ${NOTIFICATION_BUDGET} a second\\)$`));
      const gaps = drops.slice(1).map((drop, i) => drop.at - drops[i]!.at);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(BUDGET_WINDOW_MS - 20);
    } finally {
      await served.close();
      noisy.child.kill();
    }
  }, 60_000);
});
