import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The lazytools package folder (where `package.json`, `modes/` live), found by walking up from
 * this module: the same answer from `src/`, `dist/` and the bundled CLI.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'lazytools') return (root = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('lazytools: cannot find its package.json');
    dir = parent;
  }
}

/**
 * The project's folder: the rc file's, else `cwd`. The lock, the usage record and relative
 * upstream paths live there, so a project works the same from any subfolder.
 */
export function projectFolder(rcFile: string | undefined, cwd: string): string {
  return rcFile ? path.dirname(rcFile) : cwd;
}
