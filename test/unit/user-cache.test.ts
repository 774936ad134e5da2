import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCacheFolder, writeCacheFile } from '../../src/util/user-cache.js';

/**
 * The user cache vouches for locks and answers starts, so only a folder that is the user's own
 * is used. On the old main a pre-existing world-writable folder was used as it was, and a folder
 * inside the cache made every write fail after writing its file (pruning threw): the folder grew
 * without bound.
 */

const fresh = () => mkdtempSync(path.join(os.tmpdir(), 'lazytools-user-cache-'));

describe('user cache folder', () => {
  it('is not used when others may write it (or its base), with one warning naming it', () => {
    const base = fresh();
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    expect(userCacheFolder('stamps', { LAZYTOOLS_CACHE_DIR: base }, warn)).toBe(path.join(base, 'stamps'));
    chmodSync(base, 0o777);
    expect(userCacheFolder('stamps', { LAZYTOOLS_CACHE_DIR: base }, warn)).toBeUndefined();
    expect(userCacheFolder('stamps', { LAZYTOOLS_CACHE_DIR: base }, warn)).toBeUndefined();
    expect(warnings).toEqual([`the user cache folder ${base} may be written by others (mode 777): not used (lazytools caches nothing there; make it yours, mode 700, or set LAZYTOOLS_CACHE_DIR)`]);
    chmodSync(base, 0o700);
    mkdirSync(path.join(base, 'answers'), { mode: 0o700 });
    chmodSync(path.join(base, 'answers'), 0o775);
    expect(userCacheFolder('answers', { LAZYTOOLS_CACHE_DIR: base }, warn)).toBeUndefined();
    expect(warnings[1]).toContain('may be written by others (mode 775)');
  });

  // Only root can give a folder to another user.
  it.runIf(process.getuid?.() === 0)('is not used when another user owns it', () => {
    const base = fresh();
    chownSync(base, 65534, 65534);
    const warnings: string[] = [];
    expect(userCacheFolder('stamps', { LAZYTOOLS_CACHE_DIR: base }, (message) => warnings.push(message))).toBeUndefined();
    expect(warnings[0]).toContain('belongs to another user (uid 65534)');
  });

  it('is not used when it is a file, not a folder', () => {
    const base = fresh();
    writeFileSync(path.join(base, 'stamps'), 'x');
    expect(userCacheFolder('stamps', { LAZYTOOLS_CACHE_DIR: base }, () => {})).toBeUndefined();
  });

  it('never writes a cache file through a link planted at its temporary name', () => {
    const folder = path.join(fresh(), 'answers');
    mkdirSync(folder, { mode: 0o700 });
    const victim = path.join(path.dirname(folder), 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, path.join(folder, `entry.json.${process.pid}.tmp`));
    expect(writeCacheFile(folder, 'entry.json', '{"cached":true}', 8)).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(readFileSync(path.join(folder, 'entry.json'), 'utf8')).toBe('{"cached":true}');
  });

  it('keeps the newest files when a folder or a file it cannot remove sits among them', () => {
    const folder = path.join(fresh(), 'stamps');
    mkdirSync(path.join(folder, 'a-folder'), { recursive: true });
    for (let i = 0; i < 12; i++) expect(writeCacheFile(folder, `entry-${i}`, `${i}`, 5)).toBe(true);
    const names = readdirSync(folder).sort();
    expect(names).toContain('a-folder');
    expect(names.filter((name) => name.startsWith('entry-'))).toHaveLength(5);
  });
});
