import { buildCatalog, type Catalog, type CatalogTool, type ServerTools, type ToolDefinition } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { SearchIndex } from '../search/engine.js';
import { catalogIndex } from '../search/catalog-index.js';
import { EmbeddingSearch } from '../search/embedding-search.js';
import { createUpstreams } from '../upstream/connect.js';
import type { ListKind, PrimitiveKind, Upstream } from '../upstream/upstream.js';
import { ROUTABLE_CAPABILITIES } from '../upstream/client.js';
import type { Notification } from '@modelcontextprotocol/server';
import { requireMode } from '../focus/policy.js';
import { DriftGuard } from './drift-guard.js';
import { hasOwn, own } from '../util/own.js';
import { silentLogger, type Logger } from '../util/log.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { ownTools, type ServedStrategy } from '../catalog/own-tools.js';
import { forwardClientRequest, logRecipient, reflectedCapabilities } from '../callers/client-requests.js';
import type { Hub, OpenSession } from '../callers/hub.js';
import { InputRounds } from '../callers/input-rounds.js';
import { openSession, sessionRoute, type FrontSession, type SessionOptions } from '../callers/session.js';
import type { PromptIndex, ResourceIndex, ServerState } from '../handlers/caller.js';
import { deliverLog, LogLevels, sendLogLevel, unsetSessionLevel, upstreamLogLevel } from '../handlers/logging.js';
import { buildPromptIndex } from '../handlers/prompts.js';
import { buildResourceIndex } from '../handlers/resources.js';
import { Subscriptions } from '../handlers/subscriptions.js';
import { InitialStarts } from './starts.js';
import { UsageRecorder, usagePath } from '../usage/record.js';
import { counted } from '../util/plural.js';
import { SaidOnce } from '../util/said-once.js';

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
export class Gateway implements Hub {
  config: ResolvedConfig;
  readonly logger: Logger;
  readonly upstreams: Map<string, Upstream>;
  readonly sessions = new Set<OpenSession>();
  catalog: Catalog;
  warnings: string[] = [];
  /** Set when the rc says `usage: true`. */
  readonly usage: UsageRecorder | undefined;
  private semantic: EmbeddingSearch | undefined;
  /** Tools held back because they drifted from the lock under rc `pin` (by exposed name and id), with why: a call names the reason. */
  driftHeld: ReadonlyMap<string, string> = new Map();
  /** What each upstream may show, checked against the lock (rc `pin`). */
  private readonly drift: DriftGuard;
  /** Tool lists from the lock, by server. */
  private readonly locked: Map<string, ServerTools>;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly ownToolsByStrategy = new Map<string, ToolDefinition[]>();
  readonly subscriptions = new Subscriptions();
  /** 2025 upstreams' questions to 2026-07-28 clients, waiting for the clients' retries. */
  readonly inputRounds = new InputRounds<unknown>();
  private promptIndex: PromptIndex | undefined;
  /** Tools and prompts left out for a name already taken, said on stderr as each first appears. */
  private readonly leftOut = new SaidOnce();
  private readonly logLevels = new LogLevels((message) => this.logger.warn(message));
  private resourceIndex: ResourceIndex | undefined;
  private readonly sentLogLevels = new WeakMap<Upstream, string>();
  /** list_changed notifications sent to sessions (metrics). */
  listChangedSent = 0;
  /** Hears every relayed request as it ends (metrics only; see observeCalls). */
  private callObserver: Upstream['onSettled'];
  /** The initial start and how each server's went. */
  private readonly starts: InitialStarts;
  /**
   * Told when a list may have changed: `tools` after the catalog was rebuilt or the config
   * reloaded, `prompts`/`resources` when an upstream's list changed (see Hub.listChangeListeners).
   */
  readonly listChangeListeners = new Set<(kind: ListKind) => void>();

