// Search quality with an honest protocol: every query set is split once into a dev half (tune on
// it) and a test half (report it) by a stable hash of the task text; hit@1, hit@5, MRR and
// recall@10 with seeded bootstrap 95% intervals per set and half; and a paired comparison with a
// baseline build (`--baseline DIR`: another clone whose dist/ is built, e.g. the previous main).
//
//   node bench/search-eval.mjs [--baseline /tmp/main-clone] [--half dev|test|all] [--misses]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, round } from './lib.mjs';

const RESAMPLES = 1000;
const K = 10;

/** FNV-1a over the task text: the half a task belongs to, fixed by its words alone. */
export function half(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'dev' : 'test';
}

/** The query sets: name, catalogs (test/fixtures/catalogs), tasks `{ task, steps: [{ query, expect }] }`. */
export function querySets() {
  const read = (file) => JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures', file), 'utf8'));
  const project = read('queries.json').map(({ query, expect }) => ({ task: query, steps: [{ query, expect }] }));
  const realWorld = read('search/real-world-tasks.json');
  const unicode = read('search/unicode-queries.json');
  return [
    { name: 'project', catalogs: ['github-mcp-server.json', 'reference-servers.json'], tasks: project, tuned: 'dev half (and all of it before the search rework)' },
    { name: 'real-world', catalogs: realWorld.catalogs, tasks: realWorld.tasks, tuned: 'dev half' },
    { name: 'unicode', catalogs: unicode.catalogs, tasks: unicode.tasks, tuned: 'dev half' },
  ];
}

/** A ranking function per mode over one catalog, from a build's dist/index.js. */
async function engine(dist, catalogs) {
  const lib = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const { mergeCatalogs } = await import(pathToFileURL(path.join(dist, 'catalog/file.js')).href);
  const sources = mergeCatalogs(catalogs.map((name) => lib.parseCatalog(JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs', name), 'utf8')))));
  const { catalog } = lib.buildCatalog(sources, lib.resolveConfig({}));
  const index = new lib.SearchIndex(catalog.tools, catalog.groups);
  const one = (query) => index.search(query, { limit: K }).map((hit) => hit.tool);
  // One query per step: the engine's own merge when it has one, else reciprocal rank fusion here.
  const many = (queries) =>
    typeof index.searchMany === 'function' ? index.searchMany(queries, { limit: K }).map((hit) => hit.tool) : fuse(queries.map((q) => index.search(q, { limit: 50 }).map((hit) => hit.tool)));
  return { one, many };
}

function fuse(rankings) {
  const scores = new Map();
  for (const ranking of rankings) ranking.forEach((tool, i) => scores.set(tool, (scores.get(tool) ?? 0) + 1 / (60 + i + 1)));
  return [...scores].sort((a, b) => b[1] - a[1]).slice(0, K).map(([tool]) => tool);
}

/** Per-task metrics of one ranked list against the task's steps. */
function measure(tools, steps) {
  const gold = (tool, step) => step.expect.includes(tool.id) || step.expect.includes(tool.exposedName);
  const first = tools.findIndex((tool) => steps.some((step) => gold(tool, step)));
  const found = steps.filter((step) => tools.slice(0, 10).some((tool) => gold(tool, step))).length;
  return { hit1: first === 0 ? 1 : 0, hit5: first >= 0 && first < 5 ? 1 : 0, mrr: first >= 0 ? 1 / (first + 1) : 0, recall10: found / steps.length };
}

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mean with a seeded percentile-bootstrap 95% interval. */
export function interval(values, seed = 24) {
  const n = values.length;
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const random = rng(seed);
  const means = [];
  for (let r = 0; r < RESAMPLES; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)];
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  return { mean: round(mean), low: round(means[Math.floor(0.025 * RESAMPLES)]), high: round(means[Math.floor(0.975 * RESAMPLES) - 1]) };
}

const METRICS = ['hit1', 'hit5', 'mrr', 'recall10'];

/** Every set, half and mode: metrics with intervals, and the paired difference with the baseline. */
export async function evaluate({ dist = path.join(ROOT, 'dist'), baseline, halves = ['dev', 'test'] } = {}) {
  const rows = [];
  for (const set of querySets()) {
    const ours = await engine(dist, set.catalogs);
    const base = baseline ? await engine(path.join(baseline, 'dist'), set.catalogs) : undefined;
    const modes = [['raw', (e, t) => e.one(t.task)]];
    if (set.tasks.some((t) => t.steps.length > 1)) modes.push(['steps merged', (e, t) => e.many(t.steps.map((s) => s.query))]);
    for (const [mode, run] of modes) {
      for (const which of halves) {
        const tasks = set.tasks.filter((t) => which === 'all' || half(t.task) === which);
        const per = tasks.map((t) => measure(run(ours, t), t.steps));
        const row = { set: set.name, mode, half: which, n: tasks.length, tuned: set.tuned };
        for (const m of METRICS) row[m] = interval(per.map((p) => p[m]));
        row.misses = tasks.filter((_, i) => per[i].hit5 === 0).map((t) => `${t.task.slice(0, 80)} -> ${run(ours, t).slice(0, 5).map((tool) => tool.exposedName).join(', ')}`);
        if (base) {
          const old = tasks.map((t) => measure(run(base, t), t.steps));
          row.baseline = Object.fromEntries(METRICS.map((m) => [m, interval(old.map((p) => p[m]))]));
          row.delta = Object.fromEntries(METRICS.map((m) => [m, interval(per.map((p, i) => p[m] - old[i][m]))]));
          row.hit5WinsLosses = [per.filter((p, i) => p.hit5 > old[i].hit5).length, per.filter((p, i) => p.hit5 < old[i].hit5).length];
        }
        rows.push(row);
      }
    }
  }
  return rows;
}

const fmt = (x) => `${x.mean.toFixed(3)} [${x.low.toFixed(2)}, ${x.high.toFixed(2)}]`;

/** Markdown table of `evaluate` rows. */
export function table(rows) {
  const lines = ['| set | queries | half (n) | hit@1 | hit@5 | MRR | recall@10 | hit@5 before | Δ hit@1 (paired) | Δ hit@5 | Δ MRR | Δ recall@10 | hit@5 won/lost |', '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of rows) {
    const b = r.baseline ? [r.baseline.hit5.mean.toFixed(3), fmt(r.delta.hit1), fmt(r.delta.hit5), fmt(r.delta.mrr), fmt(r.delta.recall10), r.hit5WinsLosses.join(' / ')] : ['-', '-', '-', '-', '-', '-'];
    lines.push(`| ${r.set} | ${r.mode} | ${r.half} (${r.n}) | ${fmt(r.hit1)} | ${fmt(r.hit5)} | ${fmt(r.mrr)} | ${fmt(r.recall10)} | ${b.join(' | ')} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--baseline');
  const which = args.includes('--half') ? args[args.indexOf('--half') + 1] : undefined;
  const rows = await evaluate({ baseline: at >= 0 ? args[at + 1] : undefined, halves: which ? [which] : ['dev', 'test'] });
  console.log(table(rows));
  if (args.includes('--misses')) for (const r of rows) if (r.misses.length > 0) console.log(`\n${r.set} ${r.mode} ${r.half} misses at 5:\n${r.misses.join('\n')}`);
}
