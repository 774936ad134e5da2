import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/util/log.js';
import { referenceRc, serveHttpGateway } from '../harness/index.js';

const MODES = ['all', 'code_review', 'daily_checkin', 'debugging', 'development', 'security_review', 'sprint_planning', 'task_management'];

const SESSIONS = 100;
const CALLS = 30;
/**
 * The load test's time limits scale with its work and the machine's pace. A watchdog fails the
 * test when no step of any session completes for STALL_MS (a hang); otherwise the run may take as
 * long as the machine needs. LIMIT_MS, 300 ms per call, is only the outer net, the sessions' idle
 * timeout and every request's own timeout (the SDKs give up after 60 s by default): client and
 * gateway share one event loop here, so a loaded machine can leave one session a minute between
 * its requests while the others progress, and it must not be expired or timed out meanwhile (idle
 * expiry has its own test in gateway-http.test.ts). 100 sessions at once are what can mix answers
 * up; 30 calls each (10,000 in all before) keep every session busy while the others run and cut
 * the time a loaded machine spends here: with two suites at once beside two CPU hogs, 100 calls a
 * session took 97 s and one request passed the SDK's 60 s.
 */
const STALL_MS = 60_000;
const LIMIT_MS = SESSIONS * CALLS * 300;
/** Each request waits as long as the test may: a stall is the watchdog's to report. */
const WAIT = { timeout: LIMIT_MS };

describe('load over HTTP (loopback)', () => {
  it(`${SESSIONS} concurrent sessions x ${CALLS} calls: every answer reaches its own session, no list moves for another`, async () => {
    const { file } = referenceRc();
    const served = await serveHttpGateway(file, { http: { idleTimeoutMs: LIMIT_MS } });
    const url = new URL(served.http!.url);
    let lastStep = Date.now();
    let steps = 0;
    /** Awaits one step of a session and records the progress for the watchdog. */
    const step = async <T>(promise: Promise<T>): Promise<T> => {
      const value = await promise;
      lastStep = Date.now();
      steps++;
      return value;
    };
    const run = async (s: number) => {
      const client = new Client({ name: `load-${s}`, version: '1' });
      let notifications = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notifications++;
      });
      let streamOpen!: () => void;
      const standalone = new Promise<void>((resolve) => (streamOpen = resolve));
      const transport = new StreamableHTTPClientTransport(url, {
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (init?.method === 'GET' && response.ok) streamOpen();
          return response;
        },
      });
      await step(client.connect(transport, WAIT));
      const mode = MODES[s % MODES.length]!;
      await step(client.callTool({ name: 'focus_mode', arguments: { mode } }, undefined, WAIT));
      const list = (await step(client.listTools(undefined, WAIT))).tools.map((t) => t.name);
      notifications = 0;
      let wrong = 0;
      for (let c = 0; c < CALLS; c++) {
        const message = `session ${s} call ${c}`;
        const result = (await step(client.callTool({ name: 'echo', arguments: { message } }, undefined, WAIT))) as CallToolResult;
        if ((result.content[0] as { text: string }).text !== `Echo: ${message}`) wrong++;
      }
      const after = (await step(client.listTools(undefined, WAIT))).tools.map((t) => t.name);
      const status = (await step(client.callTool({ name: 'focus_mode', arguments: { status: true } }, undefined, WAIT))) as CallToolResult;
      // Barrier: a server ping on the session's standalone stream, where a notification caused by
      // another session would travel; its answer comes after anything sent there before.
      await step(standalone);
      await step(served.http!.sessions.get(transport.sessionId!)!.session.server.request({ method: 'ping' }, WAIT));
      const heard = notifications;
      // The gateway closes the session before it answers the DELETE.
      await step(transport.terminateSession());
      await client.close();
      return { wrong, notifications: heard, sameList: JSON.stringify(after) === JSON.stringify(list), mode: (status.structuredContent as { mode: string }).mode, expected: mode };
    };
    let watchdog: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_resolve, reject) => {
      watchdog = setInterval(() => {
        if (Date.now() - lastStep > STALL_MS) reject(new Error(`no session made progress for ${STALL_MS / 1000} s (${steps} steps done)`));
      }, 1_000);
    });
    try {
      const results = await Promise.race([Promise.all(Array.from({ length: SESSIONS }, (_, s) => run(s))), stalled]);
      expect(results.reduce((n, r) => n + r.wrong, 0)).toBe(0);
      expect(results.every((r) => r.sameList)).toBe(true);
      expect(results.every((r) => r.notifications === 0)).toBe(true);
      expect(results.every((r) => r.mode === r.expected)).toBe(true);
      expect(served.http!.sessions.size).toBe(0);
      expect(served.gateway.sessions.size).toBe(0);
    } finally {
      clearInterval(watchdog);
      await served.close();
    }
  }, LIMIT_MS);
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
    const served = await serveHttpGateway(file, { logger, watch: true });
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
  });
});