  constructor(options: GatewayOptions) {
    this.config = options.config;
    this.logger = options.logger ?? silentLogger;
    this.starts = new InitialStarts(this.logger);
    this.env = options.env;
    this.usage = options.config.usage ? new UsageRecorder(usagePath(options.config.file, process.cwd())) : undefined;
    const upstreams = options.upstreams ?? createUpstreams(options.config, { env: options.env, logger: this.logger });
    this.upstreams = new Map(upstreams.map((upstream) => [upstream.name, upstream]));
    this.locked = new Map((options.locked ?? []).map((entry) => [entry.server, entry]));
    this.drift = new DriftGuard(this.locked, this.logger);
    // What the lock knows of a server stands in for it until it starts (capabilities, prompts, ...).
    for (const upstream of upstreams) this.drift.seed(upstream);
    for (const upstream of upstreams) this.watch(upstream);
    this.catalog = this.build();
  }

  /**
   * Starts every upstream not in the lock; failures are logged, not thrown. Resolves when each
   * has come up, failed, or used up its start timeout (a late one keeps starting and joins the
   * catalog when it comes up). Idempotent: the fronts await the same initial start (`ready`).
   */
  start(): Promise<void> {
    // A disabled server (an unset ${VAR}) is reported now even when the lock has it.
    const lazy = [...this.upstreams.values()].filter((u) => this.locked.has(u.name) && u.disabledReason === undefined);
    const eager = [...this.upstreams.values()].filter((u) => !lazy.includes(u));
    // Each upstream that comes up rebuilds the catalog (onStatus).
    return this.starts.run(eager, lazy, this.config.file, (u) => `${u.name}: ${counted(this.locked.get(u.name)?.tools.length ?? 0, 'tool')} from the lock (starts on first call)`);
  }

  /**
   * The initial start while it runs, else undefined: requests that depend on the catalog wait
   * for it, so a first tools/list holds every server that could start. Nothing waits on a lock.
   */
  ready(): Promise<void> | undefined {
    return this.starts.ready();
  }

  /** True once the initial starts settled (readiness). */
  get settled(): boolean {
    return this.starts.settled;
  }

  /** Each server as operators see it (see InitialStarts.states). */
  serverStates(): ServerState[] {
    return this.starts.states(this.upstreams.values());
  }

  /** A new client session through the library (the transports open theirs with callers/session openSession). */
  createSession(options: SessionOptions = {}): FrontSession {
    if (options.mode !== undefined) requireMode(this.config, options.mode);
    return openSession(this, sessionRoute(options));
  }

  /** A session closed: it leaves `sessions`, and its resource subscriptions are dropped. */
  sessionClosed(session: OpenSession): void {
    this.sessions.delete(session);
    this.subscriptions.drop(session, this.upstreams);
  }

  /** Every upstream's prompts under unique names (rebuilt when an upstream's list changes). */
  prompts(): PromptIndex {
    return (this.promptIndex ??= this.leftOut.said(buildPromptIndex(this.servedPrimitives(), this.config.prefix), this.logger));
  }

  /** lazytools' own resources and every upstream's, with the owner of each URI. */
  resources(): ResourceIndex {
    this.resourceIndex ??= buildResourceIndex(this.servedPrimitives());
    return this.resourceIndex;
  }

  /** Asks each logging upstream for the most verbose level a session that may reach it set. */
  async applyLogLevels(): Promise<void> {
    await Promise.allSettled([...this.upstreams.values()].map((upstream) => sendLogLevel(upstream, upstreamLogLevel(this.sessionsReaching(upstream)), this.sentLogLevels)));
  }

  /** The sessions that may reach the upstream (a token's, only its modes' servers): the only ones that hear from it or set its level. */
  private sessionsReaching(upstream: Upstream): OpenSession[] {
    return [...this.sessions].filter((session) => session.routing.upstreams.has(upstream.name));
  }

  /** Each upstream's prompts and resources as clients may see them (rc `pin`: app/drift-guard.ts). */
  private servedPrimitives(): Array<{ name: string; primitives: Upstream['primitives'] }> {
    return [...this.upstreams.values()].map((upstream) => this.drift.primitives(upstream, this.config.pin));
  }

  /** The search index over the current catalog (built on first use, once per catalog: catalogIndex). */
  get search(): SearchIndex {
    return catalogIndex(this.catalog);
  }

