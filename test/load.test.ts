import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { serve } from '../src/front/serve.js';
import type { Logger } from '../src/util/log.js';
import { silentLogger } from '../src/util/log.js';
import { referenceRc, waitFor } from './helpers.js';

const MODES = ['all', 'code_review', 'daily_checkin', 'debugging', 'development', 'security_review', 'sprint_planning', 'task_management'];

describe('load over HTTP (loopback)', () => {
  it('100 concurrent sessions x 100 calls: every answer reaches its own session, no list moves for another', async () => {
    const { file } = referenceRc();
    const served = await serve({ config: file, http: { port: 0, idleTimeoutMs: 3_000 }, logger: silentLogger });
    const url = new URL(served.http!.url);
    const rssBefore = process.memoryUsage().rss;
    const run = async (s: number) => {
      const client = new Client({ name: `load-${s}`, version: '1' });
      let notifications = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notifications++;
      });
      await client.connect(new StreamableHTTPClientTransport(url));
      const mode = MODES[s % MODES.length]!;
      await client.callTool({ name: 'focus_mode', arguments: { mode } });
      const list = (await client.listTools()).tools.map((t) => t.name);
      notifications = 0;
      let wrong = 0;
      for (let c = 0; c < 100; c++) {
        const message = `session ${s} call ${c}`;
        const result = (await client.callTool({ name: 'echo', arguments: { message } })) as CallToolResult;
        if ((result.content[0] as { text: string }).text !== `Echo: ${message}`) wrong++;
      }
      const after = (await client.listTools()).tools.map((t) => t.name);
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
      await client.close();
      return { wrong, notifications, sameList: JSON.stringify(after) === JSON.stringify(list), mode: (status.structuredContent as { mode: string }).mode, expected: mode };
    };
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 100 }, (_, s) => run(s)));
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = process.memoryUsage().rss;
    console.log(`load: 10,000 calls over 100 sessions in ${seconds.toFixed(1)} s; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB -> ${(rssAfter / 2 ** 20).toFixed(0)} MB`);
    expect(results.reduce((n, r) => n + r.wrong, 0)).toBe(0);
    expect(results.every((r) => r.sameList)).toBe(true);
    expect(results.every((r) => r.notifications === 0)).toBe(true);
    expect(results.every((r) => r.mode === r.expected)).toBe(true);
    expect(await waitFor(() => served.http!.sessions.size === 0, 10_000)).toBe(true);
    expect(served.gateway.sessions.size).toBe(0);
    console.log(`load: RSS after the sessions expired ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (test process, clients included)`);
    await served.close();
  }, 120_000);
});

describe('config reload', () => {
  it('keeps the old config when the new one is invalid, and applies a valid one', async () => {
    const { file } = referenceRc();
    const errors: string[] = [];
    const infos: string[] = [];
    const logger: Logger = { info: (m) => infos.push(m), warn: () => {}, error: (m) => errors.push(m) };
    const served = await serve({ config: file, http: { port: 0 }, logger, watch: true });
    const client = new Client({ name: 'reload', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
    const rc = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...rc, modez: {} }));
    expect(await waitFor(() => errors.some((e) => e.includes('config reload failed')), 5_000)).toBe(true);
    expect(errors.find((e) => e.includes('config reload failed'))).toContain('Unrecognized key: "modez"');
    expect(Object.keys(served.gateway.config.modes)).not.toContain('notes');
    expect((await client.listTools()).tools.length).toBeGreaterThan(3);
    writeFileSync(file, JSON.stringify({ ...rc, modes: { notes: { groups: ['memory'], aliases: ['notes'] } } }));
    expect(await waitFor(() => served.gateway.config.modes.notes !== undefined, 5_000)).toBe(true);
    const switched = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'notes' } })) as CallToolResult;
    expect(switched.isError).toBeFalsy();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
    await client.close();
    await served.close();
  }, 30_000);
});
