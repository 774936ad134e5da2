import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One private temporary folder per `vitest run`, set as TMPDIR (and the user cache and config,
 * LAZYTOOLS_CACHE_DIR and LAZYTOOLS_CONFIG_DIR, inside it) before any worker starts: workers, the CLI and the upstreams they
 * spawn inherit it, so every `mkdtemp(os.tmpdir())` of a test lands there and is removed with it at
 * the end. A fixed `/tmp/lazytools-test-cache` was shared by every run on the machine (two clones
 * testing at once read each other's start answers and lock stamps; a run as another user found the
 * folder not its own and cached nothing), and a run left hundreds of `lazytools-*` folders in /tmp.
 * A run started with LAZYTOOLS_TEST_RUN set (a nested vitest) keeps its parent's folder.
 */
export default function setup(): () => void {
  // The root config and each project that extends it name this file: the first call makes the folder.
  if (process.env.LAZYTOOLS_TEST_RUN) return () => {};
  const run = mkdtempSync(path.join(os.tmpdir(), 'lazytools-test-run-'));
  process.env.LAZYTOOLS_TEST_RUN = run;
  process.env.TMPDIR = run;
  process.env.LAZYTOOLS_CACHE_DIR = path.join(run, 'cache');
  // Sign-ins too: a test that forgets its own LAZYTOOLS_CONFIG_DIR never reads or writes the user's.
  process.env.LAZYTOOLS_CONFIG_DIR = path.join(run, 'config');
  return () => {
    try {
      rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A folder a test left unremovable stays behind; the run's verdict is the tests'.
      console.warn(`could not remove the test run's temporary folder ${run}: ${(error as Error).message}`);
    }
  };
}
