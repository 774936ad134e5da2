import { chmodSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInFolder, signInFile, readSignIn, SignInReader, withSignInLock, writeSignIn, type SignIn } from '../../src/upstream/auth/store.js';
import { LockTimeoutError, withFileLock } from '../../src/util/file-lock.js';
import { deferred } from '../harness/index.js';

// Where sign-ins are kept (one file per server URL and client, private to the user) and the lock
// that makes processes renewing one sign-in take turns.

const folder = () => path.join(mkdtempSync(path.join(tmpdir(), 'lazytools-sign-ins-')), 'sign-ins');
const signIn = (url: string): SignIn => ({ version: 1, server: 'remote', url, grant: 'authorization_code', tokens: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' } });

describe('sign-in store', () => {
  it('lives in the user config folder: LAZYTOOLS_CONFIG_DIR, else XDG_CONFIG_HOME, else ~/.config', () => {
    expect(signInFolder({ LAZYTOOLS_CONFIG_DIR: '/cfg' })).toBe(path.resolve('/cfg/sign-ins'));
    expect(signInFolder({ XDG_CONFIG_HOME: '/xdg' })).toBe(path.join('/xdg', 'lazytools', 'sign-ins'));
    expect(signInFolder({})).toMatch(/[\\/]\.config[\\/]lazytools[\\/]sign-ins$/);
  });

  it('keeps one file per server URL, and apart per client', () => {
    const dir = '/cfg/sign-ins';
    expect(signInFile(dir, 'https://mcp.example.test/mcp#x')).toBe(signInFile(dir, 'https://mcp.example.test/mcp'));
    expect(signInFile(dir, 'https://mcp.example.test/mcp')).not.toBe(signInFile(dir, 'https://mcp.example.test/other'));
    expect(signInFile(dir, 'https://mcp.example.test/mcp', 'client_credentials bot')).not.toBe(signInFile(dir, 'https://mcp.example.test/mcp'));
    expect(path.basename(signInFile(dir, 'https://mcp.example.test/mcp'))).toMatch(/^mcp\.example\.test-[0-9a-f]{16}\.json$/);
  });

  it('writes a file only the user can read, in a folder only the user can open, and reads it back', () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readSignIn(file)?.tokens?.refresh_token).toBe('rt-1');
  });

  it('never writes through a link planted at its temporary file name', () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    const victim = path.join(path.dirname(path.dirname(file)), 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    writeSignIn(file, { ...signIn('https://mcp.example.test/mcp'), tokens: { access_token: 'at-2', token_type: 'Bearer' } });
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(readSignIn(file)?.tokens?.access_token).toBe('at-2');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads a damaged or foreign file as no sign-in', () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    for (const text of ['{', '[]', JSON.stringify({ version: 2, server: 'x', url: 'u', grant: 'authorization_code' }), JSON.stringify({ ...signIn('u'), tokens: { access_token: 7 } })]) {
      writeFileSync(file, text);
      expect(readSignIn(file)).toBeUndefined();
    }
  });

  it('reads a file that is not the user\'s own as no sign-in: a link, or a file or folder others may write', () => {
    // Its tokens would be sent and its authorization server's endpoints given the rc's client
    // secret (a refresh, a logout's revocation): planted in a shared config folder, it is not ours.
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    const link = path.join(path.dirname(file), 'linked.json');
    symlinkSync(file, link);
    expect(readSignIn(link)).toBeUndefined();
    if (process.getuid === undefined) return;
    chmodSync(file, 0o666);
    expect(readSignIn(file)).toBeUndefined();
    expect(new SignInReader(file).get()).toBeUndefined();
    chmodSync(file, 0o600);
    chmodSync(path.dirname(file), 0o777);
    expect(readSignIn(file)).toBeUndefined();
    chmodSync(path.dirname(file), 0o700);
    expect(readSignIn(file)?.tokens?.access_token).toBe('at-1');
  });

  it('reads the file again once another process changed it', () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    const reader = new SignInReader(file);
    expect(reader.get()).toBeUndefined();
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    expect(reader.get()?.tokens?.access_token).toBe('at-1');
    writeSignIn(file, { ...signIn('https://mcp.example.test/mcp'), tokens: { access_token: 'at-2-longer', token_type: 'Bearer' } });
    expect(reader.get()?.tokens?.access_token).toBe('at-2-longer');
  });
});

describe('file lock', () => {
  it('lets one holder run at a time', async () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    const order: string[] = [];
    const release = deferred();
    const entered = deferred();
    const first = withSignInLock(file, async () => {
      order.push('first in');
      entered.resolve();
      await release.promise;
      order.push('first out');
    });
    await entered.promise;
    const second = withSignInLock(file, async () => void order.push('second'));
    order.push('released');
    release.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'released', 'first out', 'second']);
  });

  it('takes over a lock whose holder is gone or that is older than 30 s, and waits no longer than asked for a live one', async () => {
    const file = signInFile(folder(), 'https://mcp.example.test/mcp');
    writeSignIn(file, signIn('https://mcp.example.test/mcp'));
    writeFileSync(`${file}.lock`, `2147483646 ${Date.now()}`);
    expect(await withFileLock(file, async () => 'dead holder')).toBe('dead holder');
    writeFileSync(`${file}.lock`, `${process.ppid} ${Date.now() - 60_000}`);
    expect(await withFileLock(file, async () => 'old lock')).toBe('old lock');
    writeFileSync(`${file}.lock`, `${process.ppid} ${Date.now()}`);
    await expect(withFileLock(file, async () => 'never', 50)).rejects.toBeInstanceOf(LockTimeoutError);
  });
});
