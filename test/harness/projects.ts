import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCatalog, type ServerTools } from '../../src/catalog/catalog.js';
import { mergeCatalogs, readCatalogFile } from '../../src/catalog/file.js';
import type { LockFile } from '../../src/catalog/lock.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import type { Logger } from '../../src/util/log.js';
import { CATALOGS, GITHUB_CATALOG, REFERENCE_CATALOG, serverEntry } from './paths.js';

/** Both shared catalogs: 154 tools over five servers. */
export async function referenceSources(): Promise<ServerTools[]> {
  return mergeCatalogs([await readCatalogFile(GITHUB_CATALOG), await readCatalogFile(REFERENCE_CATALOG)]);
}

/** The developer stack of issue 21, captured from npm (developer-stack.json): 10 servers, 148 tools. */
export async function stackSources(): Promise<ServerTools[]> {
  return readCatalogFile(path.join(CATALOGS, 'developer-stack.json'));
}

/** The config, catalog and warnings of an rc over the reference catalogs (no upstream process). */
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

/**
 * A fresh project folder (with a `package.json`) whose `.lazytoolsrc.json` holds `rc`; `files`
 * are written beside it. The shape most end-to-end tests start from.
 */
export function rcProject(rc: unknown, files: Record<string, string> = {}): { dir: string; file: string } {
  const dir = tempTree({ 'package.json': '{}', ...files });
  const file = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(file, typeof rc === 'string' ? rc : JSON.stringify(rc));
  return { dir, file };
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

/** Rewrites the lock file `lockFile` through `change` (a test's forged or edited lock). */
export function lockEditor(lockFile: string): (change: (lock: LockFile) => void) => void {
  return (change) => {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as LockFile;
    change(lock);
    writeFileSync(lockFile, JSON.stringify(lock, null, 2));
  };
}

/** A logger that keeps its warnings and errors, for a test to read. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: () => {}, warn: (message: string) => lines.push(message), error: (message: string) => lines.push(message) };
}
