import type { Client } from '@modelcontextprotocol/client';
import type { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RcConfig } from '../../src/config/schema.js';
import { curate, type CuratedServer } from '../../src/app/curate.js';
import type { SessionOptions } from '../../src/callers/session.js';
import { modeShows, usedInMode } from '../../src/focus/policy.js';
import { listedTools } from '../../src/focus/visible.js';
import { buildGroupView, groupResult, MAX_LEAF, type GroupView } from '../../src/focus/group-view.js';
import { offeredModes, withModeGroups, type ModeOffer } from '../../src/focus/mode-groups.js';
import { initialFocus } from '../../src/focus/state.js';
import { getGroup, GroupToolRegistry, listGroups } from '../../src/groups/client.js';
import { GROUP_NAME_RULE, MODE_PREFIX, modeGroupName, NameTable, toolGroupName } from '../../src/groups/names.js';
import { GROUPS_EXTENSION } from '../../src/groups/wire.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClientV2, namedToolsApp, referenceProject } from '../harness/index.js';

/**
 * Modes as navigation groups of the draft extension io.modelcontextprotocol/groups: each mode the
 * caller may switch to is a group whose contents are the groups holding its tools.
 */

const focus = (mode: string) => initialFocus(mode);
const open: ModeOffer = { fixedMode: undefined, boundary: undefined };

/** Every group reachable from groups/list with the tools of its leaves, and whether a walk met a cycle. */
function walk(view: GroupView, from: readonly string[] = view.top.map((group) => group.name)): { reached: string[]; tools: string[]; cycle: boolean } {
  const reached = new Set<string>();
  const tools: string[] = [];
  let cycle = false;
  const visit = (name: string, path: ReadonlySet<string>) => {
    if (path.has(name)) return void (cycle = true);
    if (reached.has(name)) return;
    reached.add(name);
    const entry = view.groups.get(name)!;
    tools.push(...entry.tools.map((tool) => tool.id));
    for (const child of entry.children) visit(child.name, new Set([...path, name]));
  };
  for (const name of from) visit(name, new Set());
  return { reached: [...reached], tools, cycle };
}

