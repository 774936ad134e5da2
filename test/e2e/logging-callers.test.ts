import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, rcProject, suiteGateway } from '../harness/index.js';

/**
 * An upstream's log line during a call belongs to the call's client. A 2026-07-28 request's call
 * has no session to take it: its log lines went to every open 2025 session (a bystander read
 * another client's call's log), and so did a line sent while two sessions' calls were in flight
 * (fails on the old main).
 */

const rc = {
  servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink, '--name', 'kitchen', '--legacy-only'] } },
  defaultMode: 'all',
  strategy: 'hybrid',
};

/** A 2025 session on the gateway at `url` keeping the data of every log line it hears; `closers` closes it. */
async function loggingSession(url: string, name: string, closers: Array<() => Promise<void>>): Promise<{ client: LegacyClient; logs: unknown[] }> {
  const client = new LegacyClient({ name, version: '1.0.0' });
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
  await client.connect(new LegacyTransport(new URL(url)));
  closers.push(() => client.close());
  return { client, logs };
}

describe('upstream log lines reach only the client whose call caused them (HTTP)', () => {
  const suite = suiteGateway(() => rcProject(rc).file);
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
  });

  const legacy = (name: string) => loggingSession(suite.url, name, closers);

  it('a 2026-07-28 request\'s log line does not reach an idle 2025 session', async () => {
    const bystander = await legacy('bystander');
    const modern = new Client({ name: 'modern-caller', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    closers.push(() => modern.close());
    const called = await modern.callTool({ name: 'test_log', arguments: { level: 'info', message: 'modern: payroll of bob' } });
    expect(called.isError).toBeFalsy();
    // Barrier: the bystander's own call logs after it on the same upstream stream, and is its own.
    await bystander.client.callTool({ name: 'test_log', arguments: { level: 'info', message: 'bystander: own line' } });
    await bystander.client.ping();
    expect(bystander.logs).toEqual(['bystander: own line']);
  });
});

describe('one session\'s logging/setLevel and the sessions that never set a level (HTTP)', () => {
  // raw-server.mjs `logs`: a 2025 server that logs at info and above until told a level.
  const suite = suiteGateway(() => rcProject({ servers: { raw: { command: process.execPath, args: [FIXTURES.rawServer, 'logs'], env: { RAW_EXTRA_TOOLS: '["log_at"]' } } }, defaultMode: 'all' }).file);
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
  });

  const session = (name: string) => loggingSession(suite.url, name, closers);

  it('another session\'s debug does not reach a session that never set a level: it hears what it heard before', async () => {
    const quiet = await session('never-set');
    const verbose = await session('debugging');
    const tool = (await verbose.client.listTools()).tools.find((listed) => listed.name.endsWith('log_at'))!.name;
    // Before: the server logs at info, both hear that line.
    await verbose.client.callTool({ name: tool, arguments: { level: 'info', message: 'before: info' } });
    await verbose.client.setLoggingLevel('debug');
    await verbose.client.callTool({ name: tool, arguments: { level: 'debug', message: 'after: debug' } });
    await verbose.client.callTool({ name: tool, arguments: { level: 'info', message: 'after: info' } });
    // Barrier: lines with no call in flight go to every session in the order they came; a round trip flushes each.
    await Promise.all([verbose.client.ping(), quiet.client.ping()]);
    await expect.poll(() => verbose.logs).toEqual(['before: info', 'after: debug', 'after: info']);
    await quiet.client.ping();
    // Before the fix the session that never set a level heard the debug line too.
    expect(quiet.logs).toEqual(['before: info', 'after: info']);
  });
});
