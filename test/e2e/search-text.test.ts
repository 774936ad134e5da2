import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/index.js';

/**
 * search/text's synonym table in a fresh process (module state: the unit project shares one): the
 * Chinese and Japanese synonyms join only once some text needed the dictionary segmenter. An
 * English-only gateway never loads those dictionaries (about 12 MB of RSS once it searches).
 */
describe('synonyms of unspaced scripts', () => {
  it('are left out until Chinese or Japanese text is seen, then expand a query', () => {
    const text = pathToFileURL(path.join(ROOT, 'dist/search/text.js')).href;
    const script = `
      const m = await import(${JSON.stringify(text)});
      const expanded = () => m.expandQuery('weather').map((e) => e.term);
      const before = expanded();
      m.terms('明天的天气预报');
      console.log(JSON.stringify({ before, after: expanded() }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const { before, after } = JSON.parse(run.stdout) as { before: string[]; after: string[] };
    expect(before).toEqual(['weather']);
    expect(after).toEqual(expect.arrayContaining(['weather', '天气', '天気']));
  });
});
