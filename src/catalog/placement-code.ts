import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * A digest of the code that places tools, so verified-lock stamps (lock-stamp.ts) and cached
 * placements (placement-cache.ts) miss as soon as that code changes, whether or not someone
 * bumped PLACEMENT_REVISION or the package version. Kept apart from the placement modules: it
 * reads files, they compute.
 */

/** Replaced by the bundler (scripts/bundle.mjs) with the digest of the sources it bundles. */
declare const __LAZYTOOLS_PLACEMENT_CODE__: string | undefined;

/** The modules whose code decides where a tool is placed (under src/ or dist/, no extension). */
export const PLACEMENT_MODULES: readonly string[] = [
  'catalog/placement',
  'catalog/read-only',
  'catalog/groups',
  'catalog/text',
  'catalog/placement-cache',
  'catalog/profiles',
  'config/topics',
  'config/vocabulary',
  'semantic/words',
  'util/glob',
];

/** A sha256 of the files' contents, in order (their names do not count). */
export function codeDigest(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(readFileSync(file)).update('\u0000');
  return hash.digest('hex');
}

let code: string | undefined;

/**
 * The placement code's digest: fixed at build time in the bundled CLI; otherwise (tests on the
 * sources, the unbundled library) read from the placement modules next to this file. Unreadable
 * modules give a value no stamp was written under: every start verifies in full.
 */
export function placementCode(): string {
  if (code !== undefined) return code;
  if (typeof __LAZYTOOLS_PLACEMENT_CODE__ === 'string') return (code = __LAZYTOOLS_PLACEMENT_CODE__);
  const self = fileURLToPath(import.meta.url);
  const root = path.dirname(path.dirname(self));
  try {
    code = codeDigest(PLACEMENT_MODULES.map((name) => path.join(root, `${name}${path.extname(self)}`)));
  } catch {
    code = `unreadable-${randomUUID()}`;
  }
  return code;
}
