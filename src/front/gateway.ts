import { buildCatalog, type Catalog, type CatalogTool, type ServerTools, type ToolDefinition } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Strategy } from '../config/schema.js';
import { SearchIndex } from '../search/engine.js';
import { createUpstreams } from '../upstream/connect.js';
import type { Upstream } from '../upstream/upstream.js';
import { addCloseListener } from '../util/close.js';
import { UnknownNameError } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { ownTools, type ServedStrategy } from '../catalog/own-tools.js';
import { FrontSession } from './session.js';
import { UsageRecorder, usagePath } from '../usage/record.js';

export interface GatewayOptions {
  config: ResolvedConfig;
  /** Upstreams to front (default: one per rc server). */
  upstreams?: Upstream[] | undefined;
  /**
   * Tool lists from the lock file (or a catalog): their upstreams start on their first call
   * instead of in `start()`.
   */
  locked?: ServerTools[] | undefined;
  logger?: Logger | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export interface SessionOptions {
  /** Serve this mode only: the list never varies per connection, and focus_mode is not offered. */
  mode?: string | undefined;
  /** Override the rc strategy for this endpoint. */
  strategy?: Strategy | undefined;
}

/**
 * The gateway core: upstreams, the catalog built from their tools, and the sessions in front.
 * When an upstream's tools change, the catalog is rebuilt and every session re-checks its list
 * (sending list_changed only when its visible set changed).
 *
 * @example
 * const gateway = new Gateway({ config });
 * await gateway.start();
 * const session = gateway.createSession();
 * await session.connect(transport);
 */
export class Gateway {
  config: ResolvedConfig;
  readonly logger: Logger;
  readonly upstreams: Map<string, Upstream>;
  readonly sessions = new Set<FrontSession>();
  catalog: Catalog;
  warnings: string[] = [];
  /** Set when the rc says `usage: true`. */
  readonly usage: UsageRecorder | undefined;
  private index: SearchIndex | undefined;
  /** Tool lists from the lock, by server. */
  private readonly locked: Map<string, ServerTools>;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly own = new Map<ServedStrategy, ToolDefinition[]>();

  constructor(options: GatewayOptions) {
    this.config = options.config;
    this.logger = options.logger ?? silentLogger;
    this.env = options.env;
    this.usage = options.config.usage ? new UsageRecorder(usagePath(options.config.file, process.cwd())) : undefined;
    const upstreams = options.upstreams ?? createUpstreams(options.config, { env: options.env, logger: this.logger });
    this.upstreams = new Map(upstreams.map((upstream) => [upstream.name, upstream]));
    this.locked = new Map((options.locked ?? []).map((entry) => [entry.server, entry]));
    for (const upstream of upstreams) this.watch(upstream);
    this.catalog = this.build();
  }

  /** Starts every upstream not in the lock; failures are logged, not thrown. */
  async start(): Promise<void> {
    const lazy = [...this.upstreams.values()].filter((u) => this.locked.has(u.name));
    const eager = [...this.upstreams.values()].filter((u) => !this.locked.has(u.name));
    const results = await Promise.allSettled(eager.map((upstream) => upstream.start()));
    results.forEach((result, i) => {
      if (result.status === 'rejected') this.logger.error((result.reason as Error).message);
      else this.logger.info(`${eager[i]?.name}: ${eager[i]?.tools.length} tools`);
    });
    for (const upstream of lazy) this.logger.info(`${upstream.name}: ${this.locked.get(upstream.name)?.tools.length} tools from the lock (starts on first call)`);
    // Each upstream that came up rebuilt the catalog already (onStatus).
  }

  /** A new client session (one per stdio connection or HTTP session). */
  createSession(options: SessionOptions = {}): FrontSession {
    if (options.mode !== undefined && !this.config.modes[options.mode]) throw new UnknownNameError('mode', options.mode, Object.keys(this.config.modes));
    const session = new FrontSession(this, options);
    this.sessions.add(session);
    addCloseListener(session, () => this.sessions.delete(session));
    return session;
  }

  /** The search index over the current catalog (built on first use). */
  get search(): SearchIndex {
    this.index ??= new SearchIndex(this.catalog.tools, this.catalog.groups);
    return this.index;
  }

  /** lazytools' own tools for a strategy (memoized: their fingerprints are cached per object). */
  ownTools(strategy: ServedStrategy): ToolDefinition[] {
    let tools = this.own.get(strategy);
    if (!tools) {
      tools = ownTools(strategy, Object.values(this.config.modes));
      this.own.set(strategy, tools);
    }
    return tools;
  }

  /** Where a catalog tool runs. */
  upstreamOf(tool: CatalogTool): Upstream | undefined {
    return this.upstreams.get(tool.server);
  }

  /** Rebuilds the catalog from the upstreams' current tools and tells every session. */
  rebuild(): void {
    this.catalog = this.build();
    this.index = undefined;
    for (const session of this.sessions) session.catalogChanged();
  }

  /**
   * Applies a new configuration without dropping sessions: upstreams whose server entry changed
   * are restarted, removed ones stopped, new ones started; each session keeps its mode when it
   * still exists (else returns to the default) and hears list_changed if its list changed.
   */
  async reload(config: ResolvedConfig): Promise<void> {
    const fresh = new Map(createUpstreams(config, { env: this.env, logger: this.logger }).map((u) => [u.name, u]));
    const stopping: Upstream[] = [];
    const starting: Upstream[] = [];
    for (const [name, upstream] of this.upstreams) {
      const next = fresh.get(name);
      if (!next || JSON.stringify(this.config.servers[name]) !== JSON.stringify(config.servers[name])) {
        stopping.push(upstream);
        this.upstreams.delete(name);
      }
    }
    for (const [name, upstream] of fresh) {
      if (this.upstreams.has(name)) continue;
      this.upstreams.set(name, upstream);
      this.watch(upstream);
      if (!this.locked.has(name)) starting.push(upstream);
    }
    this.config = config;
    this.own.clear();
    await Promise.allSettled(stopping.map((u) => u.stop()));
    const started = await Promise.allSettled(starting.map((u) => u.start()));
    for (const result of started) if (result.status === 'rejected') this.logger.error((result.reason as Error).message);
    this.catalog = this.build();
    this.index = undefined;
    for (const session of this.sessions) session.reconfigure();
  }

  /** Closes every session and stops every upstream. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions].map((session) => session.close()));
    await Promise.allSettled([...this.upstreams.values()].map((upstream) => upstream.stop()));
    await this.usage?.flush();
  }

  private watch(upstream: Upstream): void {
    upstream.onToolsChanged = () => this.rebuild();
    upstream.onStatus = (u) => {
      if (u.status === 'ready') this.rebuild();
    };
  }

  private build(): Catalog {
    const sources: ServerTools[] = [];
    for (const upstream of this.upstreams.values()) {
      if (upstream.status === 'ready' || upstream.tools.length > 0) sources.push({ server: upstream.name, tools: upstream.tools });
      else {
        const locked = this.locked.get(upstream.name);
        if (locked) sources.push(locked);
      }
    }
    for (const [server, entry] of this.locked) if (!this.upstreams.has(server)) sources.push(entry);
    const { catalog, warnings } = buildCatalog(sources, this.config);
    this.warnings = warnings;
    if (catalog.tools.length >= LARGE_CATALOG) compactSoon();
    return catalog;
  }
}