  /** Meaning for search from rc `discovery.embeddings` over the current catalog (set up on first use), or undefined. */
  get embeddings(): EmbeddingSearch | undefined {
    if (this.config.embeddings) this.semantic ??= new EmbeddingSearch(this.catalog.tools, this.config.embeddings, (message) => this.logger.warn(message), { env: this.env });
    return this.config.embeddings ? this.semantic : undefined;
  }

  /** lazytools' own tools for a strategy, focus_mode naming `modes` (a token's) or every mode (memoized: fingerprints are cached per object). */
  ownTools(strategy: ServedStrategy, modes?: readonly string[]): ToolDefinition[] {
    const key = modes === undefined ? strategy : `${strategy}\n${modes.join('\n')}`;
    let tools = this.ownToolsByStrategy.get(key);
    if (!tools) {
      tools = ownTools(strategy, Object.values(this.config.modes).filter((mode) => modes === undefined || modes.includes(mode.name)));
      this.ownToolsByStrategy.set(key, tools);
    }
    return tools;
  }

  /** Where a catalog tool runs. */
  upstreamOf(tool: CatalogTool): Upstream | undefined {
    return this.upstreams.get(tool.server);
  }

  /** Rebuilds the catalog from the upstreams' current tools and tells every session. */
  rebuild(): void {
    this.promptIndex = undefined;
    this.resourceIndex = undefined;
    this.catalog = this.build();
    this.semantic = undefined;
    for (const session of this.sessions) session.catalogChanged();
    this.listsChanged('tools');
  }

  /**
   * Applies a new configuration without dropping sessions: upstreams whose server entry changed
   * are restarted, removed ones stopped, new ones started; each session keeps its mode when it
   * still exists (else returns to the default) and hears list_changed if its list changed. A
   * session pinned to a mode the new config lacks is ended, never moved to another mode.
   */
  async reload(config: ResolvedConfig): Promise<void> {
    const fresh = new Map(createUpstreams(config, { env: this.env, logger: this.logger }).map((u) => [u.name, u]));
    // A server the rc no longer names leaves the lock's stand-ins too: its tools could not be called.
    for (const name of [...this.locked.keys()]) if (hasOwn(this.config.servers, name) && !hasOwn(config.servers, name)) this.locked.delete(name);
    const stopping: Upstream[] = [];
    const starting: Upstream[] = [];
    for (const [name, upstream] of this.upstreams) {
      const next = fresh.get(name);
      if (!next || JSON.stringify(own(this.config.servers, name)) !== JSON.stringify(own(config.servers, name))) {
        stopping.push(upstream);
        this.upstreams.delete(name);
      }
    }
    for (const [name, upstream] of fresh) {
      if (this.upstreams.has(name)) continue;
      this.upstreams.set(name, upstream);
      this.watch(upstream);
      if (this.locked.has(name)) this.drift.seed(upstream);
      else starting.push(upstream);
    }
    this.config = config;
    this.ownToolsByStrategy.clear();
    // The new rules hold at once, on a catalog placed under them; new servers join as they come up (onStatus).
    this.catalog = this.build();
    this.semantic = undefined;
    this.promptIndex = undefined;
    this.resourceIndex = undefined;
    for (const session of this.sessions) session.reconfigure();
    for (const kind of ['tools', 'prompts', 'resources'] as const) this.listsChanged(kind);
    await Promise.allSettled(stopping.map((u) => u.stop()));
    const started = await Promise.allSettled(starting.map((u) => u.start()));
    for (const result of started) if (result.status === 'rejected') this.logger.error((result.reason as Error).message);
  }

  /** Closes every session and stops every upstream. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions].map((session) => session.close()));
    await Promise.allSettled([...this.upstreams.values()].map((upstream) => upstream.stop()));
    await this.usage?.flush();
  }

  /** Has every upstream (present and future) report each relayed request as it ends (metrics). */
  observeCalls(observer: NonNullable<Upstream['onSettled']>): void {
    this.callObserver = observer;
    for (const upstream of this.upstreams.values()) upstream.onSettled = observer;
  }

