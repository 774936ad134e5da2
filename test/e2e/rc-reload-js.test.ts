import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, tempTree } from '../harness/index.js';

/**
 * A JS rc is read afresh when it is loaded again (serve --watch reloads it). Before, Node's
 * module cache handed back the first version of the file: an edit that removed a bearer token
 * was never applied while the gateway logged "reloaded". Run in plain Node on the built module
 * (the test runner's own module loader would stand in for Node's cache).
 */
const esm = (mode: string) => `export default { modes: { ${mode}: { groups: [] } }, defaultMode: '${mode}' };\n`;
const cjs = (mode: string) => `module.exports = { modes: { ${mode}: { groups: [] } }, defaultMode: '${mode}' };\n`;
const LOAD = pathToFileURL(path.join(ROOT, 'dist', 'config', 'load.js')).href;

describe('loadConfig reads a JS rc afresh each time', () => {
  for (const [name, type, body] of [
    ['lazytools.config.mjs', 'commonjs', esm],
    ['lazytools.config.js', 'module', esm],
    ['lazytools.config.js', 'commonjs', cjs],
    ['lazytools.config.cjs', 'module', cjs],
  ] as const) {
    it(`${name} in a ${type} package`, () => {
      const dir = tempTree({ 'package.json': JSON.stringify({ type }), [name]: body('first') });
      const script = `
        import { writeFileSync } from 'node:fs';
        import { loadConfig } from ${JSON.stringify(LOAD)};
        const file = ${JSON.stringify(path.join(dir, name))};
        const seen = [(await loadConfig({ file })).config.defaultMode];
        writeFileSync(file, ${JSON.stringify(body('second'))});
        seen.push((await loadConfig({ file })).config.defaultMode);
        writeFileSync(file, ${JSON.stringify(body('third'))});
        seen.push((await loadConfig({ file })).config.defaultMode);
        console.log(JSON.stringify(seen));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual(['first', 'second', 'third']);
    });
  }
});
