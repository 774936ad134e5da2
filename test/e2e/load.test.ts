import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/front/serve.js';
import type { Logger } from '../../src/util/log.js';
import { silentLogger } from '../../src/util/log.js';
import { referenceRc } from '../helpers.js';

const MODES = ['all', 'code_review', 'daily_checkin', 'debugging', 'development', 'security_review', 'sprint_planning', 'task_management'];

const SESSIONS = 100;
const CALLS = 100;
/**
 * Every time limit of the load test scales with its work: a fixed minute plus 20 ms per call
 * (runs take 20 s on a quiet 2-core machine and 60 to 90 s while other jobs load it). Sessions get this as their idle
 * timeout too: the client and the gateway share one event loop here, so on a loaded machine a
 * working session can go seconds between requests, and it must not be expired meanwhile (idle
 * expiry has its own test in gateway-http.test.ts).
 */
const BUDGET_MS = 60_000 + SESSIONS * CALLS * 20;

describe('load over HTTP (loopback)', () => {
  it(`${SESSIONS} concurrent sessions x ${CALLS} calls: every answer reaches its own session, no list moves for another`, async () => {
    const { file } = referenceRc();
    const served = await serve({ config: file, http: { port: 0, idleTimeoutMs: BUDGET_MS }, logger: silentLogger });
    const url = new URL(served.http!.url);
    const rssBefore = process.memoryUsage().rss;
    const run = async (s: number) => {
      const client = new Client({ name: `load-${s}`, version: '1' });
      let notifications = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notifications++;
      });
      const transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      const mode = MODES[s % MODES.length]!;
      await client.callTool({ name: 'focus_mode', arguments: { mode } });
      const list = (await client.listTools()).tools.map((t) => t.name);
      notifications = 0;
      let wrong = 0;
      for (let c = 0; c < CALLS; c++) {
        const message = `session ${s} call ${c}`;
        const result = (await client.callTool({ name: 'echo', arguments: { message } })) as CallToolResult;
        if ((result.content[0] as { text: string }).text !== `Echo: ${message}`) wrong++;
      }
      const after = (await client.listTools()).tools.map((t) => t.name);
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
      // The gateway closes the session before it answers the DELETE.
      await transport.terminateSession();
      await client.close();
      return { wrong, notifications, sameList: JSON.stringify(after) === JSON.stringify(list), mode: (status.structuredContent as { mode: string }).mode, expected: mode };
    };
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: SESSIONS }, (_, s) => run(s)));
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = process.memoryUsage().rss;
    console.log(`load: ${SESSIONS * CALLS} calls over ${SESSIONS} sessions in ${seconds.toFixed(1)} s; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB -> ${(rssAfter / 2 ** 20).toFixed(0)} MB`);
    expect(results.reduce((n, r) => n + r.wrong, 0)).toBe(0);
    expect(results.every((r) => r.sameList)).toBe(true);
    expect(results.every((r) => r.notifications === 0)).toBe(true);
    expect(results.every((r) => r.mode === r.expected)).toBe(true);
    expect(served.http!.sessions.size).toBe(0);
    expect(served.gateway.sessions.size).toBe(0);
    console.log(`load: RSS after the sessions ended ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (test process, clients included)`);
    await served.close();
  }, BUDGET_MS);
});

describe('config reload', () => {
  it('keeps the old config when the new one is invalid, and applies a valid one', async () => {
    const { file } = referenceRc();
    const errors: string[] = [];
    const infos: string[] = [];
    const waiting: Array<() => void> = [];
    const note = (list: string[]) => (message: string) => {
      list.push(message);
      for (const wake of waiting.splice(0)) wake();
    };
    /** Resolves once a log line satisfies `check` (an event: the watcher logs each reload). */
    const logged = (check: () => boolean) =>
      new Promise<void>((resolve) => {
        const test = () => (check() ? resolve() : waiting.push(test));
        test();
      });
    const logger: Logger = { info: note(infos), warn: () => {}, error: note(errors) };
    const served = await serve({ config: file, http: { port: 0 }, logger, watch: true });
    const client = new Client({ name: 'reload', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
    const rc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...rc, modez: {} }));
    await logged(() => errors.some((e) => e.includes('config reload failed')));
    expect(errors.find((e) => e.includes('config reload failed'))).toContain('Unrecognized key: "modez"');
    expect(Object.keys(served.gateway.config.modes)).not.toContain('notes');
    expect((await client.listTools()).tools.length).toBeGreaterThan(3);
    writeFileSync(file, JSON.stringify({ ...rc, modes: { notes: { groups: ['memory'], aliases: ['notes'] } } }));
    await logged(() => infos.some((m) => m.startsWith('reloaded ')));
    expect(served.gateway.config.modes.notes).toBeDefined();
    const switched = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'notes' } })) as CallToolResult;
    expect(switched.isError).toBeFalsy();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
    await client.close();
    await served.close();
  }, 30_000);
});
