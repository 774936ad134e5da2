import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { userCacheFolder, writeCacheFile } from '../util/user-cache.js';

/**
 * Stamps of verified locks. Verifying a lock's cached placements (placement-cache.ts: topics
 * rescored, input digests, each cached group placement confirmed) costs about 55 ms per 1,000
 * tools, more than half a second at 10,000, on every start. The outcome depends only on the lock's
 * bytes, this lazytools' placement version and the rc's groups, so after a start verified every
 * entry of a lock, a stamp named by a sha256 of (placement version, the lock bytes' sha256) records it, with
 * the groups digests its group placements were confirmed under; a later start of the same bytes
 * seeds the caches without recomputing (hashing the bytes is far cheaper: see contentDigest). The
 * write status, what read-only modes rest on, is still recomputed on every start.
 *
 * The stamp lives in the user's cache folder, never in the project: whoever can edit a lock
 * (a pull request) cannot write a stamp for it, and any edit changes the bytes, so an edited lock
 * finds no stamp and is verified in full. A lock with an entry that did not verify gets no stamp.
 * `LAZYTOOLS_CACHE_DIR` moves the folder (empty: no stamps); otherwise
 * `$XDG_CACHE_HOME/lazytools`, else `~/.cache/lazytools`. A stamp that cannot be read or written
 * only costs the recompute: it changes how fast, never what.
 */

/** Where stamps go, or undefined when disabled (`LAZYTOOLS_CACHE_DIR=""`) or no home is known. */
export function stampFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userCacheFolder('verified-locks', env);
}

const digests = new WeakMap<Uint8Array, string>();

/**
 * The sha256 of a lock's bytes, computed once per buffer (about 10 ms at 18.6 MB, Node 20): the
 * stamp and the start answers (transports/start-answers.ts) are both keyed by it, and a start
 * reads the lock once.
 */
export function contentDigest(bytes: Uint8Array): string {
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = createHash('sha256').update(bytes).digest('hex');
    digests.set(bytes, digest);
  }
  return digest;
}

/** A lock's stamp: its key, and the groups digests confirmed for it when a stamp was found. */
export interface LockStamp {
  key: string;
  /** Undefined: no stamp (verify in full). A set: the entries verified, and these group digests confirmed. */
  groups: Set<string> | undefined;
}

/** The stamp of `bytes` (a lock file's content) under `version` (the placement version), read from `folder`. */
export function readStamp(folder: string, version: string, bytes: Uint8Array): LockStamp {
  const key = createHash('sha256').update(version).update('\u0000').update(contentDigest(bytes)).digest('hex');
  try {
    const json = JSON.parse(readFileSync(path.join(folder, key), 'utf8')) as unknown;
    if (typeof json === 'object' && json !== null && Array.isArray((json as { groups?: unknown }).groups)) {
      const groups = (json as { groups: unknown[] }).groups.filter((g): g is string => typeof g === 'string');
      return { key, groups: new Set(groups) };
    }
  } catch {
    // No stamp (or an unreadable one): verify in full.
  }
  return { key, groups: undefined };
}

/** At most this many groups digests per stamp (an rc edited often keeps the latest). */
const MAX_GROUPS = 16;
/** At most this many stamps: writing one more removes the oldest (every re-lock leaves one). */
const MAX_STAMPS = 200;

/** Records that the lock of `key` verified, with `groups` confirmed. Best effort: a failure is ignored. */
export function writeStamp(folder: string, key: string, groups: Iterable<string>): void {
  // A read-only home or a full disk only costs the next start the full verification.
  writeCacheFile(folder, key, JSON.stringify({ groups: [...groups].slice(-MAX_GROUPS) }), MAX_STAMPS);
}
