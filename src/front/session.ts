import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { createActor } from 'xstate';
import { findTool, type CatalogTool, type ToolDefinition } from '../catalog/catalog.js';
import type { Strategy } from '../config/schema.js';
import { createFocusMachine, focusState, restorableSnapshot, type FocusActor, type FocusEvent, type FocusState } from '../focus/machine.js';
import { listedTools, visibleTools } from '../focus/visible.js';
import { isNotification, isRequest, type RequestId } from '../util/jsonrpc.js';
import { addCloseListener } from '../util/close.js';
import { didYouMean } from '../util/closest.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { VERSION } from '../version.js';
import { strategyFor } from './clients.js';
import { FOCUS_MODE, type ServedStrategy } from '../catalog/own-tools.js';
import { handleFocusMode } from './focus-tool.js';
import type { Gateway, SessionOptions } from './gateway.js';
import { handleMetaTool, isMetaTool } from './meta-tools.js';
import { listPage } from './paging.js';
import { readResource, RESOURCE_TEMPLATES, RESOURCES } from './resources.js';
import { errorResult } from './results.js';
import { StdioFrontTransport } from './stdio.js';

/** Calls one session may have in flight on the fast path (a bound on memory, not on work). */
const MAX_INFLIGHT = 10_000;

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How a call reached a tool: named directly, or through execute_tool. */
export type CallVia = 'direct' | 'execute_tool';

const INSTRUCTIONS =
  'lazytools curates the tools of several MCP servers. The list shows the tools of the current focus mode. ' +
  'To work on something else, call focus_mode (e.g. {"intent": "security review"}); to reach a tool that is not listed, ' +
  'call search_tools, then call it (or use execute_tool when it is not added to the list).';

/**
 * One client session: a low-level SDK `Server` (tool definitions pass through verbatim), the
 * session's focus actor, and the list it last announced. `tools/call` for catalog tools takes a
 * fast path that relays the request to the upstream without SDK parsing; everything else
 * (lazytools' own tools, refusals, errors) goes through the SDK handlers.
 */
export class FrontSession {
  readonly server: Server;
  readonly fixedMode: string | undefined;
  onclose: (() => void) | undefined;
  private actor: FocusActor;
  private readonly strategySetting: Strategy;
  private resolvedStrategy: ServedStrategy | undefined;
  /** The list the client was last told about (definitions compared by identity, then content). */
  private lastList: ToolDefinition[];
  private checkScheduled = false;
  /** The request being handled while focus changes, so list_changed travels on its stream. */
  private activeRequest: RequestId | undefined;
  private relatedRequest: RequestId | undefined;
  private readonly inflight = new Map<RequestId, { cancel(reason: string): void }>();
  private visibleCache: { key: object; state: object; tools: CatalogTool[]; ids: Set<string> } | undefined;
  private closed = false;
  /** Tools search_tools returned in this session (for the usage record). */
  private readonly searched = new Set<string>();

