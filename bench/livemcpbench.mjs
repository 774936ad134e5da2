// Search quality on the public LiveMCPBench (icip-cas/LiveMCPBench): its 95 annotated tasks, searched
// by their raw question text over its LiveMCPTool catalog (70 servers, 527 tools), scored by the
// tools the annotators listed. Reports hit@5 (a listed tool in the top 5) and recall@10 (the share
// of a task's listed tools in the top 10), per dev/test half (split by a stable hash of the
// question, bench/search-eval.mjs), with bootstrap 95% intervals. Tune on the dev half only.
//
// The benchmark's data is never copied into this repository: the script reads a snapshot of its
// git repository (a bare git directory or a work tree) and converts it in memory.
//
//   node bench/livemcpbench.mjs [SNAPSHOT] [--half dev|test|all] [--misses] [--json] [--baseline DIR]
//   LIVEMCPBENCH=/path/to/LiveMCPBench node bench/livemcpbench.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, round } from './lib.mjs';
import { half, interval } from './search-eval.mjs';

const ANNOTATIONS = 'baseline/annotation';
const TOOLS = 'tools/LiveMCPTool/tools.json';
const K = 10;

/** A file of the snapshot: from its work tree when there is one, else from git's HEAD. */
function reader(snapshot) {
  if (existsSync(path.join(snapshot, TOOLS))) {
    return { read: (file) => readFileSync(path.join(snapshot, file), 'utf8'), list: (dir) => execFileSync('ls', [path.join(snapshot, dir)], { encoding: 'utf8' }).split('\n').filter(Boolean) };
  }
  const git = (...args) => execFileSync('git', ['--git-dir', snapshot, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { read: (file) => git('show', `HEAD:${file}`), list: (dir) => git('ls-tree', '--name-only', `HEAD:${dir}`).split('\n').filter(Boolean) };
}

/** The snapshot's git directory or work tree, from the argument, `LIVEMCPBENCH`, or undefined. */
export function snapshotPath(arg = process.env.LIVEMCPBENCH) {
  if (!arg) return undefined;
  for (const candidate of [arg, path.join(arg, 'repo'), path.join(arg, '.git')]) {
    if (existsSync(path.join(candidate, TOOLS)) || existsSync(path.join(candidate, 'HEAD'))) return candidate;
  }
  return undefined;
}

/**
 * The benchmark as a lazytools catalog file and task list: every server of tools.json with its
 * tools verbatim, and every annotated task with the tool names its annotator listed (a name any
 * server has counts for every server that has it; names no server has are dropped, and a task
 * left with none is skipped).
 */
export function loadBenchmark(snapshot) {
  const { read, list } = reader(snapshot);
  const servers = {};
  for (const entry of JSON.parse(read(TOOLS))) {
    for (const [name, server] of Object.entries(entry.tools ?? {})) {
      if (!Array.isArray(server?.tools)) continue;
      // A catalog's server names are names an rc could hold ("Ant Design Components" is not).
      const slug = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'server';
      const key = servers[slug] ? `${slug}-${Object.keys(servers).length}` : slug;
      servers[key] = { tools: server.tools.map(wireTool) };
    }
  }
  const ids = new Map();
  for (const [server, { tools }] of Object.entries(servers)) for (const tool of tools) ids.set(tool.name, [...(ids.get(tool.name) ?? []), `${server}:${tool.name}`]);
  const seen = new Set();
  const tasks = [];
  for (const file of list(ANNOTATIONS).filter((name) => name.endsWith('.json'))) {
    for (const task of JSON.parse(read(`${ANNOTATIONS}/${file}`))) {
      const question = task.Question;
      if (typeof question !== 'string' || seen.has(question)) continue;
      seen.add(question);
      const names = String(task['Annotator Metadata']?.Tools ?? '')
        .split('\n')
        .map((line) => line.replace(/^\s*\d+[.)]\s*/, '').trim())
        .filter((name) => name.length > 0);
      const gold = [...new Set(names)].map((name) => ids.get(name)).filter((list) => list !== undefined);
      if (gold.length > 0) tasks.push({ task: question, gold });
    }
  }
  return { catalog: { servers }, tasks };
}

/**
 * A tool as a server sends it: the benchmark's dump writes every unset optional field as null
 * (a description, an annotation's title or hint), where the wire leaves it out (the Python SDK
 * serializes without None values); lazytools would drop a tool whose description is null.
 */
function wireTool(tool) {
  const out = {};
  for (const [key, value] of Object.entries(tool)) {
    if (value === null) continue;
    out[key] = key === 'annotations' && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value;
  }
  return out;
}

/** hit@5 and recall@10 of one ranking (tool ids, best first) against a task's gold tools. */
function measure(ranked, gold) {
  const first = ranked.findIndex((id) => gold.some((ids) => ids.includes(id)));
  const found = gold.filter((ids) => ranked.slice(0, K).some((id) => ids.includes(id))).length;
  return { hit1: first === 0 ? 1 : 0, hit5: first >= 0 && first < 5 ? 1 : 0, recall10: found / gold.length };
}

/** A ranking function over the benchmark's catalog, from a build's dist/. */
async function engine(dist, catalogFile) {
  const lib = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const { catalog } = lib.buildCatalog(lib.parseCatalog(catalogFile), lib.resolveConfig({}));
  const index = new lib.SearchIndex(catalog.tools, catalog.groups);
  return (query) => index.search(query, { limit: K }).map((hit) => hit.tool.id);
}

/** Rows per half: n, hit@1, hit@5, recall@10 with intervals, optional paired baseline, misses. */
export async function livemcpbench({ snapshot, dist = path.join(ROOT, 'dist'), baseline, halves = ['dev', 'test'] }) {
  const bench = loadBenchmark(snapshot);
  const ours = await engine(dist, bench.catalog);
  const base = baseline ? await engine(path.join(baseline, 'dist'), bench.catalog) : undefined;
  const rows = [];
  for (const which of halves) {
    const tasks = bench.tasks.filter((t) => which === 'all' || half(t.task) === which);
    const ranked = tasks.map((t) => ours(t.task));
    const per = tasks.map((t, i) => measure(ranked[i], t.gold));
    const row = { half: which, n: tasks.length };
    for (const m of ['hit1', 'hit5', 'recall10']) row[m] = interval(per.map((p) => p[m]));
    if (base) {
      const old = tasks.map((t) => measure(base(t.task), t.gold));
      row.baselineHit5 = interval(old.map((p) => p.hit5));
      row.baselineRecall10 = interval(old.map((p) => p.recall10));
      row.hit5WonLost = [per.filter((p, i) => p.hit5 > old[i].hit5).length, per.filter((p, i) => p.hit5 < old[i].hit5).length];
    }
    row.misses = tasks.flatMap((t, i) => (per[i].recall10 < 1 ? [{ task: t.task, recall10: round(per[i].recall10), gold: t.gold.map((ids) => ids[0]), top10: ranked[i] }] : []));
    rows.push(row);
  }
  return { tools: Object.values(bench.catalog.servers).reduce((n, s) => n + s.tools.length, 0), servers: Object.keys(bench.catalog.servers).length, tasks: bench.tasks.length, rows };
}

const fmt = (x) => `${x.mean.toFixed(3)} [${x.low.toFixed(2)}, ${x.high.toFixed(2)}]`;

/** Markdown table of a `livemcpbench` report. */
export function liveTable(report) {
  const lines = ['| half (n) | hit@1 | hit@5 | recall@10 | hit@5 before | recall@10 before | hit@5 won/lost |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of report.rows) {
    const b = r.baselineHit5 ? [fmt(r.baselineHit5), fmt(r.baselineRecall10), r.hit5WonLost.join(' / ')] : ['-', '-', '-'];
    lines.push(`| ${r.half} (${r.n}) | ${fmt(r.hit1)} | ${fmt(r.hit5)} | ${fmt(r.recall10)} | ${b.join(' | ')} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const positional = args.filter((arg, i) => !arg.startsWith('--') && !['--half', '--baseline'].includes(args[i - 1] ?? ''));
  const snapshot = snapshotPath(positional[0] ?? process.env.LIVEMCPBENCH);
  if (!snapshot) {
    console.log('LiveMCPBench: skipped (no snapshot: pass the path of a LiveMCPBench git directory or work tree, or set LIVEMCPBENCH)');
    process.exit(0);
  }
  const which = option('--half');
  const report = await livemcpbench({ snapshot, baseline: option('--baseline'), halves: which ? [which] : ['dev', 'test'] });
  if (args.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log(`LiveMCPBench: ${report.tasks} tasks, ${report.tools} tools from ${report.servers} servers (raw task text)\n`);
    console.log(liveTable(report));
    if (args.includes('--misses')) {
      for (const r of report.rows) {
        console.log(`\n${r.half} half, tasks with recall@10 < 1:`);
        for (const m of r.misses) console.log(`- (${m.recall10}) ${m.task.slice(0, 160)}\n    gold: ${m.gold.join(', ')}\n    top10: ${m.top10.join(', ')}`);
      }
    }
  }
}
