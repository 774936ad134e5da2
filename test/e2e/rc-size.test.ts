import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_RC_BYTES } from '../../src/config/load.js';
import { runCli, serveHttpGateway, tempTree } from '../harness/index.js';

/**
 * An rc file over MAX_RC_BYTES is refused before it is read: cosmiconfig read any size whole and
 * parsed it, so an rc of hundreds of MB (a log redirected into it) exhausted the memory of
 * `serve --watch`, which reads it on every change. These rcs are valid, padded with whitespace:
 * the old loader applied them.
 */
const rc = (defaultMode: string, size = 0) => {
  const text = JSON.stringify({ modes: { notes: { description: 'Notes', groups: [] }, audit: { description: 'Audit', groups: [] } }, defaultMode });
  return text + ' '.repeat(Math.max(0, size - text.length));
};
const REFUSED = 'over 4 MiB: too large to be an rc file (a hand-written rc is a few KiB)';

describe('rc files over 4 MiB', () => {
  it('a command exits 2 with the config error naming the file, no stack', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': rc('notes', MAX_RC_BYTES + 1) });
    const run = runCli(['check'], { cwd: dir, timeout: 20_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(dir, '.lazytoolsrc.json')}: ${REFUSED}`);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);

  it('serve --watch keeps the running config and says why on stderr', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': rc('notes') });
    const file = path.join(dir, '.lazytoolsrc.json');
    const errors: string[] = [];
    const served = await serveHttpGateway(file, { watch: true, logger: { info: () => {}, warn: () => {}, error: (line: string) => void errors.push(line) } });
    try {
      expect(served.gateway.config.defaultMode).toBe('notes');
      writeFileSync(file, rc('audit', MAX_RC_BYTES + 1));
      await vi.waitFor(() => expect(errors.join('\n')).toContain(`config reload failed, keeping the previous config: ${file}: ${REFUSED}`), { timeout: 10_000, interval: 20 });
      expect(served.gateway.config.defaultMode).toBe('notes');
      // A fitting edit applies again.
      writeFileSync(file, rc('audit'));
      await vi.waitFor(() => expect(served.gateway.config.defaultMode).toBe('audit'), { timeout: 10_000, interval: 20 });
    } finally {
      await served.close();
    }
  }, 30_000);
});
