import { ConfigError } from '../util/errors.js';
import { readJsonFile } from '../util/json.js';
import type { ServerTools, ToolDefinition } from './catalog.js';
import { primePlacement } from './placement-cache.js';
import { readProfile } from './profile.js';
import { admitTools } from './admit.js';
import { stderrLogger } from '../util/log.js';

/**
 * Reads a catalog or lock file (`{ "servers": { "<name>": { "tools": [...] } } }`, extra keys
 * allowed) into server tool lists. Tool definitions stay as written.
 *
 * @throws ConfigError naming the file and the key path that does not fit.
 */
export async function readCatalogFile(file: string): Promise<ServerTools[]> {
  return parseCatalog(await readJsonFile(file), file);
}

/**
 * Validates the catalog shape loosely: servers, tool arrays, tool names and input schemas. A lock's
 * `placement` section seeds the placement caches for these tool objects where it still fits them.
 */
export function parseCatalog(json: unknown, file?: string): ServerTools[] {
  if (!isObject(json) || !isObject(json.servers)) throw new ConfigError('servers: expected an object of { "<server>": { "tools": [...] } }', file);
  const result: ServerTools[] = [];
  for (const [server, entry] of Object.entries(json.servers)) {
    if (!isObject(entry) || !Array.isArray(entry.tools)) throw new ConfigError(`servers.${server}.tools: expected an array of tool definitions`, file);
    entry.tools.forEach((tool: unknown, index: number) => {
      if (!isObject(tool) || typeof tool.name !== 'string' || tool.name.length === 0)
        throw new ConfigError(`servers.${server}.tools[${index}].name: expected a non-empty string`, file);
      if (!isObject(tool.inputSchema)) throw new ConfigError(`servers.${server}.tools[${index}].inputSchema: expected an object`, file);
    });
    const profile = readProfile(entry);
    const tools = admitTools(entry.tools as ToolDefinition[], (message) => stderrLogger.warn(`${file ?? 'catalog'}: servers.${server}: ${message}`));
    result.push(profile ? { server, tools, profile } : { server, tools });
  }
  if (Object.prototype.hasOwnProperty.call(json, 'placement')) primePlacement(json.placement, result);
  return result;
}

/** Merges catalogs; a server named twice is a ConfigError (ambiguous ids). */
export function mergeCatalogs(lists: ServerTools[][]): ServerTools[] {
  const seen = new Map<string, ServerTools>();
  for (const list of lists)
    for (const entry of list) {
      if (seen.has(entry.server)) throw new ConfigError(`server "${entry.server}" appears in more than one catalog`);
      seen.set(entry.server, entry);
    }
  return [...seen.values()];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
