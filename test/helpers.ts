import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog, type ServerTools } from '../src/catalog/catalog.js';
import { mergeCatalogs, readCatalogFile } from '../src/catalog/file.js';
import { resolveConfig } from '../src/config/resolve.js';
import type { RcConfig } from '../src/config/schema.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CATALOGS = path.resolve(ROOT, process.env.LAZYTOOLS_CATALOGS ?? 'test/fixtures/catalogs');
export const GITHUB_CATALOG = path.join(CATALOGS, 'github-mcp-server.json');
export const REFERENCE_CATALOG = path.join(CATALOGS, 'reference-servers.json');
export const BIN = path.join(ROOT, (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: { lazytools: string } }).bin.lazytools);

/** Both shared catalogs: 154 tools over five servers. */
export async function referenceSources(): Promise<ServerTools[]> {
  return mergeCatalogs([await readCatalogFile(GITHUB_CATALOG), await readCatalogFile(REFERENCE_CATALOG)]);
}

/** The developer stack of issue 21, captured from npm (developer-stack.json): 10 servers, 148 tools. */
export async function stackSources(): Promise<ServerTools[]> {
  return readCatalogFile(path.join(CATALOGS, 'developer-stack.json'));
}

export async function referenceProject(rc: RcConfig = {}) {
  const config = resolveConfig(rc);
  const { catalog, warnings } = buildCatalog(await referenceSources(), config);
  return { config, catalog, warnings };
}

/** A fresh temporary folder with the given files (paths relative to it). */
export function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/** Absolute path of a reference server's entry point (devDependencies). */
export function serverEntry(name: 'everything' | 'filesystem' | 'memory'): string {
  return path.join(ROOT, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
}

/** An rc with the three real reference servers, in a fresh project folder. */
export function referenceRc(extra: Record<string, unknown> = {}): { dir: string; file: string } {
  const dir = tempTree({ 'package.json': '{}', 'data/hello.txt': 'hello from lazytools\n' });
  const rc = {
    servers: {
      filesystem: { command: process.execPath, args: [serverEntry('filesystem'), path.join(dir, 'data')] },
      memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
      everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] },
    },
    ...extra,
  };
  const file = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(file, JSON.stringify(rc, null, 2));
  return { dir, file };
}

/** Live child processes of `pid` (Linux /proc), for counting spawned upstreams. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** True while a process exists (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Counts events (notifications, log lines) and lets a test wait for the n-th one: no polling and
 * no sleep, a missing event fails the test at its timeout.
 */
export class EventCounter {
  count = 0;
  private waiters: Array<{ n: number; resolve: () => void }> = [];

  /** Records one event (usable as a callback). */
  readonly hit = (): void => {
    this.count++;
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.n > this.count) return true;
      waiter.resolve();
      return false;
    });
  };

  /** Resolves once `n` events were recorded in all. */
  reached(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

/** A promise with its resolver outside, for "wait until this callback ran". */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Polls a condition that has no event to wait on (the state of other processes in /proc), with a
 * deadline. Everything that has an event (a notification, an exit, a log line, an answer) waits
 * on that instead.
 */
export async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
