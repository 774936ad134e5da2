import type { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Catalog } from '../../src/catalog/catalog.js';
import type { RcConfig } from '../../src/config/schema.js';
import { curate, type CuratedServer } from '../../src/app/curate.js';
import { listedTools } from '../../src/focus/visible.js';
import { buildGroupView, groupResult, type GroupView } from '../../src/focus/group-view.js';
import { withModeGroups } from '../../src/focus/mode-groups.js';
import { getGroup, listGroups } from '../../src/groups/client.js';
import { GROUPS_EXTENSION, type Group } from '../../src/groups/wire.js';
import { groupsOf } from '../../src/handlers/groups.js';
import { GROUP_NAME_RULE, MODE_PREFIX, NameTable, wireName } from '../../src/groups/names.js';
import { silentLogger } from '../../src/util/log.js';
import { Gateway } from '../../src/app/gateway.js';
import { ModernRequest } from '../../src/callers/request.js';
import type { FrontSession } from '../../src/callers/session.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, inMemoryClientV2, namedToolsApp, referenceProject, stackSources, toolList } from '../harness/index.js';

/** The draft extension's rules (io.modelcontextprotocol/groups, 2026-09-28) on lazytools' groups and modes. */

const focus = (mode: string) => ({ mode, enabled: [], disabled: [], discovered: [] });

/** Leaf tools by group, and every group reachable from groups/list (cycle-safe walk). */
function walk(view: GroupView): { reached: string[]; tools: string[]; cycle: boolean } {
  const reached: string[] = [];
  const tools: string[] = [];
  let cycle = false;
  const visit = (name: string, path: Set<string>) => {
    if (path.has(name)) {
      cycle = true;
      return;
    }
    reached.push(name);
    const entry = view.groups.get(name)!;
    tools.push(...entry.tools.map((tool) => tool.id));
    for (const child of entry.children) visit(child.name, new Set([...path, name]));
  };
  for (const group of view.top) visit(group.name, new Set());
  return { reached, tools, cycle };
}

