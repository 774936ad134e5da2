import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { REFERENCE_CATALOG, runCli, tempTree } from '../harness/index.js';

// A lock is a generated file few review; `check` is the budget's gate in CI. Counts in the lock's
// `tokens` section (each plausible: from 1 up to its text's byte length) let a gateway start without
// the tokenizer, but check counts every definition itself.
describe('lazytools check and the lock\'s recorded token counts', () => {
  const rc = {
    servers: { filesystem: { command: 'node' }, memory: { command: 'node' }, everything: { command: 'node' }, 'sequential-thinking': { command: 'node' } },
    modes: { work: { groups: ['all'], budget: 2_000, fit: false } },
  };
  const lock = JSON.parse(JSON.stringify(makeLock(parseCatalog(JSON.parse(readFileSync(REFERENCE_CATALOG, 'utf8'))), resolveConfig(rc as RcConfig)))) as { tokens: Record<string, Record<string, number>> };
  const project = (written: unknown) => tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc), 'lazytools.lock.json': JSON.stringify(written) });

  it('a lock whose counts are forged (every one 1) does not pass a mode its definitions put over budget, and check says the counts differ', () => {
    const honest = runCli(['check'], { cwd: project(lock) });
    expect(honest.code).toBe(1);
    expect(honest.stdout).toMatch(/^OVER {2}work: \d+ tokens, budget 2000/m);
    expect(honest.stderr).not.toContain('differ');
    const forged = structuredClone(lock);
    for (const key of Object.keys(forged.tokens.o200k_base ?? {})) (forged.tokens.o200k_base as Record<string, number>)[key] = 1;
    const run = runCli(['check'], { cwd: project(forged) });
    expect(run.code).toBe(1);
    // The same figures as the honest lock's.
    expect(run.stdout).toBe(honest.stdout);
    expect(run.stderr).toMatch(/warning: \d+ token count\(s\) in the lock differ from what their definitions count .*lazytools lock/);
    // status, which starts as a gateway does, still reads them (a forged count changes which tools fit, never what a mode allows).
    expect(runCli(['status'], { cwd: project(forged) }).code).toBe(0);
  });

  it('absurd counts (negative, NaN as a string, huge, fractional, past the text) are skipped, the same figures', () => {
    const absurd = structuredClone(lock);
    const values: unknown[] = [-5, 'NaN', 1e300, 2.5, Number.MAX_SAFE_INTEGER, 0, null, { n: 1 }];
    Object.keys(absurd.tokens.o200k_base ?? {}).forEach((key, i) => ((absurd.tokens.o200k_base as Record<string, unknown>)[key] = values[i % values.length]));
    const honest = runCli(['check'], { cwd: project(lock) });
    const run = runCli(['check'], { cwd: project(absurd) });
    expect([run.code, run.stdout]).toEqual([honest.code, honest.stdout]);
    // MAX_SAFE_INTEGER is taken as a count (an integer) but never used (past its text's bytes): check names it.
    expect(run.stderr).toMatch(/warning: \d+ token count\(s\) in the lock differ/);
    const status = runCli(['status', '--json'], { cwd: project(absurd) });
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(runCli(['status', '--json'], { cwd: project(lock) }).stdout);
  });
});
