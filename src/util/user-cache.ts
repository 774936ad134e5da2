import { type Stats, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stderrLogger } from './log.js';
import { writePrivateFile } from './private-file.js';

/*
 * lazytools' user cache: files that make a start faster and never change what it does (verified-
 * lock stamps, catalog/lock-stamp.ts; start answers, transports/start-answers.ts; tool embeddings,
 * search/tool-vectors.ts), and the user config folder (sign-ins, upstream/auth/store.ts). Never in
 * the project, whose files anyone who can open a pull request may write.
 */

/**
 * The folder `name` in lazytools' user cache (`LAZYTOOLS_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/lazytools`, else `~/.cache/lazytools`), or undefined when caching is off
 * (`LAZYTOOLS_CACHE_DIR=""`), no home is known, or the folder is not the user's own: what it
 * holds vouches for a lock and answers a start, so a folder another user owns or may write
 * (`chmod 777`, made by someone else before us) is not used, with a warning (`warn`, once per folder).
 */
export function userCacheFolder(name: string, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = stderrLogger.warn): string | undefined {
  const own = env.LAZYTOOLS_CACHE_DIR;
  const xdg = env.XDG_CACHE_HOME;
  const home = safeHome();
  const base = own !== undefined ? (own === '' ? undefined : path.resolve(own)) : xdg && path.isAbsolute(xdg) ? path.join(xdg, 'lazytools') : home && path.join(home, '.cache', 'lazytools');
  if (base === undefined) return undefined;
  const folder = path.join(base, name);
  for (const checked of [base, folder]) {
    const why = untrusted(checked);
    if (why === undefined) continue;
    if (!warned.has(checked)) warn(`the user cache folder ${checked} ${why}: not used (lazytools caches nothing there; make it yours, mode 700, or set LAZYTOOLS_CACHE_DIR)`);
    warned.add(checked);
    return undefined;
  }
  return folder;
}

const warned = new Set<string>();

/**
 * Why a cache folder is not the user's own, else undefined (also when it does not exist yet: it
 * is made private when first written). Only on systems with user ids (not Windows).
 */
function untrusted(folder: string): string | undefined {
  if (process.getuid === undefined) return undefined;
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  return stat.isDirectory() ? notOwnPrivate(stat) : 'is not a folder';
}

/**
 * Why a file or folder is not the user's own private one (another user owns it, or others may
 * write it), else undefined; always undefined on systems without user ids (Windows). The user
 * cache and the sign-in store (upstream/auth/store.ts) both ask it.
 */
export function notOwnPrivate(stat: Pick<Stats, 'uid' | 'mode'>): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return `belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `may be written by others (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * The folder `name` in lazytools' user config (`LAZYTOOLS_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/lazytools`, else `%APPDATA%\lazytools` on Windows, else
 * `~/.config/lazytools`), or undefined when no home is known. What lives there belongs to the
 * user, not to a project (sign-ins to remote servers): never in the project, see above.
 */
export function userConfigFolder(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const own = env.LAZYTOOLS_CONFIG_DIR;
  if (own !== undefined && own !== '') return path.join(path.resolve(own), name);
  const xdg = env.XDG_CONFIG_HOME;
  const appData = process.platform === 'win32' ? env.APPDATA : undefined;
  const home = safeHome();
  const base = xdg && path.isAbsolute(xdg) ? xdg : appData && path.isAbsolute(appData) ? appData : home && path.join(home, '.config');
  return base ? path.join(base, 'lazytools', name) : undefined;
}

function safeHome(): string | undefined {
  try {
    return os.homedir() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes `text` as the file `name` of a user cache folder (made private to the user), whole or
 * not at all (a temporary file renamed), then keeps the newest `max` files. Best effort: returns
 * false when it could not, which only costs a later start the work the file would have saved.
 */
export function writeCacheFile(folder: string, name: string, text: string, max: number): boolean {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, name);
    writePrivateFile(file, text);
    prune(folder, max);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the oldest files of `folder` past `max`. Only regular files count and go: anything else
 * there (a folder, a link) is left alone, and a file that cannot go does not stop the others (one
 * that threw here once made every later write fail after writing, so the folder grew without bound).
 */
function prune(folder: string, max: number): void {
  const files = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile());
  if (files.length <= max) return;
  const aged = files.map((entry) => ({ file: path.join(folder, entry.name), at: statSync(path.join(folder, entry.name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
  aged.sort((a, b) => a.at - b.at);
  for (const { file } of aged.slice(0, files.length - max)) {
    try {
      unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove: the next write tries again.
    }
  }
}