describe('the view model against the draft rules (154 reference tools)', async () => {
  const { catalog, config } = await referenceProject();
  const cases = ['development', 'security_review', 'daily_checkin', 'all'].flatMap((mode) => (['hybrid', 'proxy'] as const).map((strategy) => ({ mode, strategy })));

  for (const { mode, strategy } of cases)
    it(`${mode} / ${strategy}: one placement per tool, unique valid names, no cycles, groups/list holds only top-level groups`, () => {
      const top = listedTools(catalog, config, focus(mode), strategy);
      const view = buildGroupView({ catalog, top, callable: () => true });
      const { reached, tools, cycle } = walk(view);
      expect(cycle).toBe(false);
      for (const name of view.groups.keys()) expect(name).toMatch(GROUP_NAME_RULE);
      // Every group is reachable, and a nested group never sits at top level too.
      expect(new Set(reached)).toEqual(new Set(view.groups.keys()));
      const nested = new Set([...view.groups.values()].flatMap((entry) => entry.children.map((child) => child.name)));
      for (const group of view.top) expect(nested.has(group.name)).toBe(false);
      // Exclusive placement: each tool top-level or in exactly one group, and every tool placed.
      expect(new Set(tools).size).toBe(tools.length);
      const topIds = new Set(top.map((tool) => tool.id));
      for (const id of tools) expect(topIds.has(id)).toBe(false);
      expect(tools.length + top.length).toBe(catalog.tools.length);
      for (const id of tools) expect(view.home.get(id)).toBeDefined();
      // Tool names stay unique across top level and groups.
      const names = [...top.map((tool) => tool.exposedName), ...tools.map((id) => catalog.byId.get(id)!.exposedName)];
      expect(new Set(names).size).toBe(names.length);
      // Deterministic: the same inputs give the same groups, in name order.
      expect(JSON.stringify(buildGroupView({ catalog, top, callable: () => true }).top)).toBe(JSON.stringify(view.top));
      expect(view.top.map((group) => group.name)).toEqual([...view.top.map((group) => group.name)].sort());
    });

  it('a tool goes to its most specific group (fewest tools), never to the catch-all', () => {
    const view = buildGroupView({ catalog, top: [], callable: () => true });
    for (const tool of catalog.tools) {
      const candidates = tool.groups.map((name) => catalog.groups.get(name)!).filter((group) => !group.catchAll);
      const home = view.home.get(tool.id)!;
      expect(view.groups.get(home)!.tools).toContain(tool);
      if (candidates.length === 0) {
        expect(home).toMatch(new RegExp(`^${wireName(tool.server)}-other`));
        continue;
      }
      const smallest = Math.min(...candidates.map((group) => group.tools.length));
      const expected = wireName(candidates.find((group) => group.tools.length === smallest)!.name);
      expect(home === expected || home.startsWith(`${expected}-`)).toBe(true);
    }
  });

  it('large groups nest: children by server, then parts, each leaf within the bound; parents carry groups, not tools', () => {
    const view = buildGroupView({ catalog, top: [], callable: () => true }, 10);
    const parents = [...view.groups.values()].filter((entry) => entry.children.length > 0);
    expect(parents.length).toBeGreaterThan(0);
    for (const entry of view.groups.values()) expect(entry.tools.length).toBeLessThanOrEqual(10);
    for (const parent of parents) {
      expect(parent.tools).toEqual([]);
      expect(groupResult(view, parent.group.name)).toEqual({ contents: { groups: parent.children } });
    }
    expect(walk(view).cycle).toBe(false);
    expect(new Set(walk(view).tools).size).toBe(catalog.tools.length);
    // Top level stays small: only parents and small groups, never their children.
    expect(view.top.length).toBeLessThan(view.groups.size);
  });

  it('tools the view may not call are in no group (policy decides, groups only disclose)', () => {
    const writers = new Set(catalog.tools.filter((tool) => !tool.readOnly).map((tool) => tool.id));
    const view = buildGroupView({ catalog, top: [], callable: (tool) => tool.readOnly });
    for (const id of walk(view).tools) expect(writers.has(id)).toBe(false);
  });

  it('groups/get of the same group twice gives the same answer; an unknown group gives none', () => {
    const view = buildGroupView({ catalog: catalog as Catalog, top: [], callable: () => true });
    const name = view.top[0]!.name;
    expect(groupResult(view, name)).toEqual(groupResult(view, name));
    expect(groupResult(view, 'no-such-group')).toBeUndefined();
    expect(groupResult(view, 'toString')).toBeUndefined();
  });
});

describe('wire names', () => {
  it('maps lazytools names onto the draft rule and tells collisions apart', () => {
    expect(wireName('pull_requests')).toBe('pull-requests');
    expect(wireName('My  Server__x-')).toBe('my-server-x');
    expect(wireName('___')).toBe('group');
    expect(wireName('a'.repeat(80))).toHaveLength(64);
    const table = new NameTable();
    expect([table.claim('pull_requests'), table.claim('pull-requests'), table.claim('Pull Requests')]).toEqual(['pull-requests', 'pull-requests-2', 'pull-requests-3']);
    const long = new NameTable();
    long.claim('b'.repeat(70));
    expect(long.claim('b'.repeat(70))).toMatch(GROUP_NAME_RULE);
  });
});

// Through the protocol: lazytools in process in front of a v2 server, a v2 client in memory.

const cleanups = cleanupAfterEach();

const app = () => namedToolsApp({ read_note: true, list_notes: true, delete_note: false, send_invoice: false });

const rc: RcConfig = {
  groups: { reading: { tools: ['read_note'] }, listing: { tools: ['list_notes'] }, deleting: { tools: ['delete_note'] }, billing: { tools: ['*invoice*'] } },
  modes: { notes: { groups: ['reading'] }, cleanup: { groups: ['reading', 'deleting'] } },
  defaultMode: 'notes',
};

async function connect(curated: CuratedServer, declare: boolean): Promise<Client> {
  return inMemoryClientV2((t) => curated.connect(t), { name: 'groups-unit', clientOptions: declare ? { capabilities: { extensions: { [GROUPS_EXTENSION]: {} } } } : {}, cleanups });
}

