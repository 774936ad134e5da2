/**
 * lazytools: curate MCP tools by focus mode. The library's public API, kept small on purpose:
 * curate an SDK server in process, load and resolve rc files, build catalogs, compute what each
 * mode costs (`status`/`check`), search tools, resolve intents, and run the gateway. Everything
 * else (the CLI, transports, callers and handlers, upstream plumbing) is internal and may change.
 * test/unit/api.test.ts lists these names, so growth shows in review.
 */

// Curate your own SDK server in process.
export { curate, type CurateOptions, type CuratedServer, type ConnectableServer } from './app/curate.js';

// Configuration: rc files (cosmiconfig + zod) and their resolution over the preset modes.
export { loadConfig, parseConfig, type LoadedConfig, type LoadConfigOptions } from './config/load.js';
export { resolveConfig, type ResolvedConfig, type ResolvedMode } from './config/resolve.js';
export type { RcConfig, ServerConfig, GroupConfig, ModeConfig, Strategy, ToolOverride } from './config/schema.js';

// Catalogs: tool lists from catalog or lock files, grouped and counted.
export { buildCatalog, type BuiltCatalog, type Catalog, type CatalogGroup, type CatalogTool, type ServerTools, type ToolDefinition } from './catalog/catalog.js';
export { readCatalogFile, parseCatalog } from './catalog/file.js';
export { openProject, type OpenProjectOptions, type Project } from './project.js';
export type { ServedStrategy } from './catalog/own-tools.js';
export type { TokenizerName } from './util/tokens.js';

// What each mode costs: `lazytools status` and `check` (exit 1 when a mode is not withinBudget).
export { statusReport, type ListStatus, type ModeStatus, type StatusReport } from './tokens/report.js';

// Search and intents.
export { SearchIndex, type SearchHit, type SearchOptions } from './search/engine.js';
export { resolveIntent, type IntentMatch } from './search/intent.js';

// The gateway in front of configured upstreams (what `lazytools serve` runs).
export { serve, type ServeOptions, type Served } from './app/serve.js';
export type { HttpOptions, HttpFront } from './transports/http.js';
export { Gateway, type GatewayOptions } from './app/gateway.js';
export type { FrontSession, SessionOptions } from './callers/session.js';

// Hosts consuming the draft extension io.modelcontextprotocol/groups (lazytools serves it).
export { GROUPS_EXTENSION, type Group } from './groups/wire.js';
export { offersGroups, listGroups, getGroup, GroupToolRegistry, type GroupsClient, type GroupTool, type FetchedGroup } from './groups/client.js';

// Errors callers catch, and the logger shape options take.
export { ConfigError, UnknownNameError } from './util/errors.js';
export type { Logger } from './util/log.js';
