import { ConfigError } from '../util/errors.js';
import { readJsonBytes, isObject } from '../util/json.js';
import type { ServerTools, ToolDefinition } from './types.js';
import { placementVersion, primePlacement } from './placement-cache.js';
import { readStamp, stampFolder, type LockStamp } from './lock-stamp.js';
import { readProfile } from './profile.js';
import { admitTools, MAX_SERVER_TOOLS, toolProblem } from './admit.js';
import { recordToolTokens } from '../util/tokens.js';
import { hasOwn } from '../util/own.js';
import { serverNameProblem } from '../config/schema.js';
import { quotedName } from '../config/secrets.js';
import { firstLines } from '../util/plural.js';
import { shareStringValues } from '../util/flat.js';

/**
 * Reads a catalog or lock file (`{ "servers": { "<name>": { "tools": [...] } } }`, extra keys
 * allowed) into server tool lists. Tool definitions stay as written; malformed ones are dropped
 * with a line in `warnings` each (see parseCatalog). `read`: the file's bytes, when already read.
 *
 * @throws ConfigError naming the file and the key path when the file's shape does not fit.
 */
export async function readCatalogFile(file: string, warnings?: string[], read?: Buffer): Promise<ServerTools[]> {
  const { json, bytes } = await readJsonBytes(file, {}, read);
  // Parsed here, so its strings may be shared: a served catalog keeps its definitions.
  if (isObject(json) && isObject(json.servers)) shareStringValues(json.servers);
  const folder = isObject(json) && hasOwn(json, 'placement') ? stampFolder() : undefined;
  return parseCatalog(json, file, warnings, folder === undefined ? undefined : { folder, stamp: readStamp(folder, placementVersion(), bytes) });
}

/**
 * Validates the catalog shape: servers and tool arrays (a ConfigError when they do not fit), then
 * each tool's fields. A lock is data, not code: a tool whose fields have the wrong types (a
 * non-string name, description or title, an inputSchema or annotations that is not an object) is
 * dropped with one warning naming the file, server and tool, and the rest of the server is kept.
 * A lock's `placement` section seeds the placement caches for these tool objects where it still
 * fits them (verified, see primePlacement), and its `tokens` section the token counts (checked
 * on use, see recordToolTokens). `stamp` is the file's verified-lock stamp (lock-stamp.ts), when looked up.
 */
export function parseCatalog(json: unknown, file?: string, warnings: string[] = [], stamp?: { folder: string; stamp: LockStamp }): ServerTools[] {
  if (!isObject(json) || !isObject(json.servers)) throw new ConfigError('servers: expected an object of { "<server>": { "tools": [...] } }', file);
  const result: ServerTools[] = [];
  const where = file ? `${file}: ` : '';
  // Each left-out tool's line, then bounded: a truncated or hand-edited lock can hold a
  // hundred thousand bad entries (600 KB of `{}` printed 19.7 MB of warnings).
  const toolWarnings: string[] = [];
  for (const [server, entry] of Object.entries(json.servers)) {
    // Named as in an rc: an unbounded or odd name (`a:b` splits ids) would reach every id, warning and report.
    const badName = serverNameProblem(server);
    if (badName !== undefined) throw new ConfigError(`servers: server name ${quotedName(server)} is not one an rc could hold: expected ${badName}`, file);
    if (!isObject(entry) || !Array.isArray(entry.tools)) throw new ConfigError(`servers.${server}.tools: expected an array of tool definitions`, file);
    // As many tools per server as an upstream's list gives (admit.ts MAX_SERVER_TOOLS): a catalog build is synchronous.
    const listed: unknown[] = entry.tools.length > MAX_SERVER_TOOLS ? entry.tools.slice(0, MAX_SERVER_TOOLS) : entry.tools;
    if (listed !== entry.tools) warnings.push(`${where}servers.${server}.tools: ${entry.tools.length} tools, more than ${MAX_SERVER_TOOLS}: only the first ${MAX_SERVER_TOOLS} are kept`);
    const typed: ToolDefinition[] = [];
    listed.forEach((tool: unknown, index: number) => {
      const problem = toolProblem(tool);
      if (problem) {
        // Split at the first ": " only: what is expected may hold one (`{ taskSupport?: ... }`).
        const split = problem.indexOf(': ');
        const [key, expected] = split < 0 ? ['', problem] : [problem.slice(0, split), problem.slice(split + 2)];
        toolWarnings.push(`${where}servers.${server}.tools[${index}]${key}${toolLabel(tool)}: ${expected}; the tool is left out`);
      }
      else typed.push(tool as ToolDefinition);
    });
    const profile = readProfile(entry, (message) => warnings.push(`${where}servers.${server}.${message}`));
    const tools = admitTools(typed, (message) => toolWarnings.push(`${where}servers.${server}: ${message}`));
    result.push(profile ? { server, tools, profile } : { server, tools });
  }
  warnings.push(...firstLines(toolWarnings, MAX_TOOL_WARNINGS, `tools left out of ${file ?? 'the catalog'}`));
  if (hasOwn(json, 'placement')) {
    const dropped: string[] = [];
    primePlacement(json.placement, result, (message) => dropped.push(`${where}${message}`), stamp);
    warnings.push(...firstLines(dropped, MAX_TOOL_WARNINGS, `cached placements of ${file ?? 'the catalog'} computed afresh`));
  }
  // A lock records a count for each tool's listed definition and its full one, and lazytools' own tools'.
  if (hasOwn(json, 'tokens')) recordToolTokens(json.tokens, 2 * result.reduce((sum, entry) => sum + entry.tools.length, 0) + OWN_TOOL_COUNTS);
  return result;
}

/** Token counts a lock may record for lazytools' own tools, past two per tool of its servers (each strategy's and mode's variants). */
const OWN_TOOL_COUNTS = 4096;

/** Left-out tools of one catalog file warned about one line each; the rest are counted in one line. */
export const MAX_TOOL_WARNINGS = 20;

/** ` ("name")` for a tool with a string name, for warnings. */
function toolLabel(tool: unknown): string {
  return isObject(tool) && typeof tool.name === 'string' ? ` (${JSON.stringify(tool.name.slice(0, 80))})` : '';
}

/**
 * Merges catalogs; a server named twice is a ConfigError (ambiguous ids) naming the file that
 * repeats it and the one that named it first, when `files` (one per list, in order) are given.
 */
export function mergeCatalogs(lists: ServerTools[][], files: readonly string[] = []): ServerTools[] {
  const seen = new Map<string, { entry: ServerTools; index: number }>();
  lists.forEach((list, index) => {
    for (const entry of list) {
      const first = seen.get(entry.server);
      if (first !== undefined) {
        const earlier = files[first.index];
        throw new ConfigError(`servers.${entry.server}: server "${entry.server}" appears in more than one catalog${earlier === undefined ? '' : ` (first in ${earlier})`}: expected each server in one catalog`, files[index]);
      }
      seen.set(entry.server, { entry, index });
    }
  });
  return [...seen.values()].map(({ entry }) => entry);
}
