import { createHash } from 'node:crypto';
import { lockBytesIfPresent } from './lock-path.js';
import { dictionary } from '../util/own.js';
import { writeFileWhole } from '../util/private-file.js';
import { compareStrings as compare } from '../util/compare.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { buildCatalog, type ServerTools, type ToolDefinition } from './catalog.js';
import { readCatalogFile } from './file.js';
import { lockPlacement, type LockPlacement } from './placement-cache.js';
import { ownTools, type ServedStrategy } from './own-tools.js';
import { toolTokenCounts, type RecordedCounts } from '../util/tokens.js';
import { profileItems, writeProfile } from './profile.js';

export { LOCK_FILE, lockPath, lockBytesIfPresent } from './lock-path.js';

/**
 * A lock file: the catalog shape plus a content hash per server, and the tools' placement results
 * so a gateway starting on the lock need not compute them again (see placement-cache.ts).
 */
export interface LockFile {
  lockfileVersion: 1;
  servers: Record<string, { hash: string; tools: ToolDefinition[] } & Record<string, unknown>>;
  placement: LockPlacement;
  /** Token counts of the listed definitions and lazytools' own tools under the lock's config (see recordToolTokens). */
  tokens?: RecordedCounts;
}

/** What changed between a lock and the live upstreams, as `server:tool` ids. */
export interface LockDrift {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The lock of a project when it exists (its cached placements seeded, see readCatalogFile). */
export async function readLockIfPresent(rcFile: string | undefined, cwd: string): Promise<{ file: string; sources: ServerTools[]; warnings: string[] } | undefined> {
  const found = await lockBytesIfPresent(rcFile, cwd);
  return found && (await readLock(found));
}

/** A lock read by lockBytesIfPresent, parsed. */
export async function readLock({ file, bytes }: { file: string; bytes: Buffer }): Promise<{ file: string; sources: ServerTools[]; warnings: string[] }> {
  // Malformed tools and cached placements that do not match their definitions are dropped, one warning each.
  const warnings: string[] = [];
  return { file, sources: await readCatalogFile(file, warnings, bytes), warnings };
}

/**
 * Builds a lock: servers and tools sorted by name, definitions verbatim, and a sha256 of each
 * server's tools over a canonical (key-sorted) JSON, so the file is stable and diffs stay small.
 * Its `placement` section records each tool's topics and write status, and with `config` the
 * groups each tool is in under that config (what `lazytools lock` writes). A server entry also
 * carries the server's profile when known (protocol era, capabilities, instructions, prompts,
 * resources), so a gateway on the lock serves all of it before starting the server.
 */
export function makeLock(sources: readonly ServerTools[], config?: ResolvedConfig): LockFile {
  const servers: LockFile['servers'] = dictionary();
  const sorted: ServerTools[] = [];
  for (const source of [...sources].sort((a, b) => compare(a.server, b.server))) {
    const tools = [...source.tools].sort((a, b) => compare(a.name, b.name));
    servers[source.server] = { hash: hashTools(tools), tools, ...writeProfile(source.profile) };
    sorted.push({ server: source.server, tools });
  }
  const built = config ? { catalog: buildCatalog(sorted, config).catalog, config } : undefined;
  const lock: LockFile = { lockfileVersion: 1, servers, placement: lockPlacement(sorted, built) };
  if (config && built) lock.tokens = { [config.tokenizer]: lockTokenCounts(built.catalog.tools.flatMap((tool) => (tool.listed === tool.definition ? [tool.listed] : [tool.listed, tool.definition])), config) };
  return lock;
}

const STRATEGIES: readonly ServedStrategy[] = ['notify', 'hybrid', 'proxy'];

/**
 * Counts of what fitting a mode to its budget reads: each tool's listed definition (compact or
 * verbatim per the config), its definition as the server sent it where that differs (the catalog's
 * `totalTokens`, which a mode's budget is a share of), and lazytools' own tools under every
 * strategy a client may be served.
 */
function lockTokenCounts(definitions: readonly ToolDefinition[], config: ResolvedConfig): Record<string, number> {
  const modes = Object.values(config.modes);
  return toolTokenCounts([...definitions, ...STRATEGIES.flatMap((strategy) => ownTools(strategy, modes))], config.tokenizer);
}

/**
 * Writes the lock whole (a temporary file renamed over it): a reader (`serve --watch`, CI) never
 * sees half of one, and a lock committed as a link (`-> ~/.bashrc`) is replaced by the file, never
 * written through.
 */
export async function writeLock(file: string, lock: LockFile): Promise<void> {
  writeFileWhole(file, `${JSON.stringify(lock, null, 2)}\n`);
}

/** Tools, instructions, prompts and resources added, removed or changed in `live` compared with `locked`. */
export function diffLock(locked: readonly ServerTools[], live: readonly ServerTools[]): LockDrift {
  const index = (sources: readonly ServerTools[]) => {
    const map = new Map<string, string>();
    for (const source of sources) {
      for (const tool of source.tools) map.set(`${source.server}:${tool.name}`, canonicalJson(tool));
      // What clients read besides tools (instructions, prompts, resources) drifts too.
      for (const [key, value] of profileItems(source.profile)) map.set(`${source.server} ${key}`, canonicalJson(value));
    }
    return map;
  };
  const before = index(locked);
  const after = index(live);
  const drift: LockDrift = { added: [], removed: [], changed: [] };
  for (const [id, definition] of after) {
    const old = before.get(id);
    if (old === undefined) drift.added.push(id);
    else if (old !== definition) drift.changed.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) drift.removed.push(id);
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

/** sha256 of the canonical JSON of a tool list. */
function hashTools(tools: readonly ToolDefinition[]): string {
  return `sha256-${createHash('sha256').update(canonicalJson(tools)).digest('base64')}`;
}
