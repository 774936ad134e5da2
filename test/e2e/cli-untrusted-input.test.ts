import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempTree } from '../harness/index.js';

/**
 * The offline commands (lock, status, check, groups, search, mode) fed what they do not control:
 * an upstream's tool list, a catalog or lock file written elsewhere, a long argument. Each says
 * what was wrong in a bounded line on stderr, exits 2 on a config error, never prints a stack,
 * and never drops something without saying so.
 */

const rc = (servers: Record<string, unknown>) => ({ servers, groups: { g: { servers: Object.keys(servers) } }, modes: { m: { groups: ['g'] } }, defaultMode: 'm' });
const tool = (name: string) => ({ name, description: `Read ${name}.`, inputSchema: { type: 'object', properties: {} } });
const NO_STACK = /\n\s+at .+:\d+:\d+/;

describe('lazytools lock', () => {
  it('says which upstream tools it left out of the lock (before, they were dropped without a word)', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc({ hostile: { command: process.execPath, args: [FIXTURES.hostileServer] } })) });
    const run = runCli(['lock'], { cwd: dir, timeout: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('warning: hostile: tool ":search_:search_');
    expect(run.stderr).toContain('left out: its name has 320000 characters (at most 256)');
    expect(run.stderr).toContain('warning: hostile: tool "deep" left out: its definition is nested more than 64 levels deep');
    expect(run.stderr.length).toBeLessThan(4_000);
  }, 120_000);
});

describe('a catalog or lock file with a server name no rc could hold', () => {
  // A 200,000-character name was echoed whole (200 KB on stderr, 13 s of status), `a:b` made ids ambiguous.
  for (const [label, server] of [
    ['200,000 characters', 'S'.repeat(200_000)],
    ['a colon (ids are server:tool)', 'a:b'],
    ['terminal escapes', 'srv\u001b]52;c;ZXZpbA==\u0007'],
  ] as const) {
    it(`${label}: a config error (exit 2) naming it cut and escaped, for every command that reads it`, () => {
      const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc({ x: { command: 'node' } })), 'c.json': JSON.stringify({ servers: { [server]: { tools: [tool('a')] } } }) });
      for (const args of [['status'], ['check'], ['groups'], ['search', 'read'], ['mode', 'read the notes']]) {
        const run = runCli([...args, '--catalog', 'c.json'], { cwd: dir });
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain('c.json: servers: server name ');
        expect(run.stderr).toContain('is not one an rc could hold');
        expect(run.stderr.length).toBeLessThan(500);
        expect(run.stderr).not.toMatch(NO_STACK);
        // eslint-disable-next-line no-control-regex
        expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
      }
    });
  }
});

describe('a mode or server named on the command line that the rc lacks', () => {
  // Exit 1 before (an unexpected failure), while serve --mode with the same name exited 2.
  it('is a usage error: exit 2, the closest names, a pointer at --help, the name cut', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc({ x: { command: 'node' } })), 'c.json': JSON.stringify({ servers: { x: { tools: [tool('a')] } } }) });
    for (const [args, expected] of [
      [['status', '--explain', '--mode', 'mm', '--catalog', 'c.json'], 'lazytools status: Unknown mode "mm". Did you mean "m"'],
      [['auth', 'nope'], 'lazytools auth: Unknown server "nope". Valid servers: x.'],
      [['status', '--explain', '--mode', 'q'.repeat(100_000), '--catalog', 'c.json'], 'Unknown mode "qqq'],
    ] as const) {
      const run = runCli([...args], { cwd: dir, env: { LAZYTOOLS_CONFIG_DIR: dir } });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(expected);
      expect(run.stderr).toContain(`Run \`lazytools ${args[0]} --help\` for its options.`);
      expect(run.stderr.length).toBeLessThan(1_000);
    }
  });
});

describe('a long command-line argument', () => {
  // Each was echoed whole: 100 KB back on stderr for a 100 KB argument.
  it('is quoted cut in the error, whatever the command or flag', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc({ x: { command: 'node' } })), 'c.json': JSON.stringify({ servers: { x: { tools: [tool('a')] } } }) });
    const long = (c: string) => c.repeat(100_000);
    for (const [args, code] of [
      [[long('x')], 2],
      [['status', `--${long('b')}`, '--catalog', 'c.json'], 2],
      [['status', long('p')], 2],
      [['search', 'read', '--limit', long('9'), '--catalog', 'c.json'], 2],
      [['groups', '--tool', long('x'), '--catalog', 'c.json'], 1],
    ] as const) {
      const run = runCli([...args], { cwd: dir });
      expect(run.code, run.stderr.slice(0, 300)).toBe(code);
      expect(run.stderr).toContain('[name cut by lazytools at 200 characters]');
      expect(run.stderr.length).toBeLessThan(1_000);
    }
  });

  it('search that finds nothing repeats the query cut on a whole character, never half an emoji', () => {
    const dir = tempTree({ 'package.json': '{}', 'c.json': JSON.stringify({ servers: { x: { tools: [tool('a')] } } }) });
    // The 200th and 201st UTF-16 units are one emoji: a raw slice printed its first half (U+FFFD on the terminal).
    const run = runCli(['search', `${'q'.repeat(199)}\u{1F600}zzz`, '--catalog', 'c.json'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd()).toBe(`no tools match "${'q'.repeat(199)}… [query cut by lazytools at 200 characters]"`);
    expect(run.stdout).not.toContain('\uFFFD');
  });
});

describe('an rc ${…} no reference can read', () => {
  // `${A:-${B}}` reached the server as `${B}` (or A's value and a stray `}`), `${X` as written, without a word.
  for (const [label, env, keyPath, expected] of [
    ['a nested default', { A_ARG: '${LT_UNSET_A:-${LT_UNSET_B}}' }, 'servers.x.env.A_ARG', 'expected a default of plain text'],
    ['a ${ never closed', { A_ARG: '--dir=${HOME' }, 'servers.x.env.A_ARG', 'expected ${NAME} or ${NAME:-default}, ending with "}"'],
  ] as const) {
    it(`${label}: a config error (exit 2) naming the file, the key path and what was expected, for every command that reads the rc`, () => {
      const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc({ x: { command: 'node', env } })) });
      for (const args of [['check'], ['status'], ['serve']]) {
        const run = runCli(args, { cwd: dir });
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain('.lazytoolsrc.json');
        expect(run.stderr).toContain(`${keyPath}: `);
        expect(run.stderr).toContain(expected);
        expect(run.stderr).not.toMatch(NO_STACK);
      }
    });
  }
});
