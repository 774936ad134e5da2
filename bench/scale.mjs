// Scale: generated catalogs of 1,000 and 10,000 tools served from a lock file: cold start to the
// first tools/list answer (and no upstream spawned), tools/list latency, gateway RSS, search p50
// and the proxy strategy's list size.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCatalog, resolveConfig, SearchIndex, parseCatalog } from '../dist/index.js';
import { makeLock } from '../dist/catalog/lock.js';
import { generateCatalog } from './generate.mjs';
import { BIN, ROOT, project, round, summary } from './lib.mjs';

/** Minimal stdio JSON-RPC client over a spawned gateway, timing each answer. */
function rawClient(child) {
  let parts = [];
  const waiting = new Map();
  child.stdout.on('data', (chunk) => {
    // Look for newlines in the new chunk only: a 20 MB tools/list arrives in hundreds of chunks.
    let start = 0;
    let index;
    while ((index = chunk.indexOf(10, start)) >= 0) {
      parts.push(chunk.subarray(start, index));
      const message = JSON.parse(Buffer.concat(parts).toString('utf8'));
      parts = [];
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
      start = index + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  let id = 0;
  return {
    request(method, params = {}) {
      const current = ++id;
      return new Promise((resolve) => {
        waiting.set(current, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: current, method, params })}\n`);
      });
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

function childCount(pid) {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) n++;
    } catch {
      // the process ended while we looked
    }
  }
  return n;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: round(kb('VmRSS') / 1024, 1), peak: round(kb('VmHWM') / 1024, 1) };
}

/**
 * Ends a gateway and waits for it to exit: a gateway that answered from start answers builds its
 * catalog right after, and SIGTERM is handled once that synchronous build ends; the next start
 * must not share the cores with it.
 */
async function stop(child) {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Starts `lazytools serve` (the built CLI, or `bin`) on a lock and times spawn -> first tools/list answer. */
async function coldStart(dir, bin = BIN, first = false) {
  // `first`: a user cache of its own (no lock stamp, no start answers), as on a machine's first start.
  const cache = first ? { LAZYTOOLS_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), 'lazytools-bench-cache-')) } : {};
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, LAZYTOOLS_QUIET: '1', ...cache } });
  const client = rawClient(child);
  await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  client.notify('notifications/initialized');
  const list = await client.request('tools/list');
  const ms = performance.now() - started;
  return { child, client, ms, tools: list.result.tools.length, children: childCount(child.pid) };
}

/** A project folder with the reference servers' rc and a lock of their tools (so nothing need start). */
export function referenceProject() {
  const { dir, file, rc } = project(['everything', 'memory', 'filesystem']);
  const shared = parseCatalog(JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs/reference-servers.json'), 'utf8')));
  // As `lazytools lock` writes it: with the rc's config, so the lock carries the tools' placements.
  writeFileSync(path.join(dir, 'lazytools.lock.json'), JSON.stringify(makeLock(shared.filter((s) => ['everything', 'memory', 'filesystem'].includes(s.server)), resolveConfig(rc, file))));
  return dir;
}

/** A project folder serving `size` generated tools from a lock, in mode `all`. */
export function generatedProject(size, catalog = generateCatalog(size)) {
  // serve leaves out locked servers the rc does not name, so the rc names each one; served from
  // the lock, none ever starts (a start would fail: the bench also counts spawned children).
  const servers = Object.fromEntries(Object.keys(catalog.servers).map((name) => [name, { command: process.execPath, args: ['-e', 'process.exit(1)'] }]));
  const { dir, file, rc } = project([], { defaultMode: 'all', servers });
  writeFileSync(path.join(dir, 'lazytools.lock.json'), JSON.stringify(makeLock(parseCatalog(catalog), resolveConfig(rc, file))));
  return dir;
}

/**
 * Cold start in `dir`, `runs` times: spawn -> first tools/list answer (ms) per run after the
 * first (a warm-up for the file system cache), and the most child processes seen (upstreams spawned).
 */
export async function coldStarts(dir, runs) {
  return (await interleavedColdStarts(dir, runs, [BIN]))[0];
}

/**
 * coldStarts for several builds of the CLI at once, run after run in turn (A B A B), so load hits
 * all alike. The warm-up run records the start answers later runs answer from (front/start-answers.ts);
 * `first` gives every run an empty user cache instead.
 */
export async function interleavedColdStarts(dir, runs, bins, first = false) {
  const times = bins.map(() => []);
  const spawned = bins.map(() => 0);
  for (let i = 0; i < runs; i++)
    for (const [k, bin] of bins.entries()) {
      const run = await coldStart(dir, bin, first);
      times[k].push(run.ms);
      spawned[k] = Math.max(spawned[k], run.children);
      await stop(run.child);
    }
  return bins.map((_, k) => ({ ...summary(times[k].slice(1)), runs: times[k].slice(1).map((ms) => round(ms, 1)), upstreamsSpawned: spawned[k] }));
}

/** Idle time after which a gateway's resident memory is read as settled (V8's memory reducer runs within it). */
const SETTLE_MS = 10_000;

/** The whole list, page after page, as a client following nextCursor receives it. */
async function listEveryPage(client) {
  const t = performance.now();
  let cursor;
  let tools = 0;
  let pages = 0;
  let largestPageBytes = 0;
  do {
    const page = await client.request('tools/list', cursor === undefined ? {} : { cursor });
    largestPageBytes = Math.max(largestPageBytes, Buffer.byteLength(JSON.stringify(page)));
    tools += page.result.tools.length;
    pages++;
    cursor = page.result.nextCursor;
  } while (cursor !== undefined);
  return { ms: performance.now() - t, tools, pages, largestPageBytes };
}

/** Resident MB once the gateway listed every page 30 times and was then idle for SETTLE_MS. */
async function settledRss(client, pid) {
  for (let k = 0; k < 30; k++) await listEveryPage(client);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return rssMb(pid).rss;
}

export async function scale({ sizes = [1_000, 10_000], coldRuns = 7 } = {}) {
  const out = { sizes: {} };
  // Cold start with the real reference servers behind a lock: nothing may be spawned.
  out.coldStartReference = await coldStarts(referenceProject(), coldRuns);
  for (const size of sizes) {
    const catalog = generateCatalog(size);
    const dir = generatedProject(size, catalog);
    const runs = [];
    const settled = [];
    for (let i = 0; i < (size >= 10_000 ? 4 : coldRuns); i++) {
      const run = await coldStart(dir);
      runs.push(run.ms);
      // At 10,000 tools the later starts (from start answers) are also measured once settled: one
      // second after a burst, resident memory holds garbage V8 has not collected yet (readings
      // moved from 144 to 155 MB run to run); after SETTLE_MS idle its memory reducer has run.
      if (i > 0 && size >= 10_000) settled.push(await settledRss(run.client, run.child.pid));
      if (i === 0) {
        const listMs = [];
        let largestPageBytes = 0;
        let pages = 0;
        let toolsListed = 0;
        for (let k = 0; k < 30; k++) {
          const listed = await listEveryPage(run.client);
          listMs.push(listed.ms);
          largestPageBytes = Math.max(largestPageBytes, listed.largestPageBytes);
          pages = listed.pages;
          toolsListed = listed.tools;
        }
        // A gateway serving fewer tools than generated (a lock left out) would measure nothing.
        if (toolsListed < size) throw new Error(`scale: the gateway listed ${toolsListed} of ${size} generated tools`);
        const busy = rssMb(run.child.pid).rss;
        // Steady state: what stays resident once the gateway is quiet for a second.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const quiet = rssMb(run.child.pid);
        out.sizes[size] = { toolsListed, pages, largestPageBytes, firstPageTools: run.tools, toolsList: summary(listMs), gatewayRssMb: quiet.rss, gatewayBusyRssMb: busy, gatewayPeakRssMb: quiet.peak };
      }
      await stop(run.child);
    }
    if (settled.length > 0) {
      const sorted = [...settled].sort((a, b) => a - b);
      out.sizes[size].gatewaySettledRssMb = { median: sorted[Math.floor((sorted.length - 1) / 2)], min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
    }
    out.sizes[size].coldStart = summary(runs.slice(1));
    // The first run found no start answers (a new project): it parsed and built before answering.
    out.sizes[size].firstStartMs = round(runs[0], 1);

    // Search over the generated catalog, in process (the same engine search_tools uses).
    const config = resolveConfig({ strategy: 'proxy' });
    const built = buildCatalog(parseCatalog(catalog), config).catalog;
    const buildStart = performance.now();
    const index = new SearchIndex(built.tools, built.groups);
    const indexMs = performance.now() - buildStart;
    // The first misspelled query word reads the catalog's words once (search/spelling.ts): its cost, paid once per catalog.
    const lexiconStart = performance.now();
    index.correction('serach');
    const lexiconMs = performance.now() - lexiconStart;
    const queries = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/queries.json'), 'utf8')).map((q) => q.query);
    for (const q of queries) index.search(q);
    const searchMs = [];
    const repeatP50s = [];
    for (let r = 0; r < 5; r++) {
      const repeat = [];
      for (const q of queries) {
        const t = performance.now();
        index.search(q, { limit: 5 });
        repeat.push(performance.now() - t);
      }
      searchMs.push(...repeat);
      repeatP50s.push(summary(repeat).p50);
    }
    out.sizes[size].search = { ...summary(searchMs), repeatP50s, indexBuildMs: round(indexMs, 1), spellingLexiconMs: round(lexiconMs, 1) };
  }
  return out;
}



if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await scale(), null, 2));
