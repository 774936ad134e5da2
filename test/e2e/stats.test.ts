import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { readUsage, usagePath } from '../../src/usage/record.js';
import { BIN, REFERENCE_CATALOG, referenceRc, inMemoryClient } from '../harness/index.js';

describe('usage record and stats', () => {
  it('records how tools were reached and suggests mode changes', async () => {
    const { dir, file } = referenceRc({ usage: true });
    const loaded = await loadConfig({ file });
    const gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
    await gateway.start();
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'stats' });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'execute_tool', arguments: { name: 'get-annotated-message', arguments: { messageType: 'success' } } });
    // Search finds a tool the list lacks (one it carries is named apart, not found).
    await client.callTool({ name: 'search_tools', arguments: { query: 'echo back a message', limit: 1 } });
    await client.callTool({ name: 'execute_tool', arguments: { name: 'echo', arguments: { message: 'hi' } } });
    await client.callTool({ name: 'read_graph', arguments: {} });
    await client.close();
    await gateway.close();

    const records = await readUsage(usagePath(file, dir));
    expect(records.map((r) => `${r.mode} ${r.tool} ${r.via}`)).toEqual([
      'development everything:get-annotated-message execute_tool',
      'development everything:get-annotated-message execute_tool',
      'development everything:get-annotated-message execute_tool',
      'development everything:echo search',
      'development memory:read_graph direct',
    ]);

    const stats = spawnSync(process.execPath, [BIN, 'stats', '--catalog', REFERENCE_CATALOG], { cwd: dir, encoding: 'utf8' });
    expect(stats.status).toBe(0);
    expect(stats.stdout).toContain('5 calls');
    // development's typical tasks bring get-sum into its list now: a demo tool no task names stands in.
    expect(stats.stdout).toContain('- development: everything:get-annotated-message was reached 3 times around the list (execute_tool 3, after search 0); add group "diagnostics" (server profile everything) or "messaging"');
    expect(stats.stdout).not.toContain('echo was reached');
    const json = JSON.parse(spawnSync(process.execPath, [BIN, 'stats', '--json'], { cwd: dir, encoding: 'utf8' }).stdout) as { calls: number };
    expect(json.calls).toBe(5);
    expect(path.basename(usagePath(file, dir))).toBe('usage.jsonl');
  });

  it('prints names from the record with control characters escaped and long ones cut', () => {
    const { dir } = referenceRc({ usage: true });
    mkdirSync(path.join(dir, '.lazytools'));
    const t = new Date().toISOString();
    const lines = [
      { t, mode: '\u001b[31mred\u001b[0m', tool: 'x:\u001b]0;title\u0007\u009b2J', via: 'direct' },
      { t, mode: 'all', tool: 'y'.repeat(100_000), via: 'search' },
      // Reached often enough for a suggestion, which names the tool too.
      ...Array.from({ length: 3 }, () => ({ t, mode: 'development', tool: `z${'z'.repeat(100_000)}`, via: 'execute_tool' })),
    ];
    writeFileSync(path.join(dir, '.lazytools', 'usage.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const stats = spawnSync(process.execPath, [BIN, 'stats', '--catalog', REFERENCE_CATALOG], { cwd: dir, encoding: 'utf8' });
    expect(stats.status).toBe(0);
    expect(stats.stdout).toContain('\\u001b[31mred\\u001b[0m / x:\\u001b]0;title\\u0007\\u009b2J');
    // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
    expect(stats.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(stats.stdout.length).toBeLessThan(2_000);
  });

  it('--json cuts names from the record (hand-edited, 100,000 characters) at a whole character, and keeps real ones whole', () => {
    const { dir } = referenceRc({ usage: true });
    mkdirSync(path.join(dir, '.lazytools'));
    const t = new Date().toISOString();
    // The 400th character of the tool name is the first half of an emoji.
    const long = `x:${'y'.repeat(397)}${'😀'.repeat(50_000)}`;
    const real = `${'s'.repeat(64)}:${'t'.repeat(256)}`;
    const lines = [
      { t, mode: 'all', tool: real, via: 'search' },
      ...Array.from({ length: 3 }, () => ({ t, mode: 'development', tool: long, via: 'execute_tool' })),
    ];
    writeFileSync(path.join(dir, '.lazytools', 'usage.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const stats = spawnSync(process.execPath, [BIN, 'stats', '--json', '--catalog', REFERENCE_CATALOG], { cwd: dir, encoding: 'utf8' });
    expect(stats.status).toBe(0);
    expect(stats.stdout.length).toBeLessThan(5_000);
    const json = JSON.parse(stats.stdout) as { calls: number; tools: Array<{ mode: string; tool: string }>; suggestions: Array<{ tool: string; message: string }> };
    expect(json.calls).toBe(4);
    expect(json.tools.map((row) => row.tool)).toEqual([`x:${'y'.repeat(397)}…`, real]);
    expect(json.suggestions.map((suggestion) => suggestion.tool)).toEqual([`x:${'y'.repeat(397)}…`]);
    expect(json.suggestions[0]?.message.length).toBeLessThanOrEqual(1_000);
    expect(stats.stdout).not.toMatch(/\\ud83d(?!\\ude00)|[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('a --catalog that cannot be read is a config error naming the file (exit 2), not dropped', () => {
    const { dir } = referenceRc({ usage: true });
    const missing = path.join(dir, 'no-such-catalog.json');
    const stats = spawnSync(process.execPath, [BIN, 'stats', '--catalog', missing], { cwd: dir, encoding: 'utf8' });
    expect(stats.status).toBe(2);
    expect(stats.stdout).toBe('');
    expect(stats.stderr.trimEnd()).toBe(`lazytools stats: ${missing}: file not found`);
    // Without --catalog and without a lock, stats still answers from the record alone.
    expect(spawnSync(process.execPath, [BIN, 'stats'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
  });

  it('prints each mode\'s 20 most used tools, 200 rows and 50 suggestions at most, and says how many more (--all prints all, --json holds all)', () => {
    const { dir } = referenceRc({ usage: true });
    mkdirSync(path.join(dir, '.lazytools'));
    const t = new Date().toISOString();
    // 300 tools of a real mode, each reached 3 to 12 times around the list (a suggestion each), and 1,000 modes of one record each.
    const lines = [
      ...Array.from({ length: 300 }, (_, i) => Array.from({ length: 3 + (i % 10) }, () => ({ t, mode: 'development', tool: `srv:tool_${i}`, via: 'execute_tool' }))).flat(),
      ...Array.from({ length: 1_000 }, (_, i) => ({ t, mode: `m${i}`, tool: 'srv:x', via: 'direct' })),
    ];
    writeFileSync(path.join(dir, '.lazytools', 'usage.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'stats', ...args], { cwd: dir, encoding: 'utf8' });
    const bounded = run();
    expect(bounded.status).toBe(0);
    const rows = bounded.stdout.split('\n').filter((line) => / \/ srv:/.test(line) && !line.startsWith('- '));
    expect(rows).toHaveLength(200);
    // The most used first: development's 20 most used, then one row each of other modes.
    expect(rows.filter((row) => row.startsWith('development / '))).toHaveLength(20);
    expect(rows[0]).toMatch(/^development \/ srv:tool_\d+9 +0 +12 +0$/);
    expect(bounded.stdout).toContain(`... and ${1_300 - 200} more rows`);
    expect(bounded.stdout.split('\n').filter((line) => line.startsWith('- development: '))).toHaveLength(50);
    expect(bounded.stdout).toContain('... and 250 more suggestions (--all prints every one)');
    expect(bounded.stdout.length).toBeLessThan(40_000);
    const all = run('--all');
    expect(all.stdout.split('\n').filter((line) => / \/ srv:/.test(line) && !line.startsWith('- '))).toHaveLength(1_300);
    expect(all.stdout.split('\n').filter((line) => line.startsWith('- development: '))).toHaveLength(300);
    expect(all.stdout).not.toContain('more rows');
    const json = JSON.parse(run('--json').stdout) as { tools: unknown[]; suggestions: unknown[] };
    expect([json.tools.length, json.suggestions.length]).toEqual([1_300, 300]);
  });
});
