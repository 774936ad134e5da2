import { Server, type CallToolResult, type ClientCapabilities, type ServerCapabilities, type Transport } from '@modelcontextprotocol/server';
import { createActor } from 'xstate';
import { z } from 'zod';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import type { Strategy } from '../config/schema.js';
import { createFocusMachine, focusState, restorableSnapshot, type FocusActor, type FocusEvent, type FocusState } from '../focus/machine.js';
import { callRefusal, fixedModeGone, modeNamed, type Boundary, type PolicySubject } from '../focus/policy.js';
import { isNotification, isRequest, type RequestId } from '../util/jsonrpc.js';
import { addCloseListener } from '../util/close.js';
import { VERSION } from '../util/version.js';
import { strategyFor } from './clients.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import { ToolLists } from '../handlers/tool-lists.js';
import { forwardRootsChanged, offerRoots } from './client-requests.js';
import { registerCompletion } from '../handlers/completion.js';
import { scopedRouting, type CallVia, type ListingSession, type RelayRoute, type RoutingContext, type SessionContext, type SessionHub, type SessionOptions } from '../handlers/context.js';
import { registerLogging } from '../handlers/logging.js';
import { handleFocusMode } from '../handlers/focus-tool.js';
import { promptRelayRoute, registerPrompts } from '../handlers/prompts.js';
import { FrontRelay } from './relay.js';
import { readResource, registerResources, resourceRelayRoute } from '../handlers/resources.js';
import { registerTools, toolRelayRoute } from '../handlers/tools.js';
import { AnnouncedList, sameSources } from '../handlers/list-changes.js';
import { declaresGroups, groupsChanged, listedOwnTools, registerGroups, rememberShown } from '../handlers/groups-ext.js';
import { offeredCapabilities, serverCapabilities, serverInstructions } from '../handlers/capabilities.js';
import type { PrimitiveKind } from '../upstream/upstream.js';
import type { CallOrigin } from '../upstream/primitives.js';

const looseResult = z.looseObject({});
/** How long a client may take to answer an upstream's request (a user filling in a form). */
const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/**
 * One client session: a low-level SDK `Server` (tool definitions pass through as listed, no SDK rewrite), the
 * session's focus actor, and the list it last announced. `tools/call` for catalog tools,
 * `prompts/get` and `resources/read` take the relay (relay.ts) to the upstream without SDK
 * parsing; everything else (lazytools' own tools, refusals, errors, the other primitives' routing
 * in prompts.ts, resources.ts, completion.ts, logging.ts, client-requests.ts) goes through the
 * SDK handlers.
 */
export class FrontSession extends ToolLists implements SessionContext, ListingSession, PolicySubject {
  readonly server: Server;
  /** The level this session set with logging/setLevel. */
  logLevel: string | undefined;
  /** What this session's server advertised at initialize. */
  private readonly advertised: ServerCapabilities;
  readonly fixedMode: string | undefined;
  /** Who this session may be (its token's modes; policy.boundaryOf), asked by every path. */
  readonly boundary: Boundary | undefined;
  onclose: (() => void) | undefined;
  /** Why the gateway ended this session (its fixed mode left the config), when it did. */
  endReason: string | undefined;
  private actor: FocusActor;
  private readonly strategySetting: Strategy;
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

