import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGS, ROOT, tempTree, runCli } from '../harness/index.js';

/** Runs the built CLI (npm test builds first) as a user would. */
const cli = (args: string[], cwd = ROOT) => runCli(args, { cwd });

const REAL_WORLD = path.join(CATALOGS, 'real-world.json');
const schema = { type: 'object' };
const oddCatalog = JSON.stringify({
  servers: {
    apiary: { tools: [{ name: 'get_hive_weight', description: 'Weight of a beehive over the season', inputSchema: schema }] },
    ops: { tools: [{ name: 'tail', description: 'Show recent log lines of the app', inputSchema: schema }] },
  },
});

describe('lazytools groups', () => {
  it('shows per tool its groups with the reason, its modes and whether it writes', () => {
    const { code, stdout, stderr } = cli(['groups', '--catalog', REAL_WORLD, '--tool', 'playwright:browser_click'], tempTree({ 'package.json': '{}' }));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^playwright:browser_click {2}\[write: readOnlyHint: false\]$/m);
    expect(stdout).toMatch(/^ {2}browser +topic browser [\d.]+ \(server "playwright", name "browser", title "click"/m);
    expect(stdout).toContain('  modes: browser_testing, debugging, development');
    expect(stdout).toMatch(/^ {4}development: (shown|held back), priority -?[\d.]+: .*\[.*\]$/m);
    expect(stderr).toMatch(/^\d+\/1 tools shown by a mode other than "all"/m);
  });

  it('lists unplaced tools with their closest groups, as JSON too', () => {
    const dir = tempTree({ 'package.json': '{}', 'odd.json': oddCatalog });
    const json = JSON.parse(cli(['groups', '--catalog', 'odd.json', '--unplaced', '--json'], dir).stdout) as {
      unplaced: string[];
      tools: Array<{ id: string; modes: string[]; closest: string[] }>;
    };
    expect(json.unplaced).toEqual(['apiary:get_hive_weight', 'ops:tail']);
    expect(json.tools.find((t) => t.id === 'ops:tail')?.closest[0]).toMatch(/^observability [\d.]+ \(description "log"\)$/);
    expect(json.tools.find((t) => t.id === 'apiary:get_hive_weight')?.closest).toEqual([]);
    const status = cli(['status', '--catalog', 'odd.json'], dir);
    expect(status.stderr).toContain('2 tool(s) match no group, so no mode\'s groups show them (only "all" modes, and fill where a mode\'s work is close): apiary:get_hive_weight, ops:tail (closest: observability');
  });

  it('an rc group by topic places what the presets left out', () => {
    const dir = tempTree({ 'package.json': '{}', 'odd.json': oddCatalog, '.lazytoolsrc.json': JSON.stringify({ groups: { hives: { servers: ['apiary'] } }, modes: { daily_checkin: { groups: ['context', 'hives'] } } }) });
    const { stdout } = cli(['groups', '--catalog', 'odd.json', '--tool', 'apiary:*'], dir);
    expect(stdout).toContain('  hives            server "apiary"');
    expect(stdout).toContain('  modes: daily_checkin');
  });
});

describe('lazytools groups --unplaced counts what no mode shows', () => {
  it('a tool in a group no mode uses (an rc group of one server) is unplaced, with why; status warns too', () => {
    const dir = tempTree({ 'package.json': '{}', 'odd.json': oddCatalog, '.lazytoolsrc.json': JSON.stringify({ groups: { hives: { servers: ['apiary'] } } }) });
    const { stdout, stderr } = cli(['groups', '--catalog', 'odd.json', '--unplaced'], dir);
    expect(stderr).toContain('0/2 tools shown by a mode other than "all"; 2 only in "all" modes');
    expect(stdout).toContain('  modes: (none but "all": its group hives is in no mode)');
    expect(stdout).toContain('  modes: (none but "all": in no group)');
    const json = JSON.parse(cli(['groups', '--catalog', 'odd.json', '--unplaced', '--json'], dir).stdout) as { unplaced: string[] };
    expect(json.unplaced).toEqual(['apiary:get_hive_weight', 'ops:tail']);
    const status = cli(['status', '--catalog', 'odd.json'], dir);
    expect(status.stderr).toContain('1 tool(s) are only in groups no mode uses (hives) and show only in "all" modes');
  });
});

describe('lazytools groups names the modes fill shows a tool in', () => {
  it('a tool in no group that a mode\'s fill shows is not "none but all": the modes are named, and counted as shown', () => {
    const rc = { groups: { forecasts: { tools: ['apiary:*'] } }, modes: { watch: { description: 'Watch the app: show recent log lines', tasks: ['show the recent log lines of the app'], groups: ['forecasts'], fill: true, budget: 5000 } } };
    const dir = tempTree({ 'package.json': '{}', 'odd.json': oddCatalog, '.lazytoolsrc.json': JSON.stringify(rc) });
    const { stdout, stderr } = cli(['groups', '--catalog', 'odd.json', '--unplaced'], dir);
    expect(stdout).toContain('  modes: watch (by fill only: close to their work; in no group)');
    expect(stdout).toMatch(/^ {4}watch: shown, priority/m);
    expect(stderr).toContain('2/2 tools shown by a mode other than "all" (1 only by fill: in no mode\'s groups, close to a mode\'s work); 0 only in "all" modes');
    const json = JSON.parse(cli(['groups', '--catalog', 'odd.json', '--tool', 'ops:tail', '--json'], dir).stdout) as { tools: Array<{ modes: string[]; filledIn?: string[] }> };
    expect(json.tools[0]).toMatchObject({ modes: [], filledIn: ['watch'] });
    const status = JSON.parse(cli(['status', '--catalog', 'odd.json', '--json'], dir).stdout) as { modes: Array<{ name: string; toolIds: string[] }> };
    expect(status.modes.find((mode) => mode.name === 'watch')?.toolIds).toContain('ops:tail');
  });
});

describe('lazytools init placement hints', () => {
  it('says which groups a server\'s name places its tools in, and how the other servers\' tools are reached', () => {
    const client = JSON.stringify({
      mcpServers: {
        playwright: { command: 'npx', args: ['-y', '@playwright/mcp@latest'] },
        weather: { command: 'npx', args: ['-y', 'weather-forecasts'] },
      },
    });
    const dir = tempTree({ 'package.json': '{}', 'client.json': client });
    const { code, stderr } = cli(['init', '--from', 'client.json'], dir);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^ {2}playwright: its name places its tools in browser \(modes browser_testing, debugging, development\)$/m);
    expect(stderr).toContain('  weather: placed tool by tool from their names and descriptions once listed. A tool no mode shows is still found by search_tools');
    expect(stderr).toContain('{"modes":{"development":{"pin":["weather:<tool>"]}}}');
  });
});