async function curated(config: RcConfig): Promise<CuratedServer> {
  const result = await curate(app(), { name: 'app', config, logger: silentLogger });
  cleanups.push(() => result.close());
  return result;
}

const List = z.looseObject({ groups: z.array(z.looseObject({ name: z.string() })) });
const Get = z.looseObject({ contents: z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })).optional() }) });
/** The tool groups a client reaches from groups/list through the modes' groups (by name), as groups/list and contents.groups carry them. */
async function toolGroups(client: Client): Promise<Group[]> {
  const seen = new Map<string, Group>();
  const queue = await listGroups(client);
  for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
    if (seen.has(group.name)) continue;
    seen.set(group.name, group);
    queue.push(...(await getGroup(client, group.name)).groups);
  }
  return [...seen.values()].filter((group) => !group.name.startsWith(MODE_PREFIX)).sort((a, b) => (a.name < b.name ? -1 : 1));
}
const codeOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { code?: number }) => error.code);

describe('groups/list and groups/get through a 2025 session', () => {
  it('groups/get is idempotent and changes no state; an unknown group is -32002; a plain client gets -32601', async () => {
    const server = await curated(rc);
    const client = await connect(server, true);
    const before = (await client.listTools()).tools.map((tool) => tool.name);
    const first = await client.request({ method: 'groups/get', params: { name: 'deleting' } } as never, Get);
    const second = await client.request({ method: 'groups/get', params: { name: 'deleting' } } as never, Get);
    expect(second).toEqual(first);
    expect(first.contents.tools?.map((tool) => tool.name)).toEqual(['delete_note']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(before);
    expect(server.gateway.sessions.size).toBe(1);
    expect(([...server.gateway.sessions][0] as FrontSession).mode).toBe('notes');
    expect(await codeOf(client.request({ method: 'groups/get', params: { name: 'nope' } } as never, Get))).toBe(-32002);
    expect(await codeOf(client.request({ method: 'groups/get', params: { name: '__proto__' } } as never, Get))).toBe(-32002);
    const plain = await connect(server, false);
    expect(await codeOf(plain.request({ method: 'groups/list' } as never, List))).toBe(-32601);
  });

  it('the tools/list a client gets is keyed on its capabilities: under proxy, a declaring client does not pay for list_tool_groups', async () => {
    const server = await curated({ ...rc, strategy: 'proxy' });
    const declaring = await connect(server, true);
    const plain = await connect(server, false);
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(plain)).toContain('list_tool_groups');
    expect(await names(declaring)).not.toContain('list_tool_groups');
    // Listed alternately from the same gateway: neither answer leaks into the other.
    expect(await names(plain)).toContain('list_tool_groups');
    // Still callable: groups are discovery, not access.
    const called = (await declaring.callTool({ name: 'list_tool_groups', arguments: {} })) as { isError?: boolean };
    expect(called.isError).toBeFalsy();
  });

  it('scoped tools stay callable, and policy still refuses what the mode forbids (it is in no group then)', async () => {
    const open = await connect(await curated(rc), true);
    expect((await toolGroups(open)).map((group) => group.name)).toEqual(['billing', 'deleting', 'listing']);
    const called = (await open.callTool({ name: 'delete_note', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(called.isError).toBeFalsy();
    const strict = await connect(await curated({ ...rc, policy: { hiddenTools: 'reject' } }), true);
    expect(await codeOf(strict.request({ method: 'groups/get', params: { name: 'deleting' } } as never, Get))).toBe(-32002);
    expect(await toolGroups(strict)).toEqual([]);
    const refused = (await strict.callTool({ name: 'delete_note', arguments: {} })) as { isError?: boolean };
    expect(refused.isError).toBe(true);
  });
});

describe('groups/list names the user\'s groups as the rc does', () => {
  it('a tool in an rc group and in a preset group of the same size is in the rc one, with its description', async () => {
    const memory = new McpServer({ name: 'memory', version: '1.0.0' });
    for (const name of ['create_entities', 'read_graph', 'search_nodes'])
      memory.registerTool(name, { description: `${name.replace('_', ' ')} in the knowledge graph.`, inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: name }] }));
    const config: RcConfig = {
      groups: { files: { description: 'My files', servers: ['files'] }, notes: { description: 'My notes', tools: ['memory:*'] } },
      modes: { writing: { groups: ['files'] }, noting: { groups: ['notes', 'files'] } },
      defaultMode: 'writing',
    };
    const server = await curate(memory, { config, logger: silentLogger });
    cleanups.push(() => server.close());
    // The preset `memory` group holds the same three tools; ties used to go to it (presets come first).
    expect(server.gateway.catalog.groups.get('memory')?.tools).toHaveLength(3);
    const client = await connect(server, true);
    const groups = await toolGroups(client);
    expect(groups.map((group) => group.name)).toEqual(['notes']);
    expect(groups[0]?.description).toMatch(/^My notes/);
  });
});

