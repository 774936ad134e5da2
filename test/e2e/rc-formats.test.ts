import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { BIN, REFERENCE_CATALOG, tempTree } from '../harness/index.js';

/**
 * The built CLI bundles cosmiconfig and its parsers (scripts/bundle.mjs): every rc format, and
 * every broken rc file, must load through the bundle exactly as loadConfig does from source, with
 * the same values or the same error.
 */
const rc = { defaultMode: 'debugging', budget: 1234 };
const json = JSON.stringify(rc);
const cases: Array<{ name: string; files: Record<string, string> }> = [
  { name: 'JSON', files: { 'package.json': '{}', '.lazytoolsrc.json': json } },
  { name: 'JSON or YAML without extension', files: { 'package.json': '{}', '.lazytoolsrc': 'defaultMode: debugging\nbudget: 1234\n' } },
  { name: 'YAML', files: { 'package.json': '{}', '.lazytoolsrc.yaml': 'defaultMode: debugging\nbudget: 1234\n' } },
  { name: 'package.json#lazytools', files: { 'package.json': JSON.stringify({ name: 'x', lazytools: rc }) } },
  { name: 'ESM .mjs', files: { 'package.json': '{}', '.lazytoolsrc.mjs': `export default ${json};\n` } },
  { name: 'CommonJS .js', files: { 'package.json': '{}', '.lazytoolsrc.js': `module.exports = ${json};\n` } },
  { name: 'ESM .js in a module package', files: { 'package.json': '{"type":"module"}', 'lazytools.config.js': `export default ${json};\n` } },
  { name: 'TypeScript', files: { 'package.json': '{}', 'lazytools.config.ts': `const rc: { budget: number; defaultMode: string } = ${json};\nexport default rc;\n` } },
  { name: 'broken JSON', files: { 'package.json': '{}', '.lazytoolsrc.json': '{"budget": 12,,}' } },
  { name: 'broken YAML', files: { 'package.json': '{}', '.lazytoolsrc.yaml': 'defaultMode: [debugging\n' } },
  { name: 'broken CommonJS', files: { 'package.json': '{}', '.lazytoolsrc.js': 'module.exports = { budget: 12\n' } },
  { name: 'CommonJS in a module package', files: { 'package.json': '{"type":"module"}', '.lazytoolsrc.js': `module.exports = ${json};\n` } },
  { name: 'invalid value', files: { 'package.json': '{}', '.lazytoolsrc.json': '{"budget": "lots"}' } },
];

// The CLI without colors (NO_COLOR), and without FORCE_COLOR, which Node warns overrides it.
const { FORCE_COLOR: _forced, ...inherited } = process.env;
const plainEnv = { ...inherited, NO_COLOR: '1' };

describe('rc files through the built CLI', () => {
  for (const { name, files } of cases) {
    it(`loads ${name} as loadConfig does`, async () => {
      const dir = tempTree(files);
      const expected = await loadConfig({ cwd: dir }).then(
        (loaded) => ({ ok: true as const, budget: loaded.config.budget }),
        (error: Error) => ({ ok: false as const, message: error.message }),
      );
      const result = spawnSync(process.execPath, [BIN, 'status', '--json', '--catalog', REFERENCE_CATALOG], { cwd: dir, encoding: 'utf8', env: plainEnv });
      if (expected.ok) {
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        const status = JSON.parse(result.stdout) as { modes: Array<{ name: string; budget: number | null }> };
        expect(status.modes.find((mode) => mode.name === 'all')?.budget).toBe(expected.budget);
        expect(expected.budget).toBe(1234);
      } else {
        expect(result.status).toBe(2);
        expect(result.stderr).toBe(`lazytools status: ${expected.message}\n`);
      }
    });
  }
});
