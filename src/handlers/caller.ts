import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';
import type { Catalog, CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Boundary } from '../focus/policy.js';
import type { Route } from '../focus/scope.js';
import type { FocusEvent, FocusState } from '../focus/state.js';
import type { Era } from '../protocol/era.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { SearchIndex } from '../search/engine.js';
import type { EmbeddingSearch } from '../search/embedding-search.js';
import type { UsageRecorder } from '../usage/record.js';
import type { CallOrigin, PromptDefinition, ResourceDefinition, TemplateDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import type { Logger } from '../util/log.js';
import type { TemplateMatcher } from './uri-template.js';
import type { PromptRoute } from '../catalog/prompt-names.js';

/*
 * The one interface every handler is written against: a Caller, a 2025 session or one 2026-07-28
 * request (callers/), and how a server reaches it (CallerFront). This module imports no handler
 * and no caller: handlers depend on these shapes, callers implement them, imports run one way.
 */

/**
 * One caller as every handler sees it: its scope (mode, fixed mode, boundary and strategy,
 * resolved once by focus/scope.ts), its catalog view (what its list holds and what it may call),
 * its focus (a session's changes; a request's never change), and how to reach its client.
 */
export interface Caller {
  /** `legacy`: a 2025 session; `modern`: one 2026-07-28 request (nothing kept between requests). */
  readonly era: Era;
  /** What the transport knew about the caller (path, served modes, token, where it is served). */
  readonly route: Route;
  readonly hub: CatalogHub;
  /** The upstreams, prompts and resources this caller may reach (a token's only; callers/routing.ts ScopedRouting). */
  readonly routing: RoutingContext;
  readonly boundary: Boundary | undefined;
  /** Set when the caller's mode cannot change (an endpoint, `serve --mode`, a token of one mode). */
  readonly fixedMode: string | undefined;
  readonly mode: string;
  readonly focus: FocusState;
  readonly strategy: ServedStrategy;
  /** True for a 2026-07-28 request: its list may not vary with anything the client did. */
  readonly stateless: boolean;
  /** Why this caller may not call the tool now, or undefined when it may (focus/policy). */
  refusal(tool: CatalogTool): string | undefined;
  /** True when the tool is part of the caller's mode (shown, or held back by its budget). */
  inMode(tool: CatalogTool): boolean;
  /** Catalog tools its `tools/list` carries (under proxy, only `alwaysVisible` ones). */
  listedTools(): CatalogTool[];
  /** Catalog tools of its mode as it stands (a session's groups and discoveries included). */
  modeTools(): CatalogTool[];
  /** lazytools' own tools for its strategy (no focus_mode where the mode is fixed). */
  ownDefinitions(): ToolDefinition[];
  /** The `tools/list` entries: own definitions, then catalog tools (made per page, see handlers/tools). */
  listEntries(): ListEntry[];
  /** Applies a focus event (a request ignores it: its list may not change). */
  focusEvent(event: FocusEvent): void;
  /** Announces a list change the focus events caused, now (a request has none). */
  flushListCheck(): void;
  /** Runs a handler with `requestId` as the request focus changes relate to. */
  whileHandling<T>(requestId: RequestId | undefined, handler: () => T): T;
  noteSearched(tools: readonly CatalogTool[]): void;
  /** Counts a call for the usage record in `mode` (the caller's own unless execute_tool named another). */
  recordUsage(tool: CatalogTool, via: CallVia, mode?: string): void;
  /** The origin upstream requests carry for a request of this caller. */
  origin(requestId: RequestId | undefined): CallOrigin;
  /** The capabilities the client declared (initialize's, or the request's `_meta`). */
  clientCapabilities(): ClientCapabilities | undefined;
  /**
   * What its groups (handlers/groups groupsOf) depend on besides the catalog and config, as a cache
   * key: callers with the same key see the same groups.
   */
  groupsKey(): unknown;
}

/**
 * A 2025 session as the hub reaches it outside its own requests: its log level, notifications to
 * its client, and requests to its client (an upstream's sampling, elicitation or roots).
 */
export interface SessionLink {
  /** The level this session set with logging/setLevel (undefined: everything). */
  logLevel: string | undefined;
  origin(requestId: RequestId | undefined): CallOrigin;
  clientCapabilities(): ClientCapabilities | undefined;
  /** Sends a notification to this session's client (on the request's stream when related). */
  notify(method: string, params: Record<string, unknown> | undefined, relatedRequestId?: RequestId): void;
  /** Sends a request to this session's client and resolves with its answer, verbatim. */
  forward(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/**
 * How a front server reaches its callers: the era it speaks, the caller of a request (a
 * session's server always has the same one), and how one unit of work runs for that caller (a
 * 2026-07-28 request wraps it in input rounds and fails it as a whole when the client lacks a
 * capability an upstream needed). Each primitive registers once over it (handlers/*).
 */
export interface CallerFront<C extends Caller = Caller> {
  readonly era: Era;
  callerOf(ctx: ServerContext): C;
  /**
   * Runs `work` for the caller. `subject` names what an input round answers (`tools/call x`);
   * undefined: no round can be opened (the work is answered as it ends).
   */
  run<R>(caller: C, ctx: ServerContext, subject: string | undefined, work: (call: CallContext) => Promise<R>): Promise<unknown>;
  /** What list results carry besides their items (2026-07-28: `ttlMs`, `cacheScope`). */
  listExtras?(): Record<string, unknown>;
}

/**
 * One request as the handlers see it: its id, its cancellation, how to report progress, and
 * what goes upstream with it. Free of SDK types, so any front can build one.
 */
export interface CallContext {
  readonly requestId: RequestId | undefined;
  readonly signal: AbortSignal | undefined;
  /** The client's progress token, when it asked for progress. */
  readonly progressToken: unknown;
  /** Sends a notification related to this request (progress). */
  notify(method: string, params: Record<string, unknown>): void;
  /**
   * A 2026-07-28 request: the upstream's own input_required results go back to the client as
   * sent, and `retry` (a retry's inputResponses and requestState, the client's declared
   * capabilities, merged into the request's own `_meta`) goes with the upstream request.
   */
  readonly passInput?: { retry(meta?: unknown): Record<string, unknown> } | undefined;
}

/** How a catalog tool was called, for the usage record. */
export type CallVia = 'direct' | 'execute_tool';

/** A `tools/list` entry: one of lazytools' own definitions, or a catalog tool (listed on demand). */
export type ListEntry = ToolDefinition | CatalogTool;

/** The gateway as handlers read it: catalog, config, search, usage and the servers' states. */
export interface CatalogHub {
  readonly catalog: Catalog;
  readonly config: ResolvedConfig;
  readonly search: SearchIndex;
  /** Meaning for search from an embeddings endpoint (rc `discovery.embeddings`), when one is set up. */
  readonly embeddings?: Pick<EmbeddingSearch, 'lookup'> | undefined;
  /** Tools held back because they drifted from the lock under rc `pin` (by exposed name and id), with why. */
  readonly driftHeld: ReadonlyMap<string, string>;
  readonly usage: UsageRecorder | undefined;
  readonly logger: Logger;
  upstreamOf(tool: CatalogTool): Upstream | undefined;
  /** lazytools' own tools; focus_mode names `modes` when given (a bearer token's), else every mode. */
  ownTools(strategy: ServedStrategy, modes?: readonly string[]): ToolDefinition[];
  serverStates(): ServerState[];
}

/** A server as operators see it (`/readyz`, focus_mode status, metrics). */
export interface ServerState {
  name: string;
  state: 'up' | 'down' | 'failed' | 'lazy' | 'starting';
  reason?: string;
}

/** Where an exposed prompt name leads: the server and the prompt's own name there (catalog/prompt-names). */
export type { PromptRoute };

/** Every upstream's prompts under unique names, and where each name leads. */
export interface PromptIndex {
  list: PromptDefinition[];
  byName: Map<string, PromptRoute>;
}

/** Upstream resources and templates (lazytools' own first), and who owns a URI. */
export interface ResourceIndex {
  resources: ResourceDefinition[];
  templates: TemplateDefinition[];
  /** The server that listed this exact URI (the first in rc order). */
  exact: Map<string, string>;
  /**
   * Every upstream resource with the server that listed it, in rc order, those whose URI an earlier
   * server took included: a caller that reaches only some servers gives each URI to the first of them.
   */
  listed: ReadonlyArray<{ server: string; resource: ResourceDefinition }>;
  /** Templates in rc order with their matchers. */
  matchers: { server: string; uriTemplate: string; pattern: TemplateMatcher }[];
}

/** Resource subscriptions as the resources handlers use them (handlers/subscriptions.ts). */
export interface SubscriptionTable {
  subscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void>;
  unsubscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void>;
}

/**
 * What prompts, resources, completion and logging route over: the upstreams and the indexes
 * built from their lists. Narrow on purpose: a handler cannot reach focus state through it.
 */
export interface RoutingContext {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly subscriptions: SubscriptionTable;
  prompts(): PromptIndex;
  resources(): ResourceIndex;
  /** Re-sends the lowest log level any session asked for to the upstreams that log. */
  applyLogLevels(): Promise<void>;
}

/** How a failed relayed request is answered: a result (tools: isError) or a JSON-RPC error. */
export type RelayFailure = (error: { message: string; rpcError?: { code: number; message: string; data?: unknown } | undefined }) =>
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } };

/**
 * Where a 2025 session's request can be relayed without the SDK: the upstream, the params it
 * receives, how a failure is answered, and what to record once it is sent. Each primitive's
 * module decides its own (tools.ts, prompts.ts, resources.ts) with the same permit the SDK path
 * asks; undefined leaves the request to the SDK handlers.
 */
export interface RelayRoute {
  upstream: Upstream;
  params: Record<string, unknown>;
  failure: RelayFailure;
  record?: () => void;
}
