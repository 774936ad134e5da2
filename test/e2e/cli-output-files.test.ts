import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempTree } from '../harness/index.js';

/**
 * A file path given to a command to write (`status --html`, `lock --out`, `init --out`) that is a
 * folder, or whose folder is missing: a usage error naming the flag, the path as typed and what
 * was expected, exit 2, no stack. It was the file system's errno text (lock's named the temporary
 * `.tmp` file it writes first) and exit 1, as for a crash; lock had contacted every server first.
 */

const NO_STACK = /\n\s+at .+:\d+:\d+/;
const rc = { servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } }, groups: { g: { servers: ['kitchen'] } }, modes: { m: { groups: ['g'] } }, defaultMode: 'm' };
const catalog = { servers: { kitchen: { tools: [{ name: 'a', description: 'Read a.', inputSchema: { type: 'object', properties: {} } }] } } };

function project() {
  const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc), 'c.json': JSON.stringify(catalog), 'claude_desktop_config.json': JSON.stringify({ mcpServers: { a: { command: 'node', args: ['a.js'] } } }) });
  mkdirSync(path.join(dir, 'reports'));
  return dir;
}

const commands = [
  { args: ['status', '--catalog', 'c.json', '--html'], flag: '--html', example: 'status.html' },
  { args: ['lock', '--out'], flag: '--out', example: 'lazytools.lock.json' },
  { args: ['init', '--from', 'claude_desktop_config.json', '--out'], flag: '--out', example: '.lazytoolsrc.json' },
];

describe('a path to write that is no file path', () => {
  for (const { args, flag, example } of commands) {
    it(`${args[0]} ${flag}: a folder, a missing folder, a file as folder are usage errors naming the path given`, () => {
      const dir = project();
      for (const [given, expected] of [
        ['reports', `${flag} "reports": is a folder; expected a file path (e.g. ${path.join('reports', example)})`],
        [path.join('missing', 'out.x'), `${flag} "${path.join('missing', 'out.x')}": the folder ${path.join(dir, 'missing')} does not exist; expected a file path in an existing folder`],
        [path.join('c.json', 'out.x'), `${flag} "${path.join('c.json', 'out.x')}": ${path.join(dir, 'c.json')} is not a folder`],
      ]) {
        const run = runCli([...args, given!], { cwd: dir, env: { HOME: dir }, timeout: 60_000 });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(`lazytools ${args[0]}: ${expected}`);
        expect(run.stderr).not.toContain('.tmp');
        expect(run.stderr).not.toMatch(/EISDIR|ENOENT|ENOTDIR/);
        expect(run.stderr).not.toMatch(NO_STACK);
        // Said before any work: lock contacted no server (no progress lines), nothing was written.
        expect(run.stderr).not.toContain('kitchen');
        expect(readdirSync(path.join(dir, 'reports'))).toEqual([]);
        expect(existsSync(path.join(dir, 'missing'))).toBe(false);
      }
    }, 120_000);
  }

  it.runIf(existsSync('/proc/version'))('a path the file system refuses when written: the flag, the path given and the error code', () => {
    const dir = project();
    const run = runCli(['status', '--catalog', 'c.json', '--html', '/proc/version'], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/lazytools status: --html "\/proc\/version": could not be written \(E[A-Z]+\); expected a file path you can write/);
    expect(run.stderr).not.toMatch(NO_STACK);
  });
});

describe('a link at the path to write', () => {
  it('status --html replaces the link with the page and leaves what it pointed at alone, as lock and init do', () => {
    const dir = project();
    // A repository can commit `status.html -> ../.bashrc`: CI running status --html wrote the page into the target.
    const target = path.join(dir, 'reports', 'kept.txt');
    writeFileSync(target, 'keep me\n');
    symlinkSync(target, path.join(dir, 'status.html'));
    const run = runCli(['status', '--catalog', 'c.json', '--html', 'status.html'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(lstatSync(path.join(dir, 'status.html')).isSymbolicLink()).toBe(false);
    expect(readFileSync(path.join(dir, 'status.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });
});
