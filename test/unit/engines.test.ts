import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/index.js';

/**
 * `npm ci` on Node 20 warns EBADENGINE for no package. npm checks each installed
 * package's `engines.node` (recorded in the lock) against the running Node; this checks the lock:
 * what a user installs against the lowest Node `engines.node` admits, and the whole tree (the
 * test and build tools too) against the Node 20 release those tools need (vitest 4: 20.19).
 */
const DEV_NODE = '20.19.0';
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
type Locked = { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: unknown } };

function refusing(node: string, keep: (meta: Locked) => boolean): string[] {
  const packages = read('package-lock.json').packages as Record<string, Locked>;
  return Object.entries(packages)
    .filter(([, meta]) => keep(meta) && typeof meta.engines?.node === 'string' && !semver.satisfies(node, meta.engines.node))
    .map(([name, meta]) => `${name.replace(/^.*node_modules\//, '')}@${meta.version} wants node ${String(meta.engines?.node)}`);
}

describe('engines: the install tree runs on Node 20', () => {
  it('what a user installs admits the lowest Node of engines.node', () => {
    const oldest = semver.minVersion((read('package.json').engines as { node: string }).node)?.version;
    expect(oldest).toMatch(/^20\./);
    expect(refusing(oldest!, (meta) => !meta.dev)).toEqual([]);
  });

  it(`every package npm ci installs, dev tools included, admits Node ${DEV_NODE}`, () => {
    expect(refusing(DEV_NODE, () => true)).toEqual([]);
  });
});
