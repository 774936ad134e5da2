import { existsSync } from 'node:fs';
import path from 'node:path';
import { readBytes } from '../util/json.js';
import { projectFolder } from '../util/root.js';

/**
 * Where a project's lock is, and its bytes: apart from lock.ts (which builds catalogs), so a
 * gateway answering its opening from start answers (transports/start-answers.ts) loads neither the
 * catalog builder nor its dependencies before the answers are out.
 */

/** The lock file's name, written beside the rc file. */
export const LOCK_FILE = 'lazytools.lock.json';

/** Where the lock of a project lives: beside its rc file, else in `cwd`. */
export function lockPath(rcFile: string | undefined, cwd: string): string {
  return path.join(projectFolder(rcFile, cwd), LOCK_FILE);
}

/**
 * The lock file of a project and its bytes, unparsed, when it exists: what the start answers
 * are keyed by, before the lock is parsed (readLock).
 */
export async function lockBytesIfPresent(rcFile: string | undefined, cwd: string): Promise<{ file: string; bytes: Buffer } | undefined> {
  const file = lockPath(rcFile, cwd);
  return existsSync(file) ? { file, bytes: await readBytes(file) } : undefined;
}
