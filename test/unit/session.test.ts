import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { curate } from '../../src/app/curate.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import { cleanupAfterEach, deferred, EventCounter, inMemoryClient, text } from '../harness/index.js';

const cleanups = cleanupAfterEach();

async function clientFor(connect: (transport: InMemoryTransport) => Promise<unknown>, name = 'test-client') {
  const counter = new EventCounter();
  const client = await inMemoryClient(connect, { name, cleanups, prepare: (c) => c.setNotificationHandler(ToolListChangedNotificationSchema, counter.hit) });
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

  it('curates a server written on the v2 SDK line just the same', async () => {
    const app = new McpServerV2({ name: 'billing', version: '2.0.0' });
    app.registerTool('create_invoice', { description: 'Create an invoice for a customer.', inputSchema: z.object({ customer: z.string() }) }, ({ customer }) => ({
      content: [{ type: 'text', text: `invoice for ${customer}` }],
    }));
    const curated = await curate(app, { config: { groups: { billing: { tools: ['*invoice*'] } }, modes: { billing: { groups: ['billing'] } }, defaultMode: 'billing' } });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_invoice');
    expect(curated.gateway.catalog.tools.map((tool) => tool.id)).toEqual(['billing:create_invoice']);
    expect(text(await client.callTool({ name: 'create_invoice', arguments: { customer: 'ACME' } }))).toBe('invoice for ACME');
  });

  it('propagates an upstream tools/list_changed to sessions whose list changed', async () => {
    const app = appServer();
    const curated = await curate(app, { config: appConfig });
    cleanups.push(() => curated.close());
    const billing = await clientFor((t) => curated.connect(t));
    const other = await clientFor((t) => curated.connect(t));
    const reading = await clientFor((t) => curated.connect(t));
    // A focus_mode switch sends its list_changed before its answer (on the request's stream).
    await other.client.callTool({ name: 'focus_mode', arguments: { mode: 'all' } });
    await reading.client.callTool({ name: 'focus_mode', arguments: { mode: 'reading' } });
    expect([billing.counter.count, other.counter.count, reading.counter.count]).toEqual([0, 1, 1]);
    app.registerTool('void_invoice', { description: 'Void an invoice.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'voided' }] }));
    await Promise.all([billing.counter.reached(1), other.counter.reached(2)]);
    // One rebuild tells every session in the same turn: a ping answered after the others were
    // told proves that nothing was sent to reading (and nothing more to the others).
    await Promise.all([billing.client.ping(), other.client.ping(), reading.client.ping()]);
    expect(billing.counter.count).toBe(1);
    expect((await billing.client.listTools()).tools.map((t) => t.name)).toContain('void_invoice');
    expect(other.counter.count).toBe(2);
    expect(reading.counter.count).toBe(1);
  });

  it('forwards cancellation to the upstream tool', async () => {
    const app = appServer();
    const started = deferred();
    const aborted = deferred();
    app.registerTool('slow', { description: 'Waits until cancelled.', inputSchema: {} }, (_args, extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          aborted.resolve();
          resolve({ content: [{ type: 'text', text: 'stopped' }] });
        });
        started.resolve();
      }),
    );
    const curated = await curate(app, { config: { ...appConfig, defaultMode: 'all' } });
    cleanups.push(() => curated.close());
    const { client } = await clientFor((t) => curated.connect(t));
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await started.promise;
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await aborted.promise;
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
    expect(text(result)).toBe('Mode "reading" is read-only and "create_invoice" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads). Modes that include it: all, billing, customer_support (switch with focus_mode).');
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

describe('upstream configuration', () => {
  it('disables only the server whose environment variable is missing, naming it', async () => {
    const config = resolveConfig({
      servers: { gh: { url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${LT_TEST_MISSING_TOKEN}' } }, other: { url: 'https://other.example.test/mcp' } },
    });
    const [gh, other] = createUpstreams(config, { env: {} });
    expect(gh?.disabledReason).toBe('servers.gh.headers.Authorization: environment variable LT_TEST_MISSING_TOKEN is not set (referenced as ${LT_TEST_MISSING_TOKEN})');
    expect(other?.disabledReason).toBeUndefined();
    await expect(gh?.start()).rejects.toThrow('upstream "gh" is disabled: servers.gh.headers.Authorization: environment variable LT_TEST_MISSING_TOKEN is not set');
    expect(gh?.status).toBe('down');
    expect(createUpstreams(config, { env: { LT_TEST_MISSING_TOKEN: 'x' } })[0]?.disabledReason).toBeUndefined();
  });
});
