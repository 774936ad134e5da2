// Cold start alone (the part of `npm run bench` that takes seconds, not minutes): `lazytools
// serve` on a lock file, spawn -> first tools/list answer, no upstream spawned. Prints the load
// average, then p50 and range per catalog; `--runs N` (default 9, the first is a warm-up and not
// counted), `--sizes 1000,...` adds generated catalogs, `--json` prints one JSON line instead.
//   npm run build && node bench/cold-start.mjs --runs 15 --sizes 1000
import os from 'node:os';
import { parseArgs } from 'node:util';
import { coldStarts, generatedProject, referenceProject } from './scale.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, sizes: { type: 'string', default: '' }, json: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const load = os.loadavg();
const out = { loadAverage: load.map((x) => Math.round(x * 100) / 100), reference: await coldStarts(referenceProject(), runs), sizes: {} };
for (const size of values.sizes.split(',').filter(Boolean).map(Number)) out.sizes[size] = await coldStarts(generatedProject(size), runs);
if (values.json) console.log(JSON.stringify(out));
else {
  console.log(`load average at start: ${out.loadAverage.join(', ')}; after: ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`);
  for (const [name, figure] of [['reference servers (27 tools)', out.reference], ...Object.entries(out.sizes).map(([size, f]) => [`${size} tools`, f])]) {
    const sorted = [...figure.runs].sort((a, b) => a - b);
    console.log(`${name}: p50 ${figure.p50.toFixed(0)} ms, range ${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)} ms over ${sorted.length} runs, upstreams spawned ${figure.upstreamsSpawned}`);
  }
}
