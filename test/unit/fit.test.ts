import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { fitMode, modeFit } from '../../src/focus/fit.js';
import { modeMembers, visibleTools } from '../../src/focus/visible.js';
import { statusReport } from '../../src/tokens/report.js';
import { usageWeights } from '../../src/usage/record.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Gateway } from '../../src/app/gateway.js';
import { openProject } from '../../src/project.js';
import { inMemoryClient, REFERENCE_CATALOG, stackSources, tempTree } from '../harness/index.js';

const sources = await stackSources();
function project(rc: RcConfig = {}) {
  const config = resolveConfig(rc);
  return { config, catalog: buildCatalog(sources, config).catalog };
}
const fresh = (mode: string) => ({ mode, enabled: [], disabled: [], discovered: [] });

describe('budget-fitted modes', () => {
  it('shows the highest-priority tools within the budget and holds the rest back, reachable', () => {
    const { config, catalog } = project({ modes: { development: { budget: 6000 } } });
    const fitted = modeFit(catalog, config, 'development');
    if (!fitted) throw new Error('no fit');
    const row = statusReport(catalog, config).modes.find((m) => m.name === 'development');
    expect(row?.withinBudget).toBe(true);
    expect(row?.tokens).toBeLessThanOrEqual(6000);
    expect(row?.fit).toBe(true);
    expect(fitted.heldBack.length).toBeGreaterThan(0);
    expect(row?.heldBack).toEqual(fitted.heldBack);
    expect(row?.heldBackTokens).toBe(fitted.heldBack.reduce((sum, tool) => sum + tool.tokens, 0));
    // Shown and held back partition the mode's tools: nothing of the mode is lost.
    const members = modeMembers(catalog, config, fresh('development')).map((tool) => tool.id);
    expect([...(row?.toolIds ?? []), ...fitted.heldBack.map((tool) => tool.id)].sort()).toEqual([...members].sort());
    for (const held of fitted.heldBack) expect(held.reason).toMatch(/^budget: \d+ tokens, \d+ left/);
    // Held back in priority order.
    const priorities = fitted.ranked.filter((entry) => !entry.shown).map((entry) => entry.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
  });

  it('is deterministic and computed once per catalog, config and mode', () => {
    const { config, catalog } = project();
    const first = modeFit(catalog, config, 'debugging');
    expect(modeFit(catalog, config, 'debugging')).toBe(first);
    const again = fitMode(catalog, config, config.modes.debugging as never);
    expect(again.shown.map((tool) => tool.id)).toEqual(first?.shown.map((tool) => tool.id));
    expect(again.heldBack).toEqual(first?.heldBack);
  });

  it('keeps breadth: every server of an over-budget mode keeps its best tool', () => {
    const { config, catalog } = project({ modes: { development: { budget: 9000 } } });
    const fitted = modeFit(catalog, config, 'development');
    const servers = new Set(fitted?.members.map((tool) => tool.server));
    const shownServers = new Set(fitted?.shown.map((tool) => tool.server));
    expect([...servers].filter((server) => !shownServers.has(server))).toEqual([]);
  });

  it('with fit: false shows every tool of the mode and is over budget', () => {
    const { config, catalog } = project({ modes: { development: { fit: false } } });
    const row = statusReport(catalog, config).modes.find((m) => m.name === 'development');
    expect(row?.fit).toBe(false);
    expect(row?.heldBack).toEqual([]);
    expect(row?.tools).toBe(modeMembers(catalog, config, fresh('development')).length);
    expect(row?.withinBudget).toBe(false);
  });

  it('never holds back pinned tools (mode pin, group pin, tools.<id>.pin, alwaysVisible)', () => {
    const pins = ['desktop-commander:start_search', 'desktop-commander:edit_block', 'kubernetes:kubectl_create'];
    const { config, catalog } = project({
      alwaysVisible: ['desktop-commander:write_pdf'],
      modes: { development: { budget: 3000, pin: ['desktop-commander:start_search'] } },
      tools: { 'desktop-commander:edit_block': { pin: true }, 'kubernetes:kubectl_create': { pin: true } },
    });
    const fitted = modeFit(catalog, config, 'development');
    const shown = new Set(fitted?.shown.map((tool) => tool.id));
    for (const id of [...pins, 'desktop-commander:write_pdf']) expect(shown.has(id), id).toBe(true);
    expect(fitted?.ranked.find((entry) => entry.tool.id === 'desktop-commander:edit_block')?.reason).toBe('pinned (tools.desktop-commander:edit_block.pin)');
    const grouped = project({ groups: { reasoning: { topics: ['reasoning'], pin: true } }, modes: { development: { budget: 2000 } } });
    expect(modeFit(grouped.catalog, grouped.config, 'development')?.shownIds.has('sequential-thinking:sequentialthinking')).toBe(true);
  });

  it('is over budget when the pinned tools alone exceed it', () => {
    const { config, catalog } = project({ modes: { development: { budget: 1500, pin: ['notion:*'] } } });
    const row = statusReport(catalog, config).modes.find((m) => m.name === 'development');
    expect(row?.withinBudget).toBe(false);
    expect(row?.pinnedTokens).toBeGreaterThan(1500);
    // Nothing unpinned is shown beyond the pins.
    expect(row?.toolIds.every((id) => id.startsWith('notion:'))).toBe(true);
  });

  it('ranks by rc priority and recorded usage', () => {
    const plain = project();
    const held = modeFit(plain.catalog, plain.config, 'development')?.heldBack[0]?.id;
    if (held === undefined) throw new Error('nothing held back');
    const boosted = project({ tools: { [held]: { priority: 50 } } });
    expect(modeFit(boosted.catalog, boosted.config, 'development')?.shownIds.has(held)).toBe(true);
    const now = Date.parse('2026-11-20T00:00:00Z');
    const records = Array.from({ length: 30 }, () => ({ t: '2026-11-19T00:00:00Z', mode: 'development', tool: held, via: 'execute_tool' as const }));
    const used = { ...plain.config, usageWeights: usageWeights(records, now) };
    expect(modeFit(plain.catalog, used, 'development')?.shownIds.has(held)).toBe(true);
    // Old calls decay: a year-old record no longer counts.
    expect(usageWeights([{ t: '2025-11-19T00:00:00Z', mode: 'development', tool: held, via: 'direct' }], now).size).toBe(0);
  });

  it('shows every tool of a group the session enabled, past the budget (the user asked)', () => {
    const { config, catalog } = project();
    const plain = visibleTools(catalog, config, fresh('development')).map((tool) => tool.id);
    const wiki = catalog.groups.get('wiki')?.tools.map((tool) => tool.id) ?? [];
    expect(wiki.every((id) => plain.includes(id))).toBe(false);
    const enabled = visibleTools(catalog, config, { ...fresh('development'), enabled: ['wiki'] }).map((tool) => tool.id);
    expect(wiki.every((id) => enabled.includes(id))).toBe(true);
    const held = modeFit(catalog, config, 'development')?.heldBack[0]?.id ?? '';
    expect(visibleTools(catalog, config, { ...fresh('development'), discovered: [held] }).some((tool) => tool.id === held)).toBe(true);
  });

  it('reads the usage record at start when rc usage is on (status and check see the same fit as serve)', async () => {
    const line = JSON.stringify({ t: new Date().toISOString(), mode: 'development', tool: 'memory:read_graph', via: 'direct' });
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': '{"usage": true}', '.lazytools/usage.jsonl': `${line}\n${line}\n` });
    const project = await openProject({ cwd: dir, catalogs: [REFERENCE_CATALOG] });
    expect(project.config.usageWeights?.get('development')?.get('memory:read_graph')).toBeGreaterThan(1.9);
    const off = await openProject({ cwd: tempTree({ 'package.json': '{}', '.lazytools/usage.jsonl': `${line}\n` }), catalogs: [REFERENCE_CATALOG] });
    expect(off.config.usageWeights).toBeUndefined();
  });

  it('keeps held-back tools reachable: search_tools ranks them first, policy counts them in the mode', async () => {
    // Verbatim definitions and a low rc priority: desktop-commander's create_directory is held back from development.
    const config = resolveConfig({ policy: { hiddenTools: 'reject' }, definitions: 'verbatim', tools: { 'desktop-commander:create_directory': { priority: -20 } } });
    const gateway = new Gateway({ config, upstreams: [], locked: sources });
    const session = gateway.createSession();
    const client = await inMemoryClient((t) => session.connect(t), { name: 'fit-test' });
    try {
      const fitted = modeFit(gateway.catalog, gateway.config, 'development');
      const held = gateway.catalog.byId.get('desktop-commander:create_directory');
      expect(fitted?.heldBackIds.has('desktop-commander:create_directory')).toBe(true);
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).not.toContain('create_directory');
      // A held-back tool is part of the mode: reject-hidden policy lets it run.
      expect(held && session.inMode(held)).toBe(true);
      expect(held && session.refusal(held)).toBeUndefined();
      const result = (await client.callTool({ name: 'search_tools', arguments: { query: 'create a new directory', enable: false } })) as CallToolResult;
      const hits = (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
      expect(hits[0]).toBe('create_directory');
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('never lifts a held-back destructive tool the query does not ask for over the reader the list shows', async () => {
    const tool = (name: string, description: string, annotations: Record<string, boolean>) => ({ name, description, inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } } }, annotations });
    const deploys = {
      server: 'deploys',
      tools: [
        tool('getDeployments', 'Lists deployments', { readOnlyHint: true }),
        tool('deleteDeployment', 'Deletes a deployment', { destructiveHint: true }),
        tool('getDomains', 'Lists domains', { readOnlyHint: true }),
      ],
    };
    // Outside the mode, ranked by its words alone: the held-back deleter must not be lifted over it.
    const history = { server: 'history', tools: [tool('listDeployments', 'Lists deployments', { readOnlyHint: true })] };
    // Only the pinned reader fits: the others are held back.
    const config = resolveConfig({ groups: { deploys: { servers: ['deploys'] } }, modes: { shipping: { groups: ['deploys'], budget: 1, pin: ['deploys:getDeployments'] } }, defaultMode: 'shipping', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [], locked: [deploys, history] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'fit-test' });
    try {
      const fitted = modeFit(gateway.catalog, gateway.config, 'shipping');
      expect([fitted?.shownIds.has('deploys:getDeployments'), fitted?.heldBackIds.has('deploys:deleteDeployment')]).toEqual([true, true]);
      const result = (await client.callTool({ name: 'search_tools', arguments: { query: 'recent deployments', enable: false } })) as CallToolResult;
      const found = result.structuredContent as { tools: Array<{ name: string }>; inList?: string[] };
      // The reader the list shows is named, not described again; of the rest the other reader comes before the deleter.
      expect(found.inList).toEqual(['getDeployments']);
      const names = found.tools.map((hit) => hit.name);
      expect(names.indexOf('listDeployments')).toBeGreaterThanOrEqual(0);
      expect(names.indexOf('listDeployments')).toBeLessThan(names.indexOf('deleteDeployment'));
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('spends search places on the mode\'s tools the caller cannot see: held back under hybrid, shown ones too under proxy', async () => {
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } } }, annotations: { readOnlyHint: true } });
    const shop = { server: 'shop', tools: [tool('listOrders', 'Lists orders'), tool('searchOrders', 'Searches orders')] };
    const hits = async (strategy: 'hybrid' | 'proxy') => {
      // Only the pinned listOrders fits the budget: searchOrders is held back.
      const config = resolveConfig({ groups: { shop: { servers: ['shop'] } }, modes: { selling: { groups: ['shop'], budget: 1, pin: ['shop:listOrders'] } }, defaultMode: 'selling', strategy });
      const gateway = new Gateway({ config, upstreams: [], locked: [shop] });
      const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'fit-test' });
      try {
        expect(modeFit(gateway.catalog, gateway.config, 'selling')?.heldBackIds.has('shop:searchOrders')).toBe(true);
        const result = (await client.callTool({ name: 'search_tools', arguments: { query: 'orders', enable: false } })) as CallToolResult;
        const found = result.structuredContent as { tools: Array<{ name: string }>; inList?: string[] };
        return [...found.tools.map((hit) => hit.name), ...(found.inList ?? []).map((name) => `listed ${name}`)];
      } finally {
        await client.close();
        await gateway.close();
      }
    };
    // Hybrid lists listOrders already: it is named apart and the places go to the rest. Proxy lists neither.
    expect(await hits('hybrid')).toEqual(['searchOrders', 'listed listOrders']);
    expect((await hits('proxy'))[0]).toBe('listOrders');
  });

  it('gives no lift to a held-back tool the session\'s list now carries (search added it): the model has it', async () => {
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } } }, annotations: { readOnlyHint: true } });
    const shop = { server: 'shop', tools: [tool('listOrders', 'Lists orders'), tool('searchOrders', 'Searches orders')] };
    const other = { server: 'other', tools: [tool('findOrders', 'Finds orders')] };
    const config = resolveConfig({ groups: { shop: { servers: ['shop'] } }, modes: { selling: { groups: ['shop'], budget: 1, pin: ['shop:listOrders'] } }, defaultMode: 'selling', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [], locked: [shop, other] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'fit-test' });
    const search = async (enable: boolean) => {
      const result = (await client.callTool({ name: 'search_tools', arguments: { query: 'orders', enable } })) as CallToolResult;
      const found = result.structuredContent as { tools: Array<{ name: string }>; inList?: string[] };
      return [...found.tools.map((hit) => hit.name), ...(found.inList ?? []).map((name) => `listed ${name}`)];
    };
    try {
      // Words alone put the other server's findOrders first; the lift puts held-back searchOrders ahead of it.
      expect(gateway.search.searchMany(['orders'], { limit: 3 }).map((hit) => hit.tool.name)).toEqual(['findOrders', 'listOrders', 'searchOrders']);
      expect(await search(true)).toEqual(['searchOrders', 'findOrders', 'listed listOrders']);
      expect((await client.listTools()).tools.map((listed) => listed.name)).toContain('searchOrders');
      // Now in the list (with findOrders, which the search brought too), it is named with the tools the model has, in the order of their words.
      expect(await search(false)).toEqual(['listed findOrders', 'listed listOrders', 'listed searchOrders']);
      const answer = (await client.callTool({ name: 'search_tools', arguments: { query: 'orders', enable: false } })) as CallToolResult;
      expect((answer.content[0] as { text: string }).text).toBe('Only tools already in your list match "orders": findOrders, listOrders, searchOrders.');
      // And focus_mode counts as held back only what the list does not carry.
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
      expect((status.content[0] as { text: string }).text).not.toMatch(/Held back/);
      expect(status.structuredContent).toMatchObject({ heldBack: 0 });
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
