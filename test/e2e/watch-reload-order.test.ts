import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { serveHttpGateway, tempTree } from '../harness/index.js';

/**
 * serve --watch applies the rc as it is last written. A JS rc may take a while to load (it may
 * await its secrets); before, an edit whose load outlasted a later edit's was applied after it, so
 * the gateway ran the older file: here a bearer token the later edit removed came back.
 */
const token = { notes: { sha256: 'a'.repeat(64), modes: ['notes'] } };
const rc = (tokens: object, prelude = '') =>
  `${prelude}export default ${JSON.stringify({ modes: { notes: { groups: [] } }, defaultMode: 'notes', auth: { tokens } })};\n`;

describe('serve --watch and edits whose loads overlap', () => {
  it('the last edit wins, however long an earlier one took to load', async () => {
    const dir = tempTree({ 'package.json': '{}', 'lazytools.config.mjs': rc(token) });
    const file = path.join(dir, 'lazytools.config.mjs');
    const marker = path.join(dir, 'slow-load-started');
    const logged: string[] = [];
    const log = (message: string) => void logged.push(message);
    const served = await serveHttpGateway(file, { watch: true, logger: { info: log, warn: log, error: log } });
    try {
      expect(served.gateway.config.tokens).toHaveLength(1);
      // Edit 1 keeps the token and loads slowly; edit 2, written while edit 1 loads, removes it.
      const slow = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, '');\nawait new Promise((resolve) => setTimeout(resolve, 1500));\n`;
      writeFileSync(file, rc(token, slow));
      await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 10_000, interval: 20 });
      writeFileSync(file, rc({}));
      await vi.waitFor(() => expect(served.gateway.config.tokens).toHaveLength(0), { timeout: 10_000, interval: 20 });
      // Edit 1's load ends after edit 2 was applied: it must not bring the token back.
      await vi.waitFor(() => expect(logged.filter((line) => /reload/.test(line))).toHaveLength(2), { timeout: 10_000, interval: 20 });
      expect(served.gateway.config.tokens).toHaveLength(0);
    } finally {
      await served.close();
    }
  }, 30_000);
});