  private watch(upstream: Upstream): void {
    upstream.onSettled = this.callObserver;
    upstream.onToolsChanged = () => this.rebuild();
    upstream.onStatus = (u) => {
      if (u.status !== 'ready') return;
      // Up at last (a late start, or a first call after a failed one): no longer "failed".
      this.starts.cameUp(u.name);
      this.rebuild();
      this.subscriptions.renew(u);
      this.sentLogLevels.delete(u); // a (re)started process knows no level yet
      void sendLogLevel(u, upstreamLogLevel(this.sessionsReaching(u)), this.sentLogLevels);
      if (u.primitives.prompts.length > 0) this.primitivesChanged(u, 'prompts');
      if (u.primitives.resources.length > 0 || u.primitives.templates.length > 0) this.primitivesChanged(u, 'resources');
    };
    upstream.onPrimitivesChanged = (u, kind) => this.primitivesChanged(u, kind);
    // An idle stop would end the subscriptions with the process: updates would stop silently.
    upstream.keepAlive = () => this.subscriptions.holds(upstream.name);
    upstream.onNotification = (u, notification) => this.upstreamNotification(u, notification);
    upstream.onRequest = (u, request, signal) => forwardClientRequest(u, request, signal, this.sessions);
    upstream.clientCapabilities = () => reflectedCapabilities(this.sessions, ROUTABLE_CAPABILITIES);
    upstream.servedInstructions = () => this.drift.profile(upstream, this.config.pin).instructions;
  }

  /** An upstream's prompts or resources changed: the sessions that list them hear so (a token's, only of its modes' servers). */
  private primitivesChanged(upstream: Upstream, kind: PrimitiveKind): void {
    if (kind === 'prompts') this.promptIndex = undefined;
    else this.resourceIndex = undefined;
    for (const session of this.sessionsReaching(upstream)) session.listChanged(kind);
    this.listsChanged(kind);
  }

  private listsChanged(kind: ListKind): void {
    for (const listener of this.listChangeListeners) {
      try {
        listener(kind);
      } catch (error) {
        this.logger.error(`list change listener: ${(error as Error).message}`);
      }
    }
  }

  /**
   * A log line goes to the session whose call caused it, to nobody while calls of several callers
   * are in flight there (client-requests.ts logRecipient), else to every session that may reach
   * the upstream (a token's session hears only its modes' servers, as it lists only their prompts
   * and resources); resources/updated to subscribers.
   */
  private upstreamNotification(upstream: Upstream, notification: Notification): void {
    const params = notification.params as Record<string, unknown> | undefined;
    if (notification.method === 'notifications/resources/updated') {
      const uri = typeof params?.uri === 'string' ? params.uri : '';
      for (const session of this.subscriptions.subscribers(upstream.name, uri)) (session as OpenSession).notify(notification.method, params);
      return;
    }
    if (notification.method !== 'notifications/message') return;
    const line = this.logLevels.params(upstream.name, params);
    const recipient = logRecipient(upstream, this.sessions);
    const unset = unsetSessionLevel(this.sentLogLevels.get(upstream), upstream.era); // sessions that never set a level (logging.ts)
    if (recipient === 'everyone') {
      for (const session of this.sessionsReaching(upstream)) deliverLog(session, upstream.name, line, undefined, unset);
    } else if (recipient) deliverLog(recipient.session, upstream.name, line, recipient.origin.requestId, unset);
  }

  private build(): Catalog {
    const sources: ServerTools[] = [];
    const held = new Map<string, string>();
    for (const upstream of this.upstreams.values()) {
      if (upstream.status === 'ready' || upstream.tools.length > 0) sources.push({ server: upstream.name, tools: this.drift.tools(upstream, this.config.pin, held) });
      else {
        const locked = this.locked.get(upstream.name);
        if (locked) sources.push(locked);
      }
    }
    // No upstream for a server the rc keeps `disabled: true`: its locked tools would list but never run.
    for (const [server, entry] of this.locked) if (!this.upstreams.has(server) && own(this.config.servers, server)?.disabled !== true) sources.push(entry);
    const { catalog, warnings } = this.leftOut.said(buildCatalog(sources, this.config), this.logger);
    this.warnings = warnings;
    this.driftHeld = held;
    if (catalog.tools.length >= LARGE_CATALOG) compactSoon();
    return catalog;
  }
}
