import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../src/config/resolve.js';
import type { RcConfig } from '../src/config/schema.js';
import { curate } from '../src/front/curate.js';
import { Gateway } from '../src/front/gateway.js';
import { createUpstreams } from '../src/upstream/connect.js';
import { ConfigError } from '../src/util/errors.js';
import { readFileSync } from 'node:fs';
import { childPids, referenceRc, serverEntry, waitFor } from './helpers.js';

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's children running the everything reference server (Linux /proc). */
function everythingPids(): number[] {
  return childPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server-everything');
    } catch {
      return false;
    }
  });
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function clientFor(connect: (transport: InMemoryTransport) => Promise<unknown>, name = 'test-client') {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  const counter = { notifications: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    counter.notifications++;
  });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { client, counter };
}

function appServer() {
  const app = new McpServer({ name: 'app', version: '1.0.0' });
  app.registerTool('create_invoice', { description: 'Create an invoice for a customer.', inputSchema: { customer: z.string(), amount: z.number() } }, ({ customer, amount }) => ({
    content: [{ type: 'text', text: `invoice for ${customer}: ${amount}` }],
  }));
  app.registerTool(
    'list_invoices',
    { description: 'List invoices.', inputSchema: {}, annotations: { readOnlyHint: true } },
    () => ({ content: [{ type: 'text', text: '[]' }] }),
  );
  app.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, () => {
    throw new Error('boom');
  });
  return app;
}

const appConfig: RcConfig = {
  groups: { billing: { tools: ['*invoice*'] }, billing_read: { tools: ['*invoice*'], readOnly: true } },
  modes: { billing: { groups: ['billing'] }, reading: { groups: ['billing_read'], readOnly: true } },
  defaultMode: 'billing',
};

