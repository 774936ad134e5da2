// Benchmark: `lazytools status --json` on a generated 10,000-tool catalog (wall time and peak RSS).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCatalog } from './generate.mjs';
import { BIN } from './lib.mjs';

const count = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-bench-'));
const file = path.join(dir, 'catalog.json');
writeFileSync(file, JSON.stringify(generateCatalog(count)));
writeFileSync(path.join(dir, 'package.json'), '{}');
const bin = BIN;
const runs = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  const out = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'status', '--json', '--catalog', file], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(out.stderr);
  runs.push({ ms: performance.now() - start, rssKb: Number(out.stderr.trim().split('\n').at(-1)) });
}
runs.sort((a, b) => a.ms - b.ms);
const median = runs[Math.floor(runs.length / 2)];
console.log(JSON.stringify({ tools: count, statusMsP50: Math.round(median.ms), peakRssMb: Math.round(Math.max(...runs.map((r) => r.rssKb)) / 1024) }));