  constructor(
    readonly gateway: SessionHub,
    options: SessionOptions = {},
  ) {
    super();
    this.fixedMode = options.mode;
    this.boundary = options.boundary;
    this.strategySetting = options.strategy ?? gateway.config.strategy;
    this.actor = this.createFocusActor(undefined);
    const capabilities = serverCapabilities('legacy', offeredCapabilities(gateway.upstreams.values()));
    this.advertised = capabilities;
    // A token's session reads only the instructions of the servers its modes reach.
    this.server = new Server({ name: 'lazytools', version: VERSION }, { capabilities, instructions: serverInstructions('legacy', this.routing.upstreams.values()) });
    registerTools(this.server, () => this);
    registerGroups(this.server, () => (declaresGroups(this.clientCapabilities()) ? this : undefined), undefined, rememberShown);
    registerResources(this.server, this, (uri) => readResource(this, uri));
    if (capabilities.prompts) registerPrompts(this.server, this);
    if (capabilities.completions) registerCompletion(this.server, this);
    if (capabilities.logging) registerLogging(this.server, this);
    this.server.setNotificationHandler('notifications/roots/list_changed', () => forwardRootsChanged(this, gateway.upstreams.values()));
    this.server.oninitialized = () => {
      this.resolvedStrategy = strategyFor(this.strategySetting, this.server.getClientVersion()?.name);
      this.toolList.mark();
      if (this.clientCapabilities()?.roots) offerRoots(this, gateway.upstreams.values(), gateway.sessions);
    };
    this.toolList.mark();
  }