describe('status: what the extension costs per mode', async () => {
  const { catalog, config } = await referenceProject();
  const { groupsReport, groupsSummary } = await import('../../src/tokens/groups.js');

  it('counts groups/list and every groups/get answer of each mode, in tokens', () => {
    const report = groupsReport(catalog, config);
    expect(report.map((entry) => entry.mode)).toEqual(Object.keys(config.modes));
    const development = report.find((entry) => entry.mode === 'development')!;
    const top = listedTools(catalog, config, focus('development'), 'hybrid');
    const view = withModeGroups(buildGroupView({ catalog, top, callable: () => true }), { catalog, config, modes: Object.values(config.modes), top });
    expect(Object.keys(development.getTokens)).toEqual([...view.groups.keys()].sort());
    expect(Object.keys(development.getTokens).filter((name) => name.startsWith(MODE_PREFIX)).length).toBeGreaterThan(0);
    expect(development.listTokens).toBeGreaterThan(0);
    // groups/list is the light part: far below what fetching every group costs.
    expect(development.listTokens * 5).toBeLessThan(Object.values(development.getTokens).reduce((a, b) => a + b, 0));
    expect(groupsSummary(report)).toMatch(/development: groups\/list \d+ tokens \(\d+ groups\); groups\/get \d+-\d+ tokens/);
  });
});

describe('2026-07-28 tools/list and its shared cache hint', () => {
  it('is the same list whatever a request declares (it carries cacheScope "public" without tokens)', async () => {
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: await stackSources() });
    try {
      const names = (declared: Record<string, unknown>) =>
        toolList(new ModernRequest(gateway, { strategy: 'proxy' }, { mode: 'development', fixedMode: undefined, boundary: boundaryOf({}) }, declared)).map((tool) => tool.name);
      const plain = names({});
      expect(plain).toContain('list_tool_groups');
      expect(names({ extensions: { [GROUPS_EXTENSION]: {} } })).toEqual(plain);
    } finally {
      await gateway.close();
    }
  });
});

/**
 * groups/list and groups/get answer from one built view per view and catalog: on the old main each
 * request walked the whole catalog again (49-113 ms at 10,000 tools; 20 concurrent groups/get held
 * another client's tools/list 375 ms).
 */
describe('group views are built once per view and catalog', () => {
  it('requests of one view share a view; another mode or a rebuild builds anew; a session keeps its own', async () => {
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: await stackSources() });
    try {
      const declared = { extensions: { [GROUPS_EXTENSION]: {} } };
      const request = (mode: string) => new ModernRequest(gateway, { strategy: 'proxy' }, { mode, fixedMode: undefined, boundary: boundaryOf({}) }, declared);
      const first = groupsOf(request('development'));
      expect(groupsOf(request('development'))).toBe(first);
      expect(groupsOf(request('security_review'))).not.toBe(first);
      gateway.rebuild();
      const rebuilt = groupsOf(request('development'));
      expect(rebuilt).not.toBe(first);
      expect([...rebuilt.groups.keys()]).toEqual([...first.groups.keys()]);
      const session = gateway.createSession({});
      const before = groupsOf(session);
      expect(groupsOf(session)).toBe(before);
    } finally {
      await gateway.close();
    }
  });
});
