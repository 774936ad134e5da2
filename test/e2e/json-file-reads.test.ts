import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rcProject, runCli, tempTree } from '../harness/index.js';

/**
 * The JSON files lazytools reads besides the rc (a project's lock, `--catalog` files): only a
 * regular file of bounded size, so a lock committed as a FIFO or as a link to a device (git keeps
 * links: `lazytools.lock.json -> /dev/zero` grew `status` to 15 GB in a minute) is a config error
 * naming the file, never a hang, a memory blow-up or a stack trace.
 */
describe('lock and catalog files that are not plain JSON files', () => {
  const refused = (run: { code: number | null; stderr: string }, file: string, why: RegExp) => {
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(why);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  };

  it('a lock or a catalog that is a FIFO is refused at once (it would never answer)', () => {
    const { dir } = rcProject({});
    execFileSync('mkfifo', [path.join(dir, 'lazytools.lock.json')]);
    execFileSync('mkfifo', [path.join(dir, 'tools.json')]);
    refused(runCli(['status'], { cwd: dir, timeout: 20_000 }), 'lazytools.lock.json', /not a regular file/);
    refused(runCli(['status', '--catalog', 'tools.json'], { cwd: dir, timeout: 20_000 }), 'tools.json', /not a regular file/);
  });

  it('a lock over 256 MiB is refused before it is read', () => {
    const { dir } = rcProject({});
    const lock = path.join(dir, 'lazytools.lock.json');
    writeFileSync(lock, '');
    // Sparse: no disk, no memory, until something reads it.
    truncateSync(lock, 300 * 1024 * 1024);
    refused(runCli(['status'], { cwd: dir, timeout: 20_000 }), 'lazytools.lock.json', /over 256 MiB/);
  });

  it('a lock of more JSON values than a lazytools JSON file may hold is refused before it is parsed', () => {
    const { dir } = rcProject({});
    // 12 MiB of empty objects: 80 million of them (240 MB) took `status` past 6.8 GB for over 12 minutes.
    writeFileSync(path.join(dir, 'lazytools.lock.json'), `{"lockfileVersion":1,"servers":{"s":{"tools":[${Array(4_000_000).fill('{}').join(',')}]}}}`);
    refused(runCli(['status'], { cwd: dir, timeout: 20_000 }), 'lazytools.lock.json', /holds more than 4,000,000 JSON values: too many to be a lazytools JSON file/);
  });

  it('init reads a folder\'s .claude/settings.local.json only when it is a regular file (a FIFO there held it for ever)', () => {
    const { dir } = rcProject({}, { '.mcp.json': JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }), '.claude/keep': '' });
    execFileSync('mkfifo', [path.join(dir, '.claude', 'settings.local.json')]);
    const run = runCli(['init', '--out', 'rc.json'], { cwd: dir, env: { HOME: dir }, timeout: 20_000 });
    expect(run.code, run.stderr).toBe(0);
    // Not approved anywhere readable: imported disabled, as Claude Code keeps it.
    expect(run.stderr).toContain('memory: in .mcp.json but not approved in Claude Code for this folder');
  });

  it('a lock that is a link to a file that is no JSON (a token file, /proc/self/environ) is refused without quoting it', () => {
    const { dir } = rcProject({});
    const secret = path.join(tempTree({ token: 'ghp_AbCdEf1234567890abcdefGHIJKL\n' }), 'token');
    symlinkSync(secret, path.join(dir, 'lazytools.lock.json'));
    const run = runCli(['status'], { cwd: dir, timeout: 20_000 });
    refused(run, 'lazytools.lock.json', /invalid JSON: Unexpected token 'g' \(not valid JSON\)/);
    expect(run.stderr).not.toContain('hp_AbC');
  });
});

