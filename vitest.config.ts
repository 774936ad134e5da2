import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` runs in memory (SDK client + in-memory transport, no child process, no
 * HTTP listener): 136 files in about 265 s at load 6 on 2 cores; `e2e` starts real upstream
 * servers, the built CLI and HTTP listeners on 127.0.0.1 (it needs `npm run build` first). Unit
 * files share worker threads and their module cache (no per-file isolation): they keep no global
 * state, and when it was measured (fewer files) that cut the run from about 30 s to under 10 s on
 * a busy 2-core machine. test/harness/global-setup.ts gives each run its own TMPDIR and user cache
 * (verified-lock stamps, start answers), never the user's, and removes them at the end.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/harness/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads', isolate: false } },
      // A test file left directly in test/ (say, from a merge) still runs, with the e2e tests.
      // Upper bounds only (a passing test never waits for them), wide enough for a loaded machine.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
