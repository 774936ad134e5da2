import { buildCatalog, type Catalog, type ServerTools } from './catalog/catalog.js';
import { mergeCatalogs, readCatalogFile } from './catalog/file.js';
import { LOCK_FILE, readLockIfPresent } from './catalog/lock.js';
import { exposedPrompts } from './catalog/prompt-names.js';
import { loadConfig } from './config/load.js';
import { resolveConfig, type ResolvedConfig } from './config/resolve.js';
import { ConfigError } from './util/errors.js';
import { withUsage } from './usage/record.js';

export interface OpenProjectOptions {
  /** rc file (`--config`); discovered from `cwd` when absent. */
  config?: string | undefined;
  /** Catalog or lock files (`--catalog`, repeatable); default: the lock beside the rc file. */
  catalogs?: readonly string[] | undefined;
  cwd?: string | undefined;
}

/** A resolved configuration with its catalog: what `status`, `check` and `search` work on. */
export interface Project {
  config: ResolvedConfig;
  catalog: Catalog;
  sources: ServerTools[];
  warnings: string[];
}

/**
 * Loads the rc file and the tool catalogs offline, without starting any upstream.
 *
 * @example
 * const project = await openProject({ catalogs: ['catalogs/github-mcp-server.json'] });
 * console.log(project.catalog.tools.length);
 */
export async function openProject(options: OpenProjectOptions = {}): Promise<Project> {
  const { config: rc, file } = await loadConfig({ file: options.config, cwd: options.cwd });
  const config = await withUsage(resolveConfig(rc, file), options.cwd ?? process.cwd());
  const files = options.catalogs ?? [];
  let sources: ServerTools[];
  const read: string[] = [];
  if (files.length > 0) sources = mergeCatalogs(await Promise.all(files.map((f) => readCatalogFile(f, read))), files);
  else {
    const lock = await readLockIfPresent(file, options.cwd ?? process.cwd());
    if (!lock) throw new ConfigError(noCatalogMessage(file, Object.keys(config.servers).length));
    sources = lock.sources;
    read.push(...lock.warnings);
  }
  const { catalog, warnings, leftOut } = buildCatalog(sources, config);
  // Prompts as the gateway names them (rc order; the lock holds each server's prompts).
  const order = new Map(Object.keys(config.servers).map((server, at) => [server, at]));
  const rank = (server: string) => order.get(server) ?? order.size;
  const prompts = [...sources].sort((a, b) => rank(a.server) - rank(b.server)).map((source) => ({ name: source.server, prompts: source.profile?.prompts ?? [] }));
  return { config, catalog, sources, warnings: [...read, ...warnings, ...leftOut, ...exposedPrompts(prompts, config.prefix).leftOut] };
}

/** Why there is no catalog, and the next step that works from here (a lock needs servers). */
function noCatalogMessage(file: string | undefined, servers: number): string {
  if (servers > 0)
    return `no tool catalog: ${file} lists ${servers} server(s) but there is no ${LOCK_FILE} beside it: run \`lazytools lock\` to record their tools, or pass --catalog FILE.`;
  const where = file ? `${file} lists no servers` : 'no rc file found (.lazytoolsrc*, lazytools.config.*, package.json#lazytools)';
  return `no tool catalog: ${where}, so there is nothing to read tools from. Pass --catalog FILE (a catalog or lock file), or add servers first: \`lazytools init --from claude-desktop|cursor|vscode|claude-code|PATH\` writes .lazytoolsrc.json, then \`lazytools lock\` records their tools.`;
}
