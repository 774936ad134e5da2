// Shared benchmark helpers: percentiles, interleaved A/B timing, rc files with the reference servers.
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = path.join(ROOT, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.lazytools);

export function serverEntry(name) {
  return path.join(ROOT, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
}

export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summary(samples) {
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)), n: samples.length };
}

export function round(x, digits = 3) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Runs `fns` round-robin (A B A B ...) `rounds` times after `warmup` rounds; returns ms samples per fn. */
export async function interleave(fns, rounds, warmup = 200) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const samples = fns.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < fns.length; k++) {
      const start = performance.now();
      await fns[k]();
      samples[k].push(performance.now() - start);
    }
  }
  return samples;
}

/** A project folder with an rc of the given servers ({ everything: true, ... }). */
export function project(servers, extra = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-bench-'));
  mkdirSync(path.join(dir, 'data'));
  writeFileSync(path.join(dir, 'package.json'), '{}');
  const all = {
    everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] },
    memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
    filesystem: { command: process.execPath, args: [serverEntry('filesystem'), path.join(dir, 'data')] },
  };
  const rc = { servers: Object.fromEntries(servers.map((s) => [s, all[s]])), ...extra };
  const file = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(file, JSON.stringify(rc, null, 2));
  return { dir, file, rc };
}

/** Median and range of one figure measured in several independent runs (the spread run to run). */
export function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)], min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/**
 * A v2 SDK client over stdio to `node <args>` (quiet: stderr ignored, LAZYTOOLS_QUIET set);
 * `setup` runs before connecting, to install notification handlers.
 */
export async function stdioClient(args, { cwd, setup } = {}) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const client = new Client({ name: 'bench', version: '1' });
  setup?.(client);
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd, stderr: 'ignore', env: { ...process.env, LAZYTOOLS_QUIET: '1' } });
  await client.connect(transport);
  // The server process, for CPU readings (cpuMs).
  client.pid = transport.pid;
  return client;
}

/**
 * The bench clients' `fetch` for the SDK's StreamableHTTPClientTransport: each request gets a
 * signal of its own that follows the transport's. The transport hands every POST the one signal
 * it aborts on close, and undici adds an abort listener per fetch to that signal that it removes
 * only when the request is garbage-collected: 1,117 listeners after 2,000 calls in one run, and
 * the full bench printed MaxListenersExceededWarning 320 times in its HTTP section (the bench's
 * own clients, lazytools' and mcp-proxy's alike; lazytools' own requests to an HTTP upstream carry
 * a signal each: raw.ts, http-transport.ts endsCancelledPosts).
 */
export function ownSignalFetch(input, init) {
  return fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
}

/**
 * CPU milliseconds (user + system) a process has used, from /proc (Linux; undefined elsewhere):
 * read before and after a run, it gives the process's own cost whatever else runs on the machine.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return undefined;
  }
}

/** The first prompt without required arguments and the first resource a client's server lists. */
export async function promptAndResource(client) {
  const prompt = (await client.listPrompts()).prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
  const resource = (await client.listResources()).resources[0];
  if (!prompt || !resource) throw new Error('the server offers no argument-free prompt or no resource');
  return { prompt, resource };
}

/** Polls until an HTTP listener answers (a process just spawned, whose port is known). */
export async function waitForPort(url, child, ms = 20_000) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited (${child.exitCode})`);
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} did not come up`);
}
