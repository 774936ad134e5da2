import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempTree } from '../harness/index.js';

/**
 * What the CLI quotes from an rc (a glob, a tools key, a group name) stays on the line that quotes
 * it: a line break in it would start a line of the rc author's choosing, and a CI log reads a line
 * that starts with `::` as a workflow command (GitHub Actions turns `::error::…` into an
 * annotation, `::add-mask::` hides text). Every line break (\n, \r, U+0085, U+2028, U+2029) is
 * written escaped.
 */

const BREAKS = ['\n', '\r\n', '\r', '\u0085', '\u2028', '\u2029'];
const forged = (where: string) => BREAKS.map((cut) => `${where}${cut}::error title=forged::${where}`);

/** Lines of `text` a reader that splits on any line break sees, so each starts where a log line would. */
const lines = (text: string) => text.split(/\r\n|[\n\r\u0085\u2028\u2029]/);
const forgedLines = (text: string) => lines(text).filter((line) => line.trimStart().startsWith('::'));

describe('rc values with line breaks in warnings and errors', () => {
  it('lock, check and status: every warning quoting them stays one line', () => {
    const rc = {
      servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } },
      groups: { g: { servers: ['kitchen'], tools: forged('kitchen:nomatch') } },
      modes: { m: { groups: ['g'], pin: forged('kitchen:nopin') } },
      defaultMode: 'm',
      alwaysVisible: forged('kitchen:novisible'),
      tools: Object.fromEntries(forged('kitchen:gone').map((key) => [key, { pin: true }])),
    };
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) });
    const locked = runCli(['lock'], { cwd: dir, timeout: 60_000 });
    expect(locked.code, locked.stderr).toBe(0);
    for (const args of [['lock', '--check'], ['check'], ['status']]) {
      const run = runCli(args, { cwd: dir, timeout: 60_000 });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).not.toBe(2);
      expect(forgedLines(run.stdout + run.stderr), args.join(' ')).toEqual([]);
      if (args[0] !== 'lock') {
        expect(run.stderr).toContain('modes.m.pin "kitchen:nopin\\u000a::error title=forged::kitchen:nopin" matches no tool');
        expect(run.stderr).toContain('alwaysVisible "kitchen:novisible\\u2028::error');
        expect(run.stderr).toContain('tools."kitchen:gone\\u0085::error');
      }
    }
  }, 120_000);

  it('a config error quoting an unknown group name keeps it on its line, for every command that reads the rc', () => {
    const rc = { servers: { x: { command: 'node' } }, groups: { g: { servers: ['x'] } }, modes: { m: { groups: ['g', ...forged('missing')] } }, defaultMode: 'm' };
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) });
    for (const args of [['lock'], ['check'], ['status'], ['check', '--format', 'github']]) {
      const run = runCli(args, { cwd: dir });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr + run.stdout).toContain('unknown group "missing\\u000a::error title=forged::missing"');
      // check --format github writes its own annotation (stdout): the only line starting with "::".
      const own = args.includes('github') ? forgedLines(run.stdout).filter((line) => line.startsWith('::error file=')) : [];
      expect(forgedLines(run.stdout + run.stderr).length, args.join(' ')).toBe(own.length);
      if (args.includes('github')) expect(own).toHaveLength(1);
    }
  });
});
