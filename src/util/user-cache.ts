import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * lazytools' user cache: files that make a start faster and never change what it does (verified-
 * lock stamps, catalog/lock-stamp.ts; start answers, front/start-answers.ts). Never in the
 * project, whose files anyone who can open a pull request may write.
 */

/**
 * The folder `name` in lazytools' user cache (`LAZYTOOLS_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/lazytools`, else `~/.cache/lazytools`), or undefined when caching is off
 * (`LAZYTOOLS_CACHE_DIR=""`) or no home is known. Never in the project: see above.
 */
export function userCacheFolder(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const own = env.LAZYTOOLS_CACHE_DIR;
  if (own !== undefined) return own === '' ? undefined : path.join(path.resolve(own), name);
  const xdg = env.XDG_CACHE_HOME;
  const home = safeHome();
  const base = xdg && path.isAbsolute(xdg) ? xdg : home && path.join(home, '.cache');
  return base ? path.join(base, 'lazytools', name) : undefined;
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
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, file);
    prune(folder, max);
    return true;
  } catch {
    return false;
  }
}

/** Removes the oldest files of `folder` past `max`. */
function prune(folder: string, max: number): void {
  const names = readdirSync(folder);
  if (names.length <= max) return;
  const aged = names.map((name) => ({ file: path.join(folder, name), at: statSync(path.join(folder, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
  aged.sort((a, b) => a.at - b.at);
  for (const { file } of aged.slice(0, names.length - max)) unlinkSync(file);
}
