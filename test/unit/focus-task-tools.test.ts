import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { Gateway } from '../../src/app/gateway.js';
import { ModernRequest } from '../../src/callers/request.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { focusMode } from '../../src/handlers/focus-mode.js';
import { inMemoryClient, text } from '../harness/index.js';

/**
 * focus_mode with an intent: the mode is for the work, and the task the intent states gets its
 * own best few tools beside the mode's (search's top hits for the phrase), under the same rules
 * search_tools follows: what the mode may offer (read-only, a token's modes), added only where
 * search may add to the list, and put first among a mode's tools where the list cannot change.
 */

const object = { type: 'object' as const };
const shop = {
  server: 'shop',
  tools: [
    { name: 'list_orders', description: 'List recent orders.', inputSchema: object, annotations: { readOnlyHint: true } },
    { name: 'get_order', description: 'Get one order by id.', inputSchema: object, annotations: { readOnlyHint: true } },
    { name: 'order_report', description: 'Order totals per day.', inputSchema: object, annotations: { readOnlyHint: true } },
    { name: 'refund_payment', description: 'Refund a customer payment, whole or in part.', inputSchema: object, annotations: { readOnlyHint: false } },
  ],
};
const rc = {
  groups: { orders: { tools: ['shop:list_orders', 'shop:get_order', 'shop:order_report'] }, money: { tools: ['shop:*'] } },
  modes: {
    orders: { groups: ['orders'], description: 'Orders' },
    review: { groups: ['orders'], description: 'Look at orders', readOnly: true },
    money: { groups: ['money'], description: 'Everything of the shop' },
  },
} satisfies RcConfig;

async function session(config: RcConfig) {
  const gateway = new Gateway({ config: resolveConfig(config), upstreams: [], locked: [shop] });
  const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'task-tools-test' });
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  const focus = async (args: Record<string, unknown>) => text((await client.callTool({ name: 'focus_mode', arguments: args })) as CallToolResult);
  return { gateway, client, names, focus, close: async () => (await client.close(), await gateway.close()) };
}

