// Cold start alone (the part of `npm run bench` that takes seconds, not minutes): `lazytools
// serve` on a lock file, spawn -> first tools/list answer, no upstream spawned. Prints the load
// average, then p50 and range per catalog; `--runs N` (default 9, the first is a warm-up and not
// counted; it records the start answers later runs answer from), `--sizes 1000,...` adds generated
// catalogs, `--bin FILE` (repeatable) times other builds of the CLI too, interleaved run by run with
// this one, `--first` gives each run an empty user cache (a first start: no stamp, no start
// answers), `--json` prints one JSON line.
//   npm run build && node bench/cold-start.mjs --runs 15 --sizes 1000 --bin /tmp/main/dist/cli/lazytools.mjs
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN } from './lib.mjs';
import { generatedProject, interleavedColdStarts, referenceProject } from './scale.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, sizes: { type: 'string', default: '' }, bin: { type: 'string', multiple: true, default: [] }, json: { type: 'boolean', default: false }, first: { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
const bins = [BIN, ...values.bin.map((bin) => path.resolve(bin))];
const load = os.loadavg();
const catalogs = [['reference servers (27 tools)', referenceProject()], ...values.sizes.split(',').filter(Boolean).map((size) => [`${size} tools`, generatedProject(Number(size))])];
const out = { loadAverage: load.map((x) => Math.round(x * 100) / 100), bins, first: values.first, catalogs: {} };
for (const [name, dir] of catalogs) out.catalogs[name] = await interleavedColdStarts(dir, runs, bins, values.first);
if (values.json) console.log(JSON.stringify(out));
else {
  console.log(`load average at start: ${out.loadAverage.join(', ')}; after: ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`);
  for (const [name, figures] of Object.entries(out.catalogs))
    for (const [k, figure] of figures.entries()) {
      const sorted = [...figure.runs].sort((a, b) => a - b);
      console.log(`${name}, ${bins[k]}: p50 ${figure.p50.toFixed(0)} ms, range ${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)} ms over ${sorted.length} runs, upstreams spawned ${figure.upstreamsSpawned}`);
    }
}
