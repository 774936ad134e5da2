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

export async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
