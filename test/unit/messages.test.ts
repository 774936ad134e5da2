import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ServerTools } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig, Strategy } from '../../src/config/schema.js';
import { curate } from '../../src/app/curate.js';
import { Gateway } from '../../src/app/gateway.js';
import { cleanupAfterEach, inMemoryClient, referenceSources, text } from '../harness/index.js';

/**
 * What the gateway says to a model through the real protocol (SDK client, in-memory
 * transport) names only tools the session has, never hides a token increase, and never guesses.
 */
const cleanups = cleanupAfterEach();

async function offline(rc: RcConfig, known: ServerTools[], strategy?: Strategy) {
  const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: known });
  await gateway.start();
  const client = await inMemoryClient((t) => gateway.createSession({ strategy }).connect(t), { name: 'messages-test' });
  cleanups.push(async () => {
    await client.close();
    await gateway.close();
  });
  return client;
}

describe('gateway messages', () => {
  it('6: notify search answers do not point at execute_tool; hybrid says where describe_tools and list_tool_groups live', async () => {
    const sources = await referenceSources();
    const notify = await offline({}, sources, 'notify');
    const listed = (await notify.listTools()).tools.map((t) => t.name);
    expect(listed).not.toContain('execute_tool');
    const found = text(await notify.callTool({ name: 'search_tools', arguments: { query: 'read a file', enable: false } }));
    expect(found).not.toContain('execute_tool');
    expect(found).toContain('not added to your list: call one by its name, or search again with "enable": true to add them');

    const hybrid = await offline({}, sources, 'hybrid');
    for (const name of ['describe_tools', 'list_tool_groups']) {
      const result = (await hybrid.callTool({ name, arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).not.toContain(`Unknown tool "${name}"`);
      expect(text(result)).toContain(`"${name}" is not offered under the hybrid strategy (the proxy strategy lists it; serve --strategy proxy`);
    }
    expect(text(await hybrid.callTool({ name: 'describe_tools', arguments: {} }))).toContain('search_tools with "detail": "schema"');
  });

  it('7: curate names the upstream after the server; name overrides it; unknown tools.<id> keys are warned', async () => {
    const app = new McpServer({ name: 'billing', version: '1.0.0' });
    app.registerTool('create_invoice', { description: 'Create an invoice.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => void warnings.push(message), error: () => {} };
    const config: RcConfig = {
      groups: { invoices: { servers: ['billing'] } },
      modes: { billing: { description: 'Invoices', groups: ['invoices'] } },
      defaultMode: 'billing',
      tools: { 'billing:create_invoice': { summary: 'Bill a customer' }, 'billing:create_invoic': { summary: 'typo' } },
    };
    const curated = await curate(app, { config, logger });
    cleanups.push(() => curated.close());
    expect(curated.gateway.catalog.tools.map((t) => t.id)).toEqual(['billing:create_invoice']);
    expect(curated.gateway.catalog.byId.get('billing:create_invoice')?.summary).toBe('Bill a customer');
    expect(warnings.some((w) => w.includes('tools."billing:create_invoic" names no tool in the catalog') && w.includes('Did you mean "billing:create_invoice"?'))).toBe(true);
    expect(warnings.some((w) => w.includes('tools."billing:create_invoice"'))).toBe(false);

    const other = new McpServer({ name: 'billing', version: '1.0.0' });
    other.registerTool('create_invoice', { description: 'Create an invoice.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const renamed = await curate(other, { name: 'invoicing', logger });
    cleanups.push(() => renamed.close());
    expect(renamed.gateway.catalog.tools.map((t) => t.id)).toEqual(['invoicing:create_invoice']);
  });

  it('8: focus_mode says when lazytools adds tokens instead of reporting 0.0% fewer', async () => {
    const tiny: ServerTools[] = [{ server: 'tiny', tools: [{ name: 'ping', description: 'Ping.', inputSchema: { type: 'object' } }] }];
    const client = await offline({ groups: { tiny: { servers: ['tiny'] } }, modes: { small: { description: 'Small', groups: ['tiny'] } }, defaultMode: 'small' }, tiny);
    const result = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
    expect(text(result)).toMatch(/Visible: 1 of 1 tools, (\d+) of (\d+) tokens \(adds \d+ tokens: lazytools' own tools cost more than this mode saves\)/);
    expect(text(result)).not.toContain('0.0% fewer');
    const { tokens, totalTokens } = result.structuredContent as { tokens: number; totalTokens: number };
    expect(text(result)).toContain(`adds ${tokens - totalTokens} tokens`);
  });

  it('9: an unclear focus_mode intent lists the modes with their descriptions instead of zero-confidence names', async () => {
    const client = await offline({}, await referenceSources());
    const result = (await client.callTool({ name: 'focus_mode', arguments: { intent: 'x' } })) as CallToolResult;
    expect(text(result)).not.toMatch(/closest/i);
    expect(text(result)).toContain('No mode matches "x"');
    expect(text(result)).toContain('- daily_checkin: Start of day');
    expect(text(result)).toContain('call focus_mode with {"mode": "<name>"}');
    expect((result.structuredContent as { candidates: string[] }).candidates).toEqual([]);
  });

  it('13: an unknown resource reads one clean message', async () => {
    const client = await offline({}, await referenceSources());
    const error = await client.readResource({ uri: 'lazytools://groups/nope' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('MCP error -32602: Unknown resource "lazytools://groups/nope". Read lazytools://groups for the group names, then lazytools://groups/<group>.');
  });
});