describe('mode group names', () => {
  it('a mode is `mode-` and its wire name; no tool group can take one', () => {
    expect(modeGroupName('security_review')).toBe('mode-security-review');
    expect(modeGroupName('X'.repeat(80))).toMatch(GROUP_NAME_RULE);
    expect(toolGroupName('mode_x')).toBe('group-mode-x');
    expect(toolGroupName('pull_requests')).toBe('pull-requests');
    expect(toolGroupName('modes')).toBe('modes');
    // A second `mode` would be `mode-2`, a mode's name: so `mode` itself moves aside.
    const table = new NameTable(toolGroupName);
    const names = ['mode', 'Mode', 'mode-2', 'mode_x', 'group-mode-x', 'm'.repeat(70)].map((name) => table.claim(name));
    for (const name of names) {
      expect(name).toMatch(GROUP_NAME_RULE);
      expect(name.startsWith(MODE_PREFIX)).toBe(false);
    }
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('modes as navigation groups (154 reference tools)', async () => {
  const { catalog, config } = await referenceProject();
  const viewOf = (mode: string, strategy: 'hybrid' | 'proxy', offer = open, maxChildren?: number) => {
    const top = listedTools(catalog, config, focus(mode), strategy);
    const tools = buildGroupView({ catalog, top, callable: () => true });
    return { top, tools, view: withModeGroups(tools, { catalog, config, modes: offeredModes(config, offer), top }, maxChildren) };
  };
  /** A mode's own tools, as the mode rules say (its groups, pins, alwaysVisible, use): what its group leads to. */
  const ownTools = (mode: string) => catalog.tools.filter((tool) => modeShows(config, config.modes[mode]!, tool) || usedInMode(config, config.modes[mode]!, tool));
  const withTools = Object.keys(config.modes).filter((mode) => ownTools(mode).length > 0);
  expect(withTools.length).toBeLessThan(Object.keys(config.modes).length);
  const cases = ['development', 'security_review', 'all'].flatMap((mode) => (['hybrid', 'proxy'] as const).map((strategy) => ({ mode, strategy })));

  for (const { mode, strategy } of cases)
    it(`${mode} / ${strategy}: the draft's rules hold with the modes in the tree`, () => {
      const { top, view } = viewOf(mode, strategy);
      const { reached, tools, cycle } = walk(view);
      expect(cycle).toBe(false);
      expect(new Set(reached)).toEqual(new Set(view.groups.keys()));
      for (const name of view.groups.keys()) expect(name).toMatch(GROUP_NAME_RULE);
      // A group is top-level or nested, never both; a nested group is the same object under every parent.
      const nested = new Map<string, unknown>();
      for (const entry of view.groups.values())
        for (const child of entry.children) {
          expect(nested.get(child.name) ?? child).toEqual(child);
          expect(view.groups.get(child.name)!.group).toEqual(child);
          nested.set(child.name, child);
        }
      for (const group of view.top) expect(nested.has(group.name)).toBe(false);
      // Modes add navigation only: every tool is still top-level or in exactly one group.
      expect(new Set(tools).size).toBe(tools.length);
      expect(tools.length + top.length).toBe(catalog.tools.length);
      for (const [name, entry] of view.groups) if (name.startsWith(MODE_PREFIX)) expect(entry.tools).toEqual([]);
      // Modes come first, in rc order: every mode with tools this view scopes (a mode with none has nothing to lead to).
      const modes = view.top.filter((group) => group.name.startsWith(MODE_PREFIX)).map((group) => group.name);
      expect(view.top.slice(0, modes.length).map((group) => group.name)).toEqual(modes);
      const topIds = new Set(top.map((tool) => tool.id));
      const scoping = Object.keys(config.modes).filter((name) => ownTools(name).some((tool) => !topIds.has(tool.id)));
      expect(modes).toEqual(scoping.map(modeGroupName));
      if (strategy === 'proxy') expect(modes.length).toBeGreaterThan(5);
    });

  it("one mode's groups lead to every tool of the mode the view scopes, and each holds some of them", () => {
    for (const strategy of ['hybrid', 'proxy'] as const) {
      const { top, view } = viewOf('development', strategy);
      const topIds = new Set(top.map((tool) => tool.id));
      for (const mode of withTools) {
        const members = ownTools(mode).map((tool) => tool.id);
        const name = modeGroupName(mode);
        // A mode whose tools are all in tools/list here has no group; any other lists groups.
        if (members.every((id) => topIds.has(id))) {
          expect(groupResult(view, name)).toBeUndefined();
          continue;
        }
        expect(groupResult(view, name)?.contents.groups?.length).toBeGreaterThan(0);
        const reached = walk(view, [name]);
        const scoped = new Set(reached.tools);
        for (const id of members) expect(topIds.has(id) || scoped.has(id)).toBe(true);
        const memberSet = new Set(members);
        const leaves = reached.reached.filter((group) => view.groups.get(group)!.tools.length > 0);
        for (const leaf of leaves) expect(view.groups.get(leaf)!.tools.some((tool) => memberSet.has(tool.id))).toBe(true);
      }
    }
  });

  it('a mode listing more groups than a groups/get may carry lists parts of them', () => {
    const { tools, view } = viewOf('development', 'proxy', open, 3);
    const all = view.groups.get('mode-all')!;
    expect(all.children.map((child) => child.name)).toEqual(all.children.map((_, i) => `mode-all-${i + 1}`));
    for (const part of all.children) expect(view.groups.get(part.name)!.children.length).toBeLessThanOrEqual(3);
    expect(walk(view, ['mode-all']).reached).toEqual(expect.arrayContaining(tools.top.map((group) => group.name)));
    expect(walk(view).cycle).toBe(false);
    // The default bound: never more children than a tool group has tools.
    for (const entry of viewOf('all', 'proxy').view.groups.values()) expect(entry.children.length).toBeLessThanOrEqual(MAX_LEAF);
  });

  it('a fixed mode offers only itself; a boundary offers its modes; groups no offered mode holds stay top-level', () => {
    const fixed = viewOf('security_review', 'hybrid', { fixedMode: 'security_review', boundary: { modes: ['security_review'], token: false } }).view;
    expect(fixed.top.filter((group) => group.name.startsWith(MODE_PREFIX)).map((group) => group.name)).toEqual(['mode-security-review']);
    expect(fixed.groups.has('mode-development')).toBe(false);
    const bounded = viewOf('development', 'proxy', { fixedMode: undefined, boundary: { modes: ['development', 'research'], token: true } }).view;
    expect(bounded.top.filter((group) => group.name.startsWith(MODE_PREFIX)).map((group) => group.name)).toEqual(['mode-development', 'mode-research']);
    const underModes = new Set(walk(bounded, ['mode-development', 'mode-research']).reached);
    const rest = bounded.top.filter((group) => !group.name.startsWith(MODE_PREFIX));
    expect(rest.length).toBeGreaterThan(0);
    for (const group of rest) expect(underModes.has(group.name)).toBe(false);
    expect(walk(bounded).reached.length).toBe(bounded.groups.size);
  });

  it("a mode's description says what it is for and where its tools are, in a bounded size", () => {
    const { view } = viewOf('development', 'hybrid');
    const review = view.top.find((group) => group.name === 'mode-security-review')!;
    expect(review.description).toMatch(/^Mode security_review \(read-only\): .+\. Its tools here: \d+ in \d+ groups?, \d+ in tools\/list\.$/);
    // An rc may give a mode any name and description: what a model reads stays one bounded line.
    const name = 'm'.repeat(500);
    const mode = { ...config.modes.development!, name, description: 'word\n'.repeat(2_000) };
    const long = withModeGroups(viewOf('development', 'hybrid').tools, { catalog, config: { ...config, modes: { ...config.modes, [name]: mode } }, modes: [mode], top: [] });
    expect(long.top[0]!.name).toMatch(GROUP_NAME_RULE);
    expect(long.top[0]!.description).not.toContain('\n');
    expect(long.top[0]!.description.length).toBeLessThan(400);
  });
});

// Through the protocol: a 2025 session of a v2 client that declares the extension, in memory.

const cleanups = cleanupAfterEach();

const app = () => namedToolsApp({ read_note: true, list_notes: true, delete_note: false });

const rc: RcConfig = {
  groups: { reading: { tools: ['read_note', 'list_notes'] }, deleting: { tools: ['delete_note'] } },
  modes: { notes: { description: 'Read notes.', groups: ['reading'] }, cleanup: { description: 'Tidy notes up.', groups: ['reading', 'deleting'] } },
  defaultMode: 'notes',
};

async function connect(server: CuratedServer, session?: SessionOptions): Promise<Client> {
  const serve = (t: InMemoryTransport) => (session === undefined ? server.connect(t) : server.gateway.createSession(session).connect(t));
  return inMemoryClientV2(serve, { name: 'mode-groups', clientOptions: { capabilities: { extensions: { [GROUPS_EXTENSION]: {} } } }, cleanups });
}

async function curated(): Promise<CuratedServer> {
  const result = await curate(app(), { name: 'app', config: rc, logger: silentLogger });
  cleanups.push(() => result.close());
  return result;
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { code?: number }) => error.code);
const modesOf = async (client: Client) => (await listGroups(client)).map((group) => group.name).filter((name) => name.startsWith(MODE_PREFIX));

describe('modes through groups/list and groups/get (2025 session, v2 SDK client)', () => {
  it("one nested load of a mode's group gives the host the mode's tools, callable at once", async () => {
    const client = await connect(await curated());
    // The mode the session is in lists all its tools: it has nothing to lead to, so no group.
    expect(await modesOf(client)).toContain('mode-cleanup');
    expect(await modesOf(client)).not.toContain('mode-notes');
    expect(await codeOf(getGroup(client, 'mode-notes'))).toBe(-32002);
    const registry = new GroupToolRegistry(client);
    const loaded = await registry.load('mode-cleanup', { nested: true });
    expect(loaded.groups.map((group) => group.name)).toEqual(['deleting']);
    expect(loaded.tools.map((tool) => tool.name)).toEqual(['delete_note']);
    const called = (await client.callTool({ name: 'delete_note', arguments: {} })) as { isError?: boolean };
    expect(called.isError).toBeFalsy();
  });

  it('a fixed-mode session is offered only its mode; a token only its modes', async () => {
    const server = await curated();
    // Under proxy the fixed mode's tools are scoped, so its group leads to them; no other mode is offered.
    expect(await modesOf(await connect(server, { mode: 'cleanup', strategy: 'proxy' }))).toEqual(['mode-cleanup']);
    expect(await modesOf(await connect(server, { mode: 'notes', strategy: 'proxy' }))).toEqual(['mode-notes']);
    expect((await modesOf(await connect(server, { boundary: { modes: ['notes', 'cleanup'], token: true }, strategy: 'proxy' }))).sort()).toEqual(['mode-cleanup', 'mode-notes']);
    expect((await modesOf(await connect(server, { strategy: 'proxy' }))).length).toBeGreaterThan(2);
  });

  it('a focus switch moves the mode groups along, and the session hears notifications/groups/list_changed', async () => {
    const server = await curated();
    const client = await connect(server);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/groups/list_changed', { params: z.looseObject({}).optional() }, () => resolve()));
    expect((await new GroupToolRegistry(client).load('mode-cleanup')).groups).toHaveLength(1);
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'cleanup' } });
    await changed;
    expect(await codeOf(getGroup(client, 'mode-cleanup'))).toBe(-32002);
  });
});
