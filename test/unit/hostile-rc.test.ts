import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { MODES_LISTED, ownTools } from '../../src/catalog/own-tools.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { statusReport } from '../../src/tokens/report.js';
import { ConfigError } from '../../src/util/errors.js';
import { parseConfig } from '../../src/config/load.js';
import { interpolate } from '../../src/config/env.js';
import { Variables, vscodeVariables } from '../../src/init/variables.js';
import { countToolsTokens } from '../../src/util/tokens.js';
import { Gateway } from '../../src/app/gateway.js';
import { inMemoryClient, referenceSources, text } from '../harness/index.js';

/**
 * Adversarial pass (hadv3): rc values at sizes nobody writes by hand. On the old main a chain of
 * 20,000 `extends` overflowed the stack (`check` printed "Maximum call stack size exceeded" and
 * exited 1, not a config error), and focus_mode's definition, which clients list on every turn,
 * grew with every mode and every character of every description (`check` on 20,000 modes ran
 * past 4 minutes counting it again per mode).
 */

const sources = await referenceSources();

describe('an extends chain', () => {
  it('deeper than 64 modes is a config error naming the key, not a stack overflow', () => {
    const modes: NonNullable<RcConfig['modes']> = { m0: { groups: ['files'] } };
    for (let i = 1; i < 20_000; i++) modes[`m${i}`] = { extends: `m${i - 1}` };
    expect(() => resolveConfig({ modes })).toThrow(ConfigError);
    expect(() => resolveConfig({ modes })).toThrow(/modes\.m\d+\.extends: a chain of more than 64 modes/);
    // 60 deep still resolves, with every ancestor's groups.
    const short = Object.fromEntries(Object.entries(modes).slice(0, 60));
    expect(resolveConfig({ modes: short }).modes.m59?.groups).toEqual(['files']);
  });
});

describe('focus_mode lists the modes within a bound', () => {
  it('1,000 modes with 10 KB descriptions: its definition stays small, and status fits every mode', () => {
    const modes = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`x${i}`, { groups: ['files'], budget: 3_000, description: `Mode ${i}. ${'word '.repeat(2_000)}` }]));
    const config = resolveConfig({ modes });
    const [focus] = ownTools('hybrid', Object.values(config.modes));
    expect(focus?.description?.length).toBeLessThan(MODES_LISTED * 200 + 200);
    expect(focus?.description).toMatch(/… and \d+ more modes: "intent" picks one/);
    expect(focus?.inputSchema).toMatchObject({ properties: { mode: { type: 'string' } } });
    expect((focus?.inputSchema as unknown as { properties: { mode: { enum?: unknown } } }).properties.mode.enum).toBeUndefined();
    expect(countToolsTokens([focus!])).toBeLessThan(2_500);
    const catalog = buildCatalog(sources, config).catalog;
    const report = statusReport(catalog, config);
    expect(report.modes.length).toBe(Object.keys(config.modes).length);
    expect(report.modes.find((mode) => mode.name === 'x999')?.withinBudget).toBe(true);
  });

  it('the presets keep their lines and their enum whole', () => {
    const config = resolveConfig({});
    const [focus] = ownTools('hybrid', Object.values(config.modes));
    for (const mode of Object.values(config.modes)) expect(focus?.description).toContain(`- ${mode.name}: ${mode.description}`);
    expect((focus?.inputSchema as unknown as { properties: { mode: { enum?: string[] } } }).properties.mode.enum).toEqual(Object.keys(config.modes));
  });
});

describe('focus_mode on an rc of 20,000 modes', () => {
  // Each call filtered every mode with includes() over the mode names: O(M²), about half a
  // second a switch at this size (30 switches ran past this test's limit). Nothing is timed here.
  it('switches by name 30 times within the test limit', { timeout: 10_000 }, async () => {
    const modes = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`mode_${i}`, { groups: [] }]));
    const gateway = new Gateway({ config: resolveConfig({ modes }), upstreams: [], locked: [] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'hostile-rc' });
    try {
      for (let i = 0; i < 30; i++) expect(text(await client.callTool({ name: 'focus_mode', arguments: { mode: `mode_${i * 600}` } }))).toMatch(new RegExp(`^Mode: mode_${i * 600}: `));
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

describe('rc values of unclosed ${', () => {
  // 200,000 of them (400 KB): each `${` was read to the end of the value, `status` ran past a minute.
  const unclosed = '${'.repeat(200_000);
  const defaults = '${A:-'.repeat(100_000);

  it('are read once: the url check, ${VAR} expansion and init\'s variables answer at once, as before for what they match', () => {
    expect(() => parseConfig({ servers: { x: { url: `http://a/${unclosed}` } } })).not.toThrow();
    expect(() => parseConfig({ servers: { x: { url: `http://u:p@a/${unclosed}` } } })).toThrow(ConfigError);
    // A `${` never closed is a config error (it reached the server as text), told at once.
    expect(() => interpolate(`${defaults}x`, {}, 'servers.x.args[0]')).toThrow(/servers\.x\.args\[0\]: "\$\{" at character 1 is never closed/);
    // A default runs to the first `}`, as it always did: this one holds a `${` (nested), refused.
    expect(() => interpolate(`${defaults}b}c`, {}, 'servers.x.args[0]')).toThrow(/the default of \$\{A:-…\} holds a "\$\{"/);
    expect(() => interpolate(`\${A:-x}${unclosed}`, { A: 'y' }, 'servers.x.args[0]')).toThrow(/at character 8 is never closed/);
    expect(() => resolveConfig(parseConfig({ servers: { x: { command: 'node', args: [`\${A:-x}${unclosed}`] } } }), '/p/.lazytoolsrc.json')).toThrow(ConfigError);
    expect(vscodeVariables(`\${env:X}${unclosed}`, 'servers.x.args[0]', new Variables(), [])).toBe(`\${X}${unclosed}`);
  });
});

// adv29: YAML aliases made an rc of 240 KB into 2 GB of text: 20,000 aliases of a 100 KB glob in
// alwaysVisible passed the schema, and `check` then compiled and matched each one (20 s; a 4 MiB
// file, hours). The value is measured written out first, aliases counted at each use.
describe('an rc whose aliases write out past 16 MiB', () => {
  it('is a config error naming the top-level key; a large plain rc still loads', () => {
    const glob = `github:${'a'.repeat(100_000)}*`;
    const aliased = { servers: { github: { command: 'node' } }, alwaysVisible: Array.from({ length: 20_000 }, () => glob) };
    expect(() => parseConfig(aliased, '/p/.lazytoolsrc.yaml')).toThrow(/^\/p\/\.lazytoolsrc\.yaml: alwaysVisible: expected at most 16 MiB in all, written out \(YAML anchors and aliases count each time they are used/);
    const summary = 'a'.repeat(80);
    const tools = Object.fromEntries(Array.from({ length: 250_000 }, (_, i) => [`s:t${i}`, { summary }]));
    expect(() => parseConfig({ tools })).toThrow(/tools: expected at most 16 MiB/);
    const servers = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`s${i}`, { command: 'node', args: ['a', 'b'], env: { A: 'x'.repeat(100) } }]));
    expect(Object.keys(parseConfig({ servers }).servers ?? {})).toHaveLength(20_000);
  });
});
