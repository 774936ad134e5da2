/**
 * lazytools: curate MCP tools by focus mode. The library behind the CLI; every export is public
 * API.
 */
export { loadConfig, parseConfig, CONFIG_SEARCH_PLACES, type LoadedConfig, type LoadConfigOptions } from './config/load.js';
export { resolveConfig, DEFAULT_MODE, type ResolvedConfig, type ResolvedMode } from './config/resolve.js';
export { loadPresets, PRESETS_DIR, type Presets } from './config/presets.js';
export {
  configSchema,
  serverSchema,
  groupSchema,
  modeSchema,
  type RcConfig,
  type ServerConfig,
  type GroupConfig,
  type ModeConfig,
  type Strategy,
  type ToolOverride,
} from './config/schema.js';
export { buildCatalog, sumTokens, type Catalog, type CatalogTool, type CatalogGroup, type ServerTools, type ToolDefinition, type BuiltCatalog } from './catalog/catalog.js';
export { readCatalogFile, parseCatalog, mergeCatalogs } from './catalog/file.js';
export { compileGroup, type CompiledGroup } from './catalog/groups.js';
export { summarize, words } from './catalog/text.js';
export { createFocusMachine, focusState, restorableSnapshot, type FocusContext, type FocusEvent, type FocusMachine, type FocusActor, type FocusState } from './focus/machine.js';
export { visibleTools, activeGroups, proxyListedTools } from './focus/visible.js';
export { countToolTokens, countTextTokens, type TokenizerName } from './util/tokens.js';
export { statusReport, reduction, type ModeStatus, type StatusReport } from './tokens/report.js';
export { ownTools, focusModeTool, type ServedStrategy } from './catalog/own-tools.js';
export { openProject, type Project, type OpenProjectOptions } from './project.js';
export { ConfigError, UnknownNameError } from './util/errors.js';
export { closestNames } from './util/closest.js';
export { main } from './cli/main.js';
export { rcJsonSchema } from './config/json-schema.js';
export { Gateway, type GatewayOptions, type SessionOptions } from './front/gateway.js';
export { FrontSession } from './front/session.js';
export { serve, type ServeOptions, type Served } from './front/serve.js';
export { serveHttp, type HttpOptions, type HttpFront } from './front/http.js';
export { StdioFrontTransport } from './front/stdio.js';
export { curate, type CurateOptions, type CuratedServer, type ConnectableServer } from './front/curate.js';
export { CLIENT_TABLE, strategyFor } from './front/clients.js';
export { Upstream, UpstreamError, type UpstreamStatus, type UpstreamOptions, type CallOptions } from './upstream/upstream.js';
export { createUpstreams } from './upstream/connect.js';
export { StdioUpstreamTransport } from './upstream/stdio-transport.js';
export { interpolate } from './config/env.js';
export { importServers, clientConfigPaths, type ClientName } from './config/import.js';
export { SearchIndex, type SearchHit, type SearchOptions } from './search/engine.js';
export { resolveIntent, INTENT_THRESHOLD, type IntentMatch } from './search/intent.js';
export { stderrLogger, silentLogger, type Logger } from './util/log.js';
export { makeLock, diffLock, hashTools, lockPath, LOCK_FILE, type LockFile, type LockDrift } from './catalog/lock.js';
