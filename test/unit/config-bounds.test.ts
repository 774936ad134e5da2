import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolate, interpolateMap } from '../../src/config/env.js';
import { loadConfig, MAX_RC_BYTES } from '../../src/config/load.js';
import { loadPresets } from '../../src/config/presets.js';
import { MAX_ALIAS, MAX_ALIASES, MAX_TASK, MAX_TASKS } from '../../src/config/schema.js';
import { MAX_TIMER_MS } from '../../src/util/bounds.js';
import { ConfigError } from '../../src/util/errors.js';
import { tempTree } from '../harness/index.js';

/** Bounds and lookups in config loading: a YAML anchor bomb, inherited names, the rc file's size. */

function anchorBomb(levels: number): string {
  const lines = ['tools:', '  "memory:read_graph":', '    examples:', '      - a: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < levels; i++) lines.push(`        b${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('a mode\'s aliases and tasks are bounded', () => {
  const loadError = (rc: unknown) =>
    loadConfig({ cwd: tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) }) }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it('100,000 aliases, a 1 MB task or 100,000 tasks are config errors naming the key path', async () => {
    const many = await loadError({ modes: { big: { groups: ['files'], aliases: Array.from({ length: 100_000 }, (_, i) => `alias ${i}`) } } });
    expect(many).toBeInstanceOf(ConfigError);
    expect(many?.message).toContain(`at most ${MAX_ALIASES} aliases`);
    expect(many?.message).toContain('at modes.big.aliases');
    const long = await loadError({ modes: { big: { groups: ['files'], tasks: ['ok', 'read the files '.repeat(70_000)] } } });
    expect(long?.message).toContain(`at most ${MAX_TASK} characters`);
    expect(long?.message).toContain('at modes.big.tasks[1]');
    expect((await loadError({ modes: { big: { groups: ['files'], tasks: Array.from({ length: 100_000 }, (_, i) => `task ${i}`) } } }))?.message).toContain(`at most ${MAX_TASKS} tasks`);
    expect((await loadError({ modes: { big: { groups: ['files'], aliases: ['x'.repeat(MAX_ALIAS + 1)] } } }))?.message).toContain('at modes.big.aliases[0]');
  });

  it('at the bounds a mode loads, and every preset is well inside them', async () => {
    const full = { groups: ['files'], aliases: Array.from({ length: MAX_ALIASES }, (_, i) => `${i}`.padEnd(MAX_ALIAS, 'a')), tasks: Array.from({ length: MAX_TASKS }, (_, i) => `${i}`.padEnd(MAX_TASK, 't')) };
    expect(await loadError({ modes: { full } })).toBeUndefined();
    for (const mode of Object.values(loadPresets().modes)) {
      expect((mode.aliases ?? []).length).toBeLessThanOrEqual(MAX_ALIASES / 2);
      expect((mode.tasks ?? []).length).toBeLessThanOrEqual(MAX_TASKS / 1.5);
      for (const alias of mode.aliases ?? []) expect(alias.length).toBeLessThanOrEqual(MAX_ALIAS / 2);
      for (const task of mode.tasks ?? []) expect(task.length).toBeLessThanOrEqual(MAX_TASK / 2);
    }
  });
});

describe('tools.<id>.examples is bounded', () => {
  it('a YAML anchor bomb is a config error naming the key, not a 10 s describe_tools', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.yaml': anchorBomb(9) });
    const error = await loadConfig({ cwd: dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('tools["memory:read_graph"].examples');
    expect((error as Error).message).toContain('at most 10000 values');
  });

  it('ordinary examples still load', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.yaml': 'tools:\n  "memory:read_graph":\n    examples:\n      - {}\n      - query: x\n' });
    const { config } = await loadConfig({ cwd: dir });
    expect(config.tools?.['memory:read_graph']?.examples).toEqual([{}, { query: 'x' }]);
  });
});

describe('${VAR} reads only real environment variables', () => {
  it('${toString} is an unset variable, not Object.prototype.toString', () => {
    expect(() => interpolate('${toString}', {}, 'servers.x.env.A')).toThrow(/environment variable toString is not set/);
    expect(() => interpolate('${constructor}', {}, 'servers.x.env.A')).toThrow(ConfigError);
  });

  it('an unset variable\'s error names a long variable or env key cut, on one line', () => {
    const long = `V${'A'.repeat(100_000)}`;
    const message = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected an error');
    };
    const unset = message(() => interpolate(`\${${long}}`, {}, 'servers.x.env.A'));
    expect(unset.length).toBeLessThan(400);
    expect(unset).toMatch(/^servers\.x\.env\.A: environment variable VAAA+… is not set \(referenced as \$\{VAAA+…\}\)$/);
    const keyed = message(() => interpolateMap({ [`K\n${'B'.repeat(100_000)}`]: '${LT_NOT_SET_READ14}' }, {}, 'servers.x.env'));
    expect(keyed.length).toBeLessThan(400);
    expect(keyed).not.toContain('\n');
    expect(keyed).toContain('environment variable LT_NOT_SET_READ14 is not set');
  });
});

