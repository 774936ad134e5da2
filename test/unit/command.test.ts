import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveCommand } from '../../src/upstream/command.js';
import { tempTree } from '../harness/index.js';

/** A folder like Node's install folder on Windows: the sh script, the cmd shim and the PowerShell one. */
function nodeFolder(): string {
  return tempTree({ 'bin/npx': '#!/bin/sh\n', 'bin/npx.cmd': '@echo off\r\n', 'bin/npx.ps1': '# ps\n', 'bin/uvx.exe': 'MZ' });
}

describe('resolveCommand (stdio upstream commands resolve like a shell)', () => {
  it('finds the .cmd shim for a bare name on Windows, as cmd.exe does', () => {
    const bin = path.join(nodeFolder(), 'bin');
    const empty = tempTree({ 'readme.txt': '' });
    const env = { PATH: `${empty};${bin}`, PATHEXT: '.COM;.EXE;.BAT;.CMD' };
    expect(resolveCommand('npx', { env, platform: 'win32' })).toBe(path.join(bin, 'npx.cmd'));
    expect(resolveCommand('uvx', { env, platform: 'win32' })).toBe(path.join(bin, 'uvx.exe'));
    expect(resolveCommand('npx.cmd', { env, platform: 'win32' })).toBe(path.join(bin, 'npx.cmd'));
  });

  it('reads Path and falls back to the default PATHEXT on Windows', () => {
    const bin = path.join(nodeFolder(), 'bin');
    expect(resolveCommand('npx', { env: { Path: bin }, platform: 'win32' })).toBe(path.join(bin, 'npx.cmd'));
  });

  it('finds only executable files on POSIX, first in PATH order', () => {
    const dir = tempTree({ 'a/tool': 'not executable', 'b/tool': '#!/bin/sh\n' });
    chmodSync(path.join(dir, 'b/tool'), 0o755);
    const env = { PATH: `${path.join(dir, 'a')}:${path.join(dir, 'b')}` };
    expect(resolveCommand('tool', { env, platform: 'linux' })).toBe(path.join(dir, 'b/tool'));
    // The sh script named npx is what POSIX runs; the .cmd shim is not looked at.
    const bin = path.join(nodeFolder(), 'bin');
    chmodSync(path.join(bin, 'npx'), 0o755);
    expect(resolveCommand('npx', { env: { PATH: bin }, platform: 'linux' })).toBe(path.join(bin, 'npx'));
  });

  it('takes a path relative to the working directory, and leaves an unknown command to spawn', () => {
    const dir = tempTree({ 'scripts/server.cmd': '@echo off\r\n' });
    mkdirSync(path.join(dir, 'empty'));
    writeFileSync(path.join(dir, 'scripts/server'), '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveCommand('./scripts/server', { env: { PATH: '' }, cwd: dir, platform: 'linux' })).toBe(path.join(dir, 'scripts/server'));
    expect(resolveCommand('./scripts/server', { env: {}, cwd: dir, platform: 'win32' })).toBe(path.join(dir, 'scripts/server.cmd'));
    expect(resolveCommand('no-such-server', { env: { PATH: path.join(dir, 'empty') }, platform: 'linux' })).toBe('no-such-server');
  });
});
