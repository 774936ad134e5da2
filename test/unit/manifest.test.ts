import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/index.js';

/**
 * package.json as npm reads it. The tarball is built before it is packed, so installing it (from
 * the registry, a file or a git checkout) runs no script of ours: npm 11 warns about any
 * `preinstall`, `install`, `postinstall` or (for a file or git install) `prepare` script that
 * `allowScripts` does not cover. `prepack` builds what is packed; `dependencies`, which npm runs
 * only in the project itself after `npm ci` or an install changed node_modules (never for a
 * package installed as a dependency, never globally), builds a clone.
 */
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; files: string[] };

describe('package.json', () => {
  it('gives npm no script to run when the package is installed', () => {
    expect(Object.keys(manifest.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
  });

  it('builds before packing and after npm ci in a clone', () => {
    expect(manifest.scripts.prepack).toBe('npm run build');
    expect(manifest.scripts.dependencies).toBe('npm run build');
  });
});