/** loadConfig's ConfigError message (it must fail). */
async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<string> {
  const error = await loadConfig(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('an rc file is read only when it is a regular file of at most 4 MiB', () => {
  const valid = JSON.stringify({ defaultMode: 'development' });
  // The file's rc padded with whitespace to `size` bytes: still valid (the old loader applied it).
  const pad = (file: string, size = MAX_RC_BYTES + 1) => {
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text + ' '.repeat(size - Buffer.byteLength(text)));
  };

  it('an oversize --config file, or one the search finds, is a config error naming the file, read nowhere', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': valid, 'other.yaml': 'defaultMode: development\n' });
    for (const name of ['.lazytoolsrc.json', 'other.yaml']) pad(path.join(dir, name));
    expect(MAX_RC_BYTES).toBe(4 * 1024 * 1024);
    expect(await loadError({ cwd: dir, file: 'other.yaml' })).toBe(`${path.join(dir, 'other.yaml')}: over 4 MiB: too large to be an rc file (a hand-written rc is a few KiB)`);
    expect(await loadError({ cwd: dir })).toBe(`${path.join(dir, '.lazytoolsrc.json')}: over 4 MiB: too large to be an rc file (a hand-written rc is a few KiB)`);
  });

  it('the search reads its files in order: an oversize file after the one it takes is not refused', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': valid, '.lazytoolsrc.yaml': 'defaultMode: development\n' });
    pad(path.join(dir, '.lazytoolsrc.yaml'));
    const { config, file } = await loadConfig({ cwd: dir });
    expect(file).toBe(path.join(dir, '.lazytoolsrc.json'));
    expect(config.defaultMode).toBe('development');
    // An rc of exactly the bound loads.
    pad(path.join(dir, '.lazytoolsrc.json'), MAX_RC_BYTES);
    expect((await loadConfig({ cwd: dir })).config.defaultMode).toBe('development');
  });

  it('an rc that is a link to a device is refused, not read (a link to /dev/zero reads for ever)', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    symlinkSync('/dev/null', path.join(dir, '.lazytoolsrc.json'));
    const expected = `${path.join(dir, '.lazytoolsrc.json')}: not a regular file (a device, FIFO, socket or folder): expected an rc file (a hand-written rc is a few KiB)`;
    expect(await loadError({ cwd: dir })).toBe(expected);
    expect(await loadError({ cwd: dir, file: '.lazytoolsrc.json' })).toBe(expected);
  });
});

describe('durations are ones a timer can wait', () => {
  it('a timeout past 2^31 - 1 ms is a config error naming the key, not a timer that fires after 1 ms', async () => {
    // "startTimeout": 3000000000 (meant as "wait long") failed every server's start at once:
    // Node set the timer to 1 ms, and the error said the server gave no answer within 3000000000 ms.
    const long = 3_000_000_000;
    const rc = {
      startTimeout: long,
      servers: { memory: { command: 'node', args: ['x.js'], timeout: long, idleTimeout: long, startTimeout: long } },
      discovery: { embeddings: { url: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: long } },
    };
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) });
    const error = await loadConfig({ cwd: dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const key of ['startTimeout', 'servers.memory.timeout', 'servers.memory.idleTimeout', 'servers.memory.startTimeout', 'discovery.embeddings.timeoutMs']) expect(`${message}\n`).toContain(`at ${key}\n`);
    expect(message).toContain(`at most ${MAX_TIMER_MS} ms`);
  });

  it('the longest one loads', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ startTimeout: MAX_TIMER_MS, servers: { memory: { command: 'node', timeout: MAX_TIMER_MS } } }) });
    const { config } = await loadConfig({ cwd: dir });
    expect(config.startTimeout).toBe(MAX_TIMER_MS);
  });
});

describe('${…} that no reference can read', () => {
  // Both reached the server as literal text without a word: `${A:-${B}}` as `${B}` (or A's value and a stray `}`), `${X` as written.
  it('a default holding ${ (nested) and a ${ never closed are config errors naming the key path and what was expected', () => {
    expect(() => interpolate('${A:-${B}}', { B: 'b' }, 'servers.x.env.A')).toThrow(/^servers\.x\.env\.A: the default of \$\{A:-…\} holds a "\$\{": expected a default of plain text/);
    expect(() => interpolate('${A:-${B}}', { A: 'a' }, 'servers.x.env.A')).toThrow(ConfigError);
    expect(() => interpolate('--dir=${X', { X: 'x' }, 'servers.x.args[1]')).toThrow(/^servers\.x\.args\[1\]: "\$\{" at character 7 is never closed: expected \$\{NAME\} or \$\{NAME:-default\}/);
    expect(() => interpolate('${X}${', { X: 'x' }, 'servers.x.args[1]')).toThrow(/at character 5 is never closed/);
  });

  it('what was read before reads as before: references, defaults, and ${…} that are not references', () => {
    expect(interpolate('${A:-fast}/${B}', { B: 'b' }, 'servers.x.args[0]')).toBe('fast/b');
    expect(interpolate('$${B}', { B: 'b' }, 'servers.x.args[0]')).toBe('$b');
    // A shell's or VS Code's `${…}` is no reference: it stays text, as before.
    expect(interpolate('echo ${1} ${X#y} ${env:X} $HOME', {}, 'servers.x.args[1]')).toBe('echo ${1} ${X#y} ${env:X} $HOME');
  });
});
