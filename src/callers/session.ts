import { Server, type ClientCapabilities, type ServerCapabilities, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { Strategy } from '../config/schema.js';
import { fixedModeGone, mayEnable, type Boundary } from '../focus/policy.js';
import { resolveScope, servedStrategy, type Route } from '../focus/scope.js';
import { initialFocus, nextFocus, restoreFocus, type FocusEvent, type FocusState } from '../focus/state.js';
import { callContext } from '../handlers/call.js';
import type { CallerFront, CallVia } from '../handlers/caller.js';
import { advertised } from '../handlers/capabilities.js';
import { declaresGroups, groupsChanged, listedOwnTools } from '../handlers/groups.js';
import { AnnouncedList, sameSources } from '../handlers/list-changes.js';
import { registerLogging } from '../handlers/logging.js';
import { registerPrimitives } from '../handlers/primitives.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { PrimitiveKind } from '../upstream/upstream.js';
import { addCloseListener } from '../util/close.js';
import { ConfigError } from '../util/errors.js';
import { VERSION } from '../util/version.js';
import { CallerBase } from './caller.js';
import { forwardRootsChanged, offerRoots } from './client-requests.js';
import { fastPath } from './fast-path.js';
import { refusedBeforeParsing } from '../protocol/param-bounds.js';
import { pacedIntake } from './paced-intake.js';
import type { Hub, OpenSession } from './hub.js';
import { FrontRelay } from './relay.js';

const looseResult = z.looseObject({});
/** How long a client may take to answer an upstream's request (a user filling in a form). */
const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** What a session is opened with through the library (app/gateway createSession): a mode, a strategy, a token's boundary. */
export interface SessionOptions {
  /** Serve this mode only: the list never varies per connection, and focus_mode is not offered. */
  mode?: string | undefined;
  /** Override the rc strategy for this session. */
  strategy?: Strategy | undefined;
  /** Who the session may be (focus/scope boundaryOf): a bearer token's modes bound everything it does. */
  boundary?: Boundary | undefined;
}

/** The route a library session stands for: its mode as an endpoint, a token's modes as the token's. */
export function sessionRoute(options: SessionOptions): Route {
  const token = options.boundary?.token ? { tokenModes: options.boundary.modes ?? [], tokenLabel: options.boundary.label } : {};
  return { endpoint: options.mode, strategy: options.strategy, ...token };
}

/**
 * Opens a 2025 session for a route (stdio, an HTTP initialize, the library): its scope resolved
 * by focus/scope.ts, kept in the hub's sessions until it closes.
 */
export function openSession(hub: Hub, route: Route): FrontSession {
  const session = new FrontSession(hub, route);
  hub.sessions.add(session);
  addCloseListener(session, () => hub.sessionClosed(session));
  return session;
}

/**
 * One 2025 client session: a low-level SDK `Server` (tool definitions pass through as listed, no
 * SDK rewrite) with every primitive registered once (handlers/primitives.ts), the session's focus
 * state (focus/state.ts) and the list it last announced. `tools/call` for catalog tools,
 * `prompts/get` and `resources/read` take the raw relay (fast-path.ts) after the same permit the
 * SDK handlers ask; everything else goes through the SDK handlers.
 */
export class FrontSession extends CallerBase implements OpenSession {
  readonly era = 'legacy';
  readonly server: Server;
  /** The level this session set with logging/setLevel. */
  logLevel: string | undefined;
  onclose: (() => void) | undefined;
  /** Why the gateway ended this session (its fixed mode left the config), when it did. */
  endReason: string | undefined;
  /** What this session's server advertised at initialize. */
  private readonly advertised: ServerCapabilities;
  private state: FocusState;
  private resolvedStrategy: ServedStrategy | undefined;
  /** The list the client was last told about (definitions compared by identity, then content). */
  private readonly toolList = new AnnouncedList(() => this.listSources(), sameSources);
  private checkScheduled = false;
  /** The request being handled while focus changes, so list_changed travels on its stream. */
  private activeRequest: RequestId | undefined;
  private relatedRequest: RequestId | undefined;
  private relay: FrontRelay | undefined;
  private closed = false;
  /** Tools search_tools returned in this session (for the usage record). */
  private readonly searched = new Set<string>();

  constructor(hub: Hub, route: Route) {
    const scope = resolveScope(hub.config, route, { era: 'legacy' });
    if ('refusal' in scope) throw new ConfigError(scope.refusal);
    // A fixed mode a reload took away before the client came (`serve --mode M --watch`): refused as
    // an open session of it is ended (reconfigure), not served as a mode that lists nothing.
    const gone = fixedModeGone(hub.config, scope.fixedMode === undefined ? undefined : [scope.fixedMode]);
    if (gone !== undefined) throw new ConfigError(gone);
    super(hub, route, scope);
    this.state = initialFocus(scope.mode);
    // A token's session is told only of the capabilities and instructions of the servers its modes reach.
    const { capabilities, instructions } = advertised('legacy', this.routing.upstreams);
    this.advertised = capabilities;
    this.server = new Server({ name: 'lazytools', version: VERSION }, { capabilities, instructions });
    const front: CallerFront<FrontSession> = { era: 'legacy', callerOf: () => this, run: (_caller, ctx: ServerContext, _subject, work) => work(callContext(ctx)) };
    registerPrimitives(this.server, front, { prompts: capabilities.prompts !== undefined, completions: capabilities.completions !== undefined });
    if (capabilities.logging) registerLogging(this.server, front);
    // Roots go only to the servers this session may reach (a token's servers), and only those
    // make it the session their own requests go to.
    this.server.setNotificationHandler('notifications/roots/list_changed', () => forwardRootsChanged(this, this.routing.upstreams.values()));
    this.server.oninitialized = () => {
      this.resolvedStrategy = servedStrategy(this.route.strategy ?? hub.config.strategy, 'legacy', this.server.getClientVersion()?.name);
      this.toolList.mark();
      if (this.clientCapabilities()?.roots) offerRoots(this, this.routing.upstreams.values(), hub.sessions);
    };
    this.toolList.mark();
  }

  /**
   * Connects the session to a client transport and installs the fast path. `paceBatches` (the
   * HTTP front, where clients share the gateway) hands messages read together on one per turn.
   */
  async connect(transport: Transport, options: { paceBatches?: boolean } = {}): Promise<void> {
    await this.server.connect(transport);
    const sdkMessage = transport.onmessage;
    const relay = new FrontRelay(transport);
    this.relay = relay;
    const handle = (message: Parameters<NonNullable<Transport['onmessage']>>[0], extra: Parameters<NonNullable<Transport['onmessage']>>[1]) => {
      // Records the SDK would check key by key past a bound, and `__proto__` arguments its parsing
      // would drop, are refused first (protocol/param-bounds, protocol/proto-args).
      const refused = refusedBeforeParsing(message, 'legacy');
      if (refused) return void transport.send(refused as never).catch(() => {});
      if (!fastPath(this, message, relay, this.advertised)) sdkMessage?.(message, extra);
    };
    // Messages read together (a batch) are handled one per turn, so one client's batch cannot hold the others.
    transport.onmessage = options.paceBatches ? pacedIntake(handle) : handle;
    addCloseListener(transport, () => this.dispose());
  }

  /** Ends the session because the gateway can no longer serve it as promised. */
  async end(reason: string): Promise<void> {
    this.endReason ??= reason;
    this.hub.logger.error(reason);
    await this.close();
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => {});
    this.dispose();
  }

  clientCapabilities(): ClientCapabilities | undefined {
    return this.server.getClientCapabilities();
  }

  /**
   * Sends a notification straight to the transport (not through the SDK's async path), so
   * notifications an upstream sent during a relayed call arrive before its answer.
   */
  notify(method: string, params: Record<string, unknown> | undefined, relatedRequestId?: RequestId): void {
    const transport = this.server.transport;
    if (this.closed || !transport || this.server.getClientCapabilities() === undefined) return;
    const message = { jsonrpc: '2.0', method, ...(params ? { params } : {}) } as never;
    void transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => {});
  }

  async forward(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    return (await this.server.request({ method, params } as never, looseResult, { relatedRequestId, signal, timeout: CLIENT_REQUEST_TIMEOUT_MS })) as Record<string, unknown>;
  }

  /** An upstream's prompts or resources changed: tell the client when it was told it may hear so. */
  listChanged(kind: PrimitiveKind): void {
    if (kind === 'prompts' && !this.advertised.prompts) return;
    this.notify(`notifications/${kind}/list_changed`, undefined);
  }

  /** The strategy this session is served with (`auto` resolved by client name once initialized). */
  get strategy(): ServedStrategy {
    return this.resolvedStrategy ?? servedStrategy(this.route.strategy ?? this.hub.config.strategy, 'legacy', this.server.getClientVersion()?.name);
  }

  /** The focus state (mode, group changes, discovered tools): a new object after every change. */
  get focus(): FocusState {
    return this.state;
  }

  /** Applies a focus event; visibility is re-checked and list_changed sent once if it changed. */
  override focusEvent(event: FocusEvent): void {
    const next = nextFocus(this.state, event, this.hub.config);
    if (next === this.state) return;
    this.state = next;
    this.scheduleListCheck();
  }

  /** The list's own tools: list_tool_groups left out for a client of the groups extension. */
  protected override listedOwn(): ToolDefinition[] {
    return listedOwnTools(this.ownDefinitions(), declaresGroups(this.clientCapabilities()));
  }

  /**
   * Called by the gateway after a config reload: keeps this session's mode and group changes
   * when they still fit, else starts afresh in its scope's mode; a fixed mode gone ends it.
   */
  reconfigure(): void {
    const gone = fixedModeGone(this.hub.config, this.fixedMode === undefined ? undefined : [this.fixedMode]);
    if (gone !== undefined) {
      // Never fall back: a session pinned to a (say read-only) mode must not land in another.
      void this.end(gone);
      return;
    }
    const scope = resolveScope(this.hub.config, this.route, { era: 'legacy' });
    const kept = restoreFocus(this.state, this.hub.config);
    // What search added stays only as far as the new rc lets search add (hiddenTools, maxEnabled).
    const discovered = kept && mayEnable(this.hub.config, this, this.strategy) ? kept.discovered.slice(-this.hub.config.maxDiscovered) : [];
    this.state = kept ? { ...kept, discovered } : initialFocus('refusal' in scope ? this.hub.config.defaultMode : scope.mode);
    this.catalogChanged();
  }

  /** Called by the gateway after the catalog was rebuilt. */
  catalogChanged(): void {
    this.forgetVisible();
    this.scheduleListCheck();
  }

  /** Remembers tools search returned, so later calls count as found by search. */
  override noteSearched(tools: readonly CatalogTool[]): void {
    if (!this.hub.usage) return;
    for (const tool of tools) this.searched.add(tool.id);
  }

  /** Counts a call for the usage record (search, direct or execute_tool) under the mode it ran in. */
  override recordUsage(tool: CatalogTool, via: CallVia, mode: string = this.focus.mode): void {
    this.hub.usage?.record(mode, tool.id, this.searched.has(tool.id) ? 'search' : via);
  }

  /** Runs a handler with `requestId` as the request focus changes relate to. */
  override whileHandling<T>(requestId: RequestId | undefined, handler: () => T): T {
    this.activeRequest = requestId;
    try {
      return handler();
    } finally {
      this.activeRequest = undefined;
    }
  }

  /** Coalesces changes in one microtask: one list_changed per burst, none when nothing changed. */
  private scheduleListCheck(): void {
    this.relatedRequest ??= this.activeRequest;
    if (this.checkScheduled || this.closed) return;
    this.checkScheduled = true;
    queueMicrotask(() => this.flushListCheck());
  }

  /**
   * Runs a scheduled list check now: focus_mode calls it right after its events, so the
   * notification does not wait for the status report (whose first token count loads the
   * tokenizer). A no-op when nothing is scheduled.
   */
  override flushListCheck(): void {
    if (!this.checkScheduled) return;
    const relatedRequestId = this.relatedRequest;
    this.checkScheduled = false;
    this.relatedRequest = undefined;
    this.forgetVisible();
    groupsChanged(this, relatedRequestId);
    if (!this.toolList.changed()) return;
    // The initial start fills the catalog before any list is answered (lists wait for it): no news.
    if (this.hub.ready()) return;
    if (!this.server.transport || this.server.getClientCapabilities() === undefined) return;
    // Tied to the request that caused it, the notification rides that request's HTTP stream,
    // which is open for sure; otherwise it goes to the client's standalone stream.
    this.hub.listChangedSent++;
    void this.server.notification({ method: 'notifications/tools/list_changed' }, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => {});
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.relay?.cancelAll('session closed');
    this.onclose?.();
  }
}