describe('library mode: curate(McpServer)', () => {
  it('curates an SDK server in process', async () => {
    const app = appServer();
    const curated = await curate(app, { config: appConfig });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['focus_mode', 'search_tools', 'execute_tool', 'create_invoice', 'list_invoices']);
    const result = await client.callTool({ name: 'create_invoice', arguments: { customer: 'ACME', amount: 3 } });
    expect(text(result)).toBe('invoice for ACME: 3');
  });

  it('propagates an upstream tools/list_changed to sessions whose list changed', async () => {
    const app = appServer();
    const curated = await curate(app, { config: appConfig });
    cleanups.push(() => curated.close());
    const billing = await clientFor((t) => curated.connect(t));
    const other = await clientFor((t) => curated.connect(t));
    const reading = await clientFor((t) => curated.connect(t));
    await other.client.callTool({ name: 'focus_mode', arguments: { mode: 'all' } });
    await reading.client.callTool({ name: 'focus_mode', arguments: { mode: 'reading' } });
    await settle();
    billing.counter.notifications = 0;
    other.counter.notifications = 0;
    reading.counter.notifications = 0;
    app.registerTool('void_invoice', { description: 'Void an invoice.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'voided' }] }));
    await settle(200);
    expect(billing.counter.notifications).toBe(1);
    expect((await billing.client.listTools()).tools.map((t) => t.name)).toContain('void_invoice');
    expect(other.counter.notifications).toBe(1);
    expect(reading.counter.notifications).toBe(0);
  });

  it('forwards cancellation to the upstream tool', async () => {
    const app = appServer();
    let aborted = false;
    app.registerTool('slow', { description: 'Waits until cancelled.', inputSchema: {} }, (_args, extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ content: [{ type: 'text', text: 'stopped' }] });
        });
      }),
    );
    const curated = await curate(app, { config: { ...appConfig, defaultMode: 'all' } });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await settle();
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    expect(await waitFor(() => aborted, 2_000)).toBe(true);
  });

  it('turns upstream tool failures into isError results', async () => {
    const curated = await curate(appServer(), { config: { ...appConfig, defaultMode: 'all' } });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    const result = (await client.callTool({ name: 'fail', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('boom');
  });

  it('refuses non-read-only tools in a read-only mode, naming the modes that have them', async () => {
    const curated = await curate(appServer(), { config: { ...appConfig, defaultMode: 'reading' } });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    const result = (await client.callTool({ name: 'create_invoice', arguments: { customer: 'x', amount: 1 } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Mode "reading" is read-only and "create_invoice" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads). Modes that include it: all, billing (switch with focus_mode).');
    expect(text(await client.callTool({ name: 'list_invoices', arguments: {} }))).toBe('[]');
  });

  it('allows hidden tools by default and rejects them with policy reject', async () => {
    const allow = await curate(appServer(), { config: { ...appConfig, groups: { ...appConfig.groups, only_list: { tools: ['list_invoices'] } }, modes: { ...appConfig.modes, listing: { groups: ['only_list'] } }, defaultMode: 'listing' } });
    cleanups.push(() => allow.close());
    const a = await clientFor((t) => allow.connect(t));
    expect(text(await a.client.callTool({ name: 'create_invoice', arguments: { customer: 'x', amount: 1 } }))).toBe('invoice for x: 1');
    const reject = await curate(appServer(), {
      config: { ...appConfig, groups: { ...appConfig.groups, only_list: { tools: ['list_invoices'] } }, modes: { ...appConfig.modes, listing: { groups: ['only_list'] } }, defaultMode: 'listing', policy: { hiddenTools: 'reject' } },
    });
    cleanups.push(() => reject.close());
    const r = await clientFor((t) => reject.connect(t));
    const refused = (await r.client.callTool({ name: 'create_invoice', arguments: { customer: 'x', amount: 1 } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('"create_invoice" is not part of mode "listing" and this gateway rejects hidden tools. Modes that include it: all, billing');
  });
});

describe('upstream failures', () => {
  it('ends an in-flight call with isError when the upstream dies, then restarts it on the next call', async () => {
    const { file } = referenceRc({ defaultMode: 'debugging' });
    const { loadConfig } = await import('../src/config/load.js');
    const loaded = await loadConfig({ file });
    const gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
    cleanups.push(() => gateway.close());
    const before = new Set(everythingPids());
    await gateway.start();
    const { client } = await clientFor(async (t) => gateway.createSession().connect(t));
    const [pid] = everythingPids().filter((p) => !before.has(p));
    expect(pid).toBeDefined();
    const pending = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 5 } });
    await settle(300);
    process.kill(pid!, 'SIGKILL');
    const result = (await pending) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('upstream "everything" exited while handling the call');
    const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
    expect(text(status)).toContain('Servers down: everything');
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'back' } }))).toBe('Echo: back');
  });

  it('keeps serving when an upstream cannot start', async () => {
    const config = resolveConfig({
      servers: {
        broken: { command: '/nonexistent/mcp-server' },
        memory: { command: process.execPath, args: [serverEntry('memory')] },
      },
      defaultMode: 'all',
    });
    const gateway = new Gateway({ config });
    cleanups.push(() => gateway.close());
    await gateway.start();
    expect(gateway.upstreams.get('broken')?.status).toBe('down');
    expect(gateway.upstreams.get('broken')?.lastError).toContain('command not found');
    const { client } = await clientFor(async (t) => gateway.createSession().connect(t));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
  });

  it('names a missing environment variable as a config error', () => {
    const config = resolveConfig({ servers: { gh: { url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${LT_TEST_MISSING_TOKEN}' } } } });
    expect(() => createUpstreams(config, { env: {} })).toThrow(ConfigError);
    expect(() => createUpstreams(config, { env: {} })).toThrow('servers.gh.headers.Authorization: environment variable LT_TEST_MISSING_TOKEN is not set');
    expect(() => createUpstreams(config, { env: { LT_TEST_MISSING_TOKEN: 'x' } })).not.toThrow();
  });
});
