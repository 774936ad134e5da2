import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { cleanupAfterEach, inMemoryClient, text } from '../harness/index.js';

const cleanups = cleanupAfterEach();

/**
 * focus_mode's arguments (handlers/focus-mode.ts readFocusArgs): a call that passes none of them
 * but other names meant a change; answering it with status would read as done.
 */
describe('focus_mode arguments', () => {
  async function connect() {
    const app = new McpServer({ name: 'app', version: '1.0.0' });
    app.registerTool('list_invoices', { description: 'List invoices.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: '[]' }] }));
    const curated = await curate(app, {
      config: { groups: { billing: { tools: ['*invoice*'] } }, modes: { billing: { groups: ['billing'] }, reading: { groups: ['billing'], readOnly: true } }, defaultMode: 'billing' },
    });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { cleanups });
    const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'focus_mode', arguments: args })) as CallToolResult;
    return call;
  }

  it('refuses names it does not take, when it gets none it does, and changes nothing', async () => {
    const call = await connect();
    const stray = await call({ focus: 'reading' });
    expect(stray.isError).toBe(true);
    expect(text(stray)).toBe('focus_mode: no argument "focus"; nothing changed. Pass mode, intent, enable_group, disable_group, status.');
    expect(text(await call({ status: true }))).toMatch(/^Mode: billing\b/);
  });

  it('reads the names it takes beside others, and an empty call as status', async () => {
    const call = await connect();
    const switched = await call({ mode: 'reading', reason: 'only looking' });
    expect(switched.isError).toBeFalsy();
    expect(text(switched)).toMatch(/^Mode: reading \(read-only\)/);
    const empty = await call({});
    expect(empty.isError).toBeFalsy();
    expect(text(empty)).toMatch(/^Mode: reading\b/);
  });
});