describe('focus_mode brings the tools of the task its intent states', () => {
  it('adds search\'s best hits for the task to the list, beside the mode\'s own', async () => {
    const s = await session(rc);
    try {
      const reply = await s.focus({ mode: 'orders', intent: 'refund the customer payment' });
      expect(reply).toMatch(/^For this task: refund_payment.* \(1 added to your list\)$/m);
      expect(await s.names()).toContain('refund_payment');
      // Asked again, the task's tool is named but not counted as added: the list already holds it.
      const again = await s.focus({ mode: 'orders', intent: 'refund the customer payment' });
      expect(again).toMatch(/^For this task: refund_payment[^\n(]*$/m);
      // A switch without an intent adds nothing of its own.
      const plain = await session(rc);
      try {
        expect(await plain.focus({ mode: 'orders' })).not.toContain('For this task');
        expect(await plain.names()).not.toContain('refund_payment');
      } finally {
        await plain.close();
      }
    } finally {
      await s.close();
    }
  });

  it('reads the task as search_tools does, typos corrected against the catalog', async () => {
    const s = await session(rc);
    try {
      expect(await s.focus({ mode: 'orders', intent: 'refnud that paymnet' })).toMatch(/^For this task: refund_payment.* \(1 added to your list\)$/m);
    } finally {
      await s.close();
    }
  });

  it('gives the task\'s places to tools the mode does not show: the model has those', async () => {
    const s = await session(rc);
    try {
      // Words alone rank the mode's order tools first for this phrase; the reply brings the one it lacks.
      expect(s.gateway.search.search('refund a payment for one order', { limit: 3 }).map((hit) => hit.tool.name)).toContain('get_order');
      const reply = await s.focus({ mode: 'orders', intent: 'refund a payment for one order' });
      expect(reply).toMatch(/^For this task: refund_payment \(1 added to your list\)$/m);
    } finally {
      await s.close();
    }
  });

  it('brings nothing for a task no tool does: a hit must say one of its telling words, not one most tools say', async () => {
    const paged = { server: 'paged', tools: ['notes', 'files', 'users', 'teams', 'tags'].map((thing) => ({ name: `list_${thing}`, description: `List ${thing}, 30 per page.`, inputSchema: object })) };
    const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: [shop, paged] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'task-tools-test' });
    try {
      const reply = text((await client.callTool({ name: 'focus_mode', arguments: { mode: 'orders', intent: 'take a screenshot of the pricing page' } })) as CallToolResult);
      expect(reply).not.toContain('For this task');
      expect(text((await client.callTool({ name: 'focus_mode', arguments: { mode: 'orders', intent: 'list the tags' } })) as CallToolResult)).toMatch(/^For this task: list_tags/m);
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('never offers what the mode would refuse: a read-only mode gets no writer', async () => {
    const s = await session(rc);
    try {
      const reply = await s.focus({ mode: 'review', intent: 'refund the customer payment' });
      expect(reply).not.toContain('refund_payment');
      expect(await s.names()).not.toContain('refund_payment');
    } finally {
      await s.close();
    }
  });

  it('never offers a tool outside a bearer token\'s modes, whatever the task', async () => {
    const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: [shop] });
    // Two modes, so the token may switch between them (one mode would be a fixed endpoint); neither holds the refund.
    const boundary = { modes: ['orders', 'review'], token: true, label: 'clerk' };
    const client = await inMemoryClient((t) => gateway.createSession({ boundary }).connect(t), { name: 'task-tools-test' });
    try {
      const reply = text((await client.callTool({ name: 'focus_mode', arguments: { mode: 'orders', intent: 'refund the customer payment' } })) as CallToolResult);
      expect(reply).toMatch(/^Mode: orders/);
      expect(reply).not.toContain('refund_payment');
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('refund_payment');
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('adds nothing where search may not add (hiddenTools "reject"): the mode is what the rc makes it', async () => {
    const s = await session({ ...rc, policy: { hiddenTools: 'reject' } });
    try {
      expect(await s.focus({ mode: 'orders', intent: 'refund the customer payment' })).not.toContain('added to your list');
      expect(await s.names()).not.toContain('refund_payment');
    } finally {
      await s.close();
    }
  });

  it('adds nothing, and says nothing was added, when rc discovery.maxEnabled keeps no search hits', async () => {
    const s = await session({ ...rc, discovery: { maxEnabled: 0 } });
    try {
      const reply = await s.focus({ mode: 'orders', intent: 'refund the customer payment' });
      expect(reply).not.toContain('added to your list');
      expect(await s.names()).not.toContain('refund_payment');
      const found = text((await s.client.callTool({ name: 'search_tools', arguments: { query: 'refund payment', enable: true } })) as CallToolResult);
      expect(found).toContain('refund_payment');
      expect(found).not.toContain('added to your tool list');
      expect(await s.names()).not.toContain('refund_payment');
    } finally {
      await s.close();
    }
  });

  it('under proxy the reply names the task\'s tools, which lead its callable list; the list stays as it is', async () => {
    const s = await session({ ...rc, strategy: 'proxy' });
    try {
      const before = await s.names();
      const result = (await s.client.callTool({ name: 'focus_mode', arguments: { mode: 'orders', intent: 'refund the customer payment' } })) as CallToolResult;
      const reply = text(result);
      expect(reply).toMatch(/^For this task: refund_payment.* \(first below\)$/m);
      expect(reply.split('\n').find((line) => line.startsWith('- '))).toMatch(/^- refund_payment\(/);
      expect((result.structuredContent as { taskTools: string[] }).taskTools).toContain('refund_payment');
      expect(await s.names()).toEqual(before);
    } finally {
      await s.close();
    }
  });

  it('where the list cannot change (2026-07-28), the task\'s tools execute_tool may run there come first in the reply', () => {
    const linesOf = (config: RcConfig) => {
      const gateway = new Gateway({ config: resolveConfig(config), upstreams: [], locked: [shop] });
      const request = new ModernRequest(gateway, { baseUrl: 'http://127.0.0.1:1/mcp' }, { mode: 'money', fixedMode: undefined, boundary: boundaryOf({}) });
      return (args: Record<string, unknown>) => text(focusMode(request, args)).split('\n').filter((line) => line.startsWith('- '));
    };
    const lines = linesOf(rc);
    expect(lines({ mode: 'orders', intent: 'daily order totals' })[0]).toMatch(/^- order_report\(/);
    const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: [shop] });
    const request = new ModernRequest(gateway, { baseUrl: 'http://127.0.0.1:1/mcp' }, { mode: 'money', fixedMode: undefined, boundary: boundaryOf({}) });
    expect(text(focusMode(request, { mode: 'orders', intent: 'daily order totals' }))).toMatch(/^For this task: order_report.* \(first below\)$/m);
    // Outside the mode: runnable there under hiddenTools "allow" (the default), so named first...
    expect(lines({ mode: 'orders', intent: 'refund the customer payment' })[0]).toMatch(/^- refund_payment\(/);
    // ...but never where the mode would refuse it: read-only, or a gateway that rejects hidden tools.
    expect(lines({ mode: 'review', intent: 'refund the customer payment' }).join('\n')).not.toContain('refund_payment');
    expect(linesOf({ ...rc, policy: { hiddenTools: 'reject' } })({ mode: 'orders', intent: 'refund the customer payment' }).join('\n')).not.toContain('refund_payment');
  });
});