  constructor(
    readonly gateway: Gateway,
    options: SessionOptions = {},
  ) {
    this.fixedMode = options.mode;
    this.strategySetting = options.strategy ?? gateway.config.strategy;
    this.actor = this.createFocusActor(undefined);
    this.server = new Server(
      { name: 'lazytools', version: VERSION },
      { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const tools = this.listTools();
      if (tools.length >= LARGE_CATALOG) compactSoon();
      return listPage(tools, request.params?.cursor, (tool) => tool.name, 'tools');
    });
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.handleCall(request.params.name, request.params.arguments, extra));
    this.server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
    this.server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(this, request.params.uri));
    this.server.oninitialized = () => {
      this.resolvedStrategy = strategyFor(this.strategySetting, this.server.getClientVersion()?.name);
      this.lastList = this.listTools();
    };
    this.lastList = this.listTools();
  }

  /** Connects the session to a client transport and installs the fast path. */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    const sdkMessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.fastPath(message, transport)) sdkMessage?.(message, extra);
    };
    addCloseListener(transport, () => this.dispose());
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => {});
    this.dispose();
  }

  /** The strategy this session is served with (`auto` resolved by client name once initialized). */
  get strategy(): ServedStrategy {
    return this.resolvedStrategy ?? strategyFor(this.strategySetting, this.server.getClientVersion()?.name);
  }

  /** The focus state (mode, overrides, discovered tools). */
  get focus(): FocusState {
    return focusState(this.actor.getSnapshot());
  }

  /** Sends a focus event; visibility is re-checked and list_changed sent once if it changed. */
  send(event: FocusEvent): void {
    this.actor.send(event);
  }

  /** Catalog tools of the current mode (with overrides and discovered tools). */
  modeTools(): CatalogTool[] {
    return this.visible().tools;
  }

  /** True when the tool is part of the session's current mode. */
  inMode(tool: CatalogTool): boolean {
    return this.visible().ids.has(tool.id);
  }

  /** Catalog tools in the list the client sees: the mode's, or only `alwaysVisible` under proxy. */
  listedTools(): CatalogTool[] {
    return listedTools(this.gateway.catalog, this.gateway.config, this.focus, this.strategy, () => this.modeTools());
  }

  /** lazytools' own tools for this session's strategy (no focus_mode on fixed-mode endpoints). */
  ownDefinitions(): ToolDefinition[] {
    const tools = this.gateway.ownTools(this.strategy);
    return this.fixedMode === undefined ? tools : tools.filter((tool) => tool.name !== FOCUS_MODE);
  }

  /** The `tools/list` answer. */
  listTools(): ToolDefinition[] {
    return [...this.ownDefinitions(), ...this.listedTools().map((tool) => tool.definition)];
  }

  /**
   * Called by the gateway after a config reload: a new focus machine for the new modes and
   * groups, keeping this session's mode and overrides when they still fit.
   */
  reconfigure(): void {
    const persisted = this.actor.getPersistedSnapshot();
    this.actor.stop();
    this.actor = this.createFocusActor(persisted);
    this.catalogChanged();
  }

  /** Called by the gateway after the catalog was rebuilt. */
  catalogChanged(): void {
    this.visibleCache = undefined;
    this.scheduleListCheck();
  }

  /**
   * Calls a catalog tool by exposed name or id, after the mode's checks: read-only modes refuse
   * tools not annotated read-only; `policy.hiddenTools: reject` refuses tools outside the mode.
   */
  async callCatalogTool(name: string, args: unknown, extra: CallExtra | undefined, via: CallVia): Promise<CallToolResult> {
    const catalog = this.gateway.catalog;
    const tool = findTool(catalog, name);
    if (!tool) return errorResult(`Unknown tool "${name}".${didYouMean(name, catalog.byName.keys())} Use search_tools to find tools.`);
    const refusal = this.refusal(tool);
    if (refusal) return errorResult(refusal);
    const upstream = this.gateway.upstreamOf(tool);
    if (!upstream) return errorResult(`Tool "${name}" belongs to server "${tool.server}", which is not configured.`);
    this.recordUsage(tool, via);
    const progressToken = extra?._meta?.progressToken;
    try {
      const result = await upstream.call(
        { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> },
        {
          signal: extra?.signal,
          onProgress:
            progressToken === undefined || !extra
              ? undefined
              : (params) => void extra.sendNotification({ method: 'notifications/progress', params: { ...params, progressToken } as never }).catch(() => {}),
        },
      );
      return result as CallToolResult;
    } catch (error) {
      return errorResult(`Tool "${name}" failed: ${(error as Error).message}`);
    }
  }

  /** Remembers tools search returned, so later calls count as found by search. */
  noteSearched(tools: readonly CatalogTool[]): void {
    if (!this.gateway.usage) return;
    for (const tool of tools) this.searched.add(tool.id);
  }

  private recordUsage(tool: CatalogTool, via: CallVia): void {
    const usage = this.gateway.usage;
    if (!usage) return;
    usage.record(this.focus.mode, tool.id, this.searched.has(tool.id) ? 'search' : via);
  }

  /** Why this session may not call the tool now, or undefined when it may. */
  refusal(tool: CatalogTool): string | undefined {
    const config = this.gateway.config;
    const mode = config.modes[String(this.actor.getSnapshot().value)];
    if (mode?.readOnly && !tool.readOnly)
      return `Mode "${mode.name}" is read-only and "${tool.exposedName}" is not annotated readOnlyHint. ${this.modesWith(tool)}`;
    if (config.hiddenTools === 'reject' && !this.inMode(tool))
      return `"${tool.exposedName}" is not part of mode "${this.focus.mode}" and this gateway rejects hidden tools. ${this.modesWith(tool)}`;
    return undefined;
  }

  private modesWith(tool: CatalogTool): string {
    const modes = Object.values(this.gateway.config.modes)
      .filter((mode) => (!mode.readOnly || tool.readOnly) && mode.groups.some((group) => tool.groups.includes(group)))
      .map((mode) => mode.name);
    return modes.length > 0 ? `Modes that include it: ${modes.join(', ')} (switch with focus_mode).` : 'No mode includes it.';
  }

  private async handleCall(name: string, args: unknown, extra: CallExtra): Promise<CallToolResult> {
    try {
      if (name === FOCUS_MODE) {
        if (this.fixedMode !== undefined)
          return errorResult(`This endpoint serves the fixed mode "${this.fixedMode}"; connect to /mcp (or serve without --mode) to switch modes.`);
        return this.whileHandling(extra.requestId, () => handleFocusMode(this, args));
      }
      if (isMetaTool(name) && this.ownDefinitions().some((tool) => tool.name === name))
        return await this.whileHandling(extra.requestId, () => handleMetaTool(this, name, args, extra));
      return await this.callCatalogTool(name, args, extra, 'direct');
    } catch (error) {
      return errorResult(`lazytools could not handle "${name}": ${(error as Error).message}`);
    }
  }

  /** Runs a handler with `requestId` as the request focus changes relate to. */
  private whileHandling<T>(requestId: RequestId, handler: () => T): T {
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
  private fastPath(message: unknown, transport: Transport): boolean {
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const id = message.params?.requestId as RequestId | undefined;
      const handle = id === undefined ? undefined : this.inflight.get(id);
      if (!handle || id === undefined) return false;
      this.inflight.delete(id);
      handle.cancel(String(message.params?.reason ?? 'cancelled by client'));
      return true;
    }
    if (!isRequest(message) || message.method !== 'tools/call') return false;
    const params = message.params;
    if (!params || typeof params.name !== 'string' || params.task !== undefined) return false;
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return false;
    const tool = this.gateway.catalog.byName.get(params.name);
    if (!tool || this.refusal(tool)) return false;
    const upstream = this.gateway.upstreamOf(tool);
    if (!upstream || upstream.status !== 'ready') return false;
    const id = message.id;
    const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (progress: Record<string, unknown>) =>
            void transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken: token } } as never, { relatedRequestId: id }).catch(() => {});
    if (this.inflight.size >= MAX_INFLIGHT) return false;
    this.recordUsage(tool, 'direct');
    // `handle` is read only when the client cancels, after relay() returned.
    const entry = { cancel: (reason: string) => handle.cancel(reason) };
    this.inflight.set(id, entry);
    const finish = (write: () => void) => {
      if (this.inflight.get(id) !== entry) return;
      this.inflight.delete(id);
      // A response right behind a progress notification can land in the client's same read, and
      // the SDK client then drops that notification: answer on the next turn instead.
      if (token === undefined) write();
      else setImmediate(write);
    };
    const raw = transport instanceof StdioFrontTransport ? transport : undefined;
    const handle = upstream.relay(
      { ...params, name: tool.name },
      (error, result) =>
        finish(() => {
          const answer = error ? errorResult(`Tool "${tool.exposedName}" failed: ${error.message}`) : result;
          void transport.send({ jsonrpc: '2.0', id, result: answer } as never, { relatedRequestId: id }).catch(() => {});
        }),
      onProgress,
      undefined,
      raw && ((prefix) => finish(() => raw.sendRawLine(`${prefix},"id":${JSON.stringify(id)}}`))),
    );
    return true;
  }

  private createFocusActor(persisted: unknown): FocusActor {
    const config = this.gateway.config;
    const options = {
      modes: Object.keys(config.modes),
      groups: Object.keys(config.groups),
      defaultMode: this.fixedMode !== undefined && config.modes[this.fixedMode] ? this.fixedMode : config.defaultMode,
    };
    const machine = createFocusMachine({ ...options, maxDiscovered: config.maxDiscovered }).provide({ actions: { changed: () => this.scheduleListCheck() } });
    const snapshot = restorableSnapshot(persisted, options);
    return createActor(machine, snapshot ? { snapshot: snapshot as never } : {}).start();
  }

  private visible(): { tools: CatalogTool[]; ids: Set<string> } {
    const snapshot = this.actor.getSnapshot();
    const catalog = this.gateway.catalog;
    if (this.visibleCache && this.visibleCache.key === catalog && this.visibleCache.state === snapshot) return this.visibleCache;
    const tools = visibleTools(catalog, this.gateway.config, focusState(snapshot));
    const cache = { key: catalog, state: snapshot, tools, ids: new Set(tools.map((tool) => tool.id)) };
    this.visibleCache = cache;
    return cache;
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
    this.visibleCache = undefined;
    const list = this.listTools();
    if (sameList(list, this.lastList)) return;
    this.lastList = list;
    if (!this.server.transport || this.server.getClientCapabilities() === undefined) return;
    // Tied to the request that caused it, the notification rides that request's HTTP stream,
    // which is open for sure; otherwise it goes to the client's standalone stream.
    void this.server.notification({ method: 'notifications/tools/list_changed' }, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => {});
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handle of this.inflight.values()) handle.cancel('session closed');
    this.inflight.clear();
    this.actor.stop();
    this.onclose?.();
  }
}

/**
 * Same tools in the same order? Unchanged definitions are the same objects (the catalog keeps
 * them across rebuilds), so this is a pointer walk; only replaced objects are compared by content.
 */
function sameList(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x?.name !== y?.name || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}