  /** Connects the session to a client transport and installs the fast path. */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    const sdkMessage = transport.onmessage;
    const relay = new FrontRelay(transport);
    this.relay = relay;
    transport.onmessage = (message, extra) => {
      if (!this.fastPath(message, relay)) sdkMessage?.(message, extra);
    };
    addCloseListener(transport, () => this.dispose());
  }

  /** Ends the session because the gateway can no longer serve it as promised. */
  async end(reason: string): Promise<void> {
    this.endReason ??= reason;
    this.gateway.logger.error(reason);
    await this.close();
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => {});
    this.dispose();
  }

  /** The gateway as the routing modules see it (scoped to a token's servers). */
  get routing(): RoutingContext {
    return scopedRouting(this.gateway, this.boundary);
  }

  origin(requestId: RequestId | undefined): CallOrigin {
    return { session: this, requestId };
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
    return this.resolvedStrategy ?? strategyFor(this.strategySetting, this.server.getClientVersion()?.name);
  }

  /** The focus state (mode, overrides, discovered tools). */
  get focus(): FocusState {
    return focusState(this.actor.getSnapshot());
  }

  /** The current mode's name. */
  get mode(): string {
    return String(this.actor.getSnapshot().value);
  }

  /** Sends a focus event; visibility is re-checked and list_changed sent once if it changed. */
  focusEvent(event: FocusEvent): void {
    this.actor.send(event);
  }

  /** The list's own tools: list_tool_groups left out for a client of the groups extension. */
  protected override listedOwn(): ToolDefinition[] {
    return listedOwnTools(this.ownDefinitions(), declaresGroups(this.clientCapabilities()));
  }

  /** The focus actor's snapshot: a new one after every focus change. */
  protected focusKey(): object {
    return this.actor.getSnapshot();
  }

  /**
   * Called by the gateway after a config reload: a new focus machine for the new modes and
   * groups, keeping this session's mode and overrides when they still fit.
   */
  reconfigure(): void {
    const gone = fixedModeGone(this.gateway.config, this.fixedMode === undefined ? undefined : [this.fixedMode]);
    if (gone !== undefined) {
      // Never fall back: a session pinned to a (say read-only) mode must not land in another.
      void this.end(gone);
      return;
    }
    const persisted = this.actor.getPersistedSnapshot();
    this.actor.stop();
    this.actor = this.createFocusActor(persisted);
    this.catalogChanged();
  }

  /** Called by the gateway after the catalog was rebuilt. */
  catalogChanged(): void {
    this.forgetVisible();
    this.scheduleListCheck();
  }

  /** Remembers tools search returned, so later calls count as found by search. */
  noteSearched(tools: readonly CatalogTool[]): void {
    if (!this.gateway.usage) return;
    for (const tool of tools) this.searched.add(tool.id);
  }

  /** Counts a call for the usage record (search, direct or execute_tool). */
  recordUsage(tool: CatalogTool, via: CallVia): void {
    const usage = this.gateway.usage;
    if (!usage) return;
    usage.record(this.focus.mode, tool.id, this.searched.has(tool.id) ? 'search' : via);
  }

  /** Why this session may not call the tool now, or undefined when it may (see focus/policy). */
  refusal(tool: CatalogTool): string | undefined {
    return callRefusal(this.gateway.config, this, tool);
  }

  /** focus_mode in a session: switches mode or groups (handlers/focus-tool). */
  focusMode(args: unknown): CallToolResult {
    return handleFocusMode(this, args);
  }

  /** Runs a handler with `requestId` as the request focus changes relate to. */
  whileHandling<T>(requestId: RequestId | undefined, handler: () => T): T {
    this.activeRequest = requestId;
    try {
      return handler();
    } finally {
      this.activeRequest = undefined;
    }
  }

  /**
   * Relays a permitted `tools/call` for a catalog tool straight to its running upstream: no SDK
   * parsing either way, the result goes back as the upstream sent it. Returns false to leave the
   * message to the SDK (own tools, refusals, stopped upstreams, malformed requests).
   */
  private fastPath(message: unknown, relay: FrontRelay): boolean {
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const id = message.params?.requestId as RequestId | undefined;
      return id !== undefined && relay.cancel(id, String(message.params?.reason ?? 'cancelled by client'));
    }
    if (!isRequest(message) || relay.full) return false;
    const params = message.params;
    if (!params || params.task !== undefined) return false;
    const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const route = this.fastRoute(message.method, params);
    if (!route || route.upstream.status !== 'ready') return false;
    route.record?.();
    relay.send({ id: message.id, upstream: route.upstream, method: message.method, params: route.params, progressToken: token, origin: this.origin(message.id), failure: route.failure });
    return true;
  }

  /** Where a request can be relayed without the SDK; each primitive's module decides its own. */
  private fastRoute(method: string, params: Record<string, unknown>): RelayRoute | undefined {
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined;
    if (method === 'tools/call') return toolRelayRoute(this, params);
    if (method === 'prompts/get') return this.advertised.prompts ? promptRelayRoute(this, params) : undefined;
    if (method === 'resources/read') return resourceRelayRoute(this, params);
    return undefined;
  }

  private createFocusActor(persisted: unknown): FocusActor {
    const config = this.gateway.config;
    const options = {
      modes: Object.keys(config.modes),
      groups: Object.keys(config.groups),
      // A fixed mode is checked by createSession and reconfigure: it is never swapped for another.
      // A token's session starts (and lands after a reload) in the token's first mode.
      defaultMode: this.fixedMode ?? this.boundary?.modes?.find((name) => modeNamed(config, name)) ?? config.defaultMode,
    };
    const machine = createFocusMachine({ ...options, maxDiscovered: config.maxDiscovered }).provide({ actions: { changed: () => this.scheduleListCheck() } });
    const snapshot = restorableSnapshot(persisted, options);
    return createActor(machine, snapshot ? { snapshot: snapshot as never } : {}).start();
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
  flushListCheck(): void {
    if (!this.checkScheduled) return;
    const relatedRequestId = this.relatedRequest;
    this.checkScheduled = false;
    this.relatedRequest = undefined;
    this.forgetVisible();
    groupsChanged(this, relatedRequestId);
    if (!this.toolList.changed()) return;
    // The initial start fills the catalog before any list is answered (lists wait for it): no news.
    if (this.gateway.ready()) return;
    if (!this.server.transport || this.server.getClientCapabilities() === undefined) return;
    // Tied to the request that caused it, the notification rides that request's HTTP stream,
    // which is open for sure; otherwise it goes to the client's standalone stream.
    this.gateway.listChangedSent++;
    void this.server.notification({ method: 'notifications/tools/list_changed' }, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => {});
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.relay?.cancelAll('session closed');
    this.actor.stop();
    this.onclose?.();
  }
}
