// Typos: search alone on the stacks' tasks as written and with one slip in each task's longest
// word (a letter swapped with its neighbour, dropped, doubled, or hit beside its key, in turn), so how much a typo
// costs search shows beside what it costs without correction (src/search/spelling.ts).
//
//   node bench/typos.mjs
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { buildCatalog, parseCatalog, resolveConfig } from '../dist/index.js';
import { mergeCatalogs } from '../dist/catalog/file.js';
import { SearchIndex } from '../dist/search/engine.js';
import { taskSets } from './stacks.mjs';
import { ROOT } from './lib.mjs';

/** Each letter's neighbours on a QWERTY keyboard, for a slip of the finger. */
const KEYS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
function neighbour(letter) {
  const row = KEYS.find((keys) => keys.includes(letter)) ?? KEYS[0];
  const at = row.indexOf(letter);
  return row[at + 1] ?? row[at - 1];
}

/** `word` with one slip at a place set by `k`: neighbours swapped, a letter dropped, doubled, or hit beside its key. */
function slip(word, k) {
  const i = 1 + (k % Math.max(1, word.length - 3));
  if (k % 4 === 0) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  if (k % 4 === 1) return word.slice(0, i) + word.slice(i + 1);
  if (k % 4 === 2) return word.slice(0, i) + word[i] + word.slice(i);
  return word.slice(0, i) + neighbour(word[i]) + word.slice(i + 1);
}

/** Per split (blind, tuning): tasks, gold in search's top 5 as written, with one slip, and with one slip read uncorrected. */
export function typos() {
  const config = resolveConfig({});
  const out = {};
  let k = 0;
  for (const set of taskSets()) {
    const raw = mergeCatalogs(set.catalogs.map((file) => parseCatalog(JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs', file), 'utf8')))));
    const { catalog } = buildCatalog(raw, config);
    const index = new SearchIndex(catalog.tools, catalog.groups);
    for (const task of set.tasks) {
      const words = task.task.match(/[a-z]{6,}/g) ?? [];
      if (words.length === 0) continue;
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      const slipped = task.task.replace(longest, slip(longest, k++));
      const found = (query, typed) => index.search(query, { limit: 5, typed }).some((hit) => task.gold.includes(hit.tool.id));
      const row = (out[task.split === 'blind' ? 'blind' : 'tuning'] ??= { tasks: 0, asWritten: 0, oneSlip: 0, oneSlipUncorrected: 0 });
      row.tasks++;
      if (found(task.task)) row.asWritten++;
      if (found(slipped)) row.oneSlip++;
      if (found(slipped, false)) row.oneSlipUncorrected++;
    }
  }
  return out;
}

/** One Markdown table row per split. */
export function typosTable(result) {
  const lines = ['| split | tasks | as written | one slip | one slip, uncorrected |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const [split, r] of Object.entries(result)) lines.push(`| ${split} | ${r.tasks} | ${r.asWritten} | ${r.oneSlip} | ${r.oneSlipUncorrected} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(typosTable(typos()));
