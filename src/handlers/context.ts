import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/server';
import type { Catalog, CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Strategy } from '../config/schema.js';
import type { FocusEvent, FocusState } from '../focus/machine.js';
import { boundaryServers, type Boundary } from '../focus/policy.js';
import type { SearchIndex } from '../search/engine.js';
import type { EmbeddingSearch } from '../search/embedding-search.js';
import type { UsageRecorder } from '../usage/record.js';
import type { CallOrigin, PromptDefinition, ResourceDefinition, TemplateDefinition } from '../upstream/primitives.js';
import { UpstreamError, type Upstream } from '../upstream/upstream.js';
import type { RequestId } from '../util/jsonrpc.js';
import type { Logger } from '../util/log.js';
import { ErrorCode, rpcError } from '../protocol/errors.js';
import type { TemplateMatcher } from './uri-template.js';

/*
 * The narrow interfaces the handler modules (tools, calls, focus_mode, meta-tools, prompts,
 * resources, completion, logging, client requests) are written against. This module imports no
 * handler, session or gateway module: handlers depend on these shapes, the session and the
 * gateway (the hub) implement them, and imports run one way.
 */

/** Where an exposed prompt name leads: the server and the prompt's own name there. */
export interface PromptRoute {
  server: string;
  name: string;
}

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
  /** Templates in rc order with their matchers. */
  matchers: { server: string; uriTemplate: string; pattern: TemplateMatcher }[];
}

/** Resource subscriptions as the resources handlers use them (front/resources Subscriptions). */
export interface SubscriptionTable {
  subscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void>;
  unsubscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void>;
}

/** How a failed relayed request is answered: a result (tools: isError) or a JSON-RPC error. */
export type RelayFailure = (error: UpstreamError) => { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/**
 * Where a request can be relayed without the SDK: the upstream, the params it receives, how a
 * failure is answered, and what to record once it is sent. Each primitive's module decides its
 * own (tools.ts, prompts.ts, resources.ts); undefined leaves the request to the SDK handlers.
 */
export interface RelayRoute {
  upstream: Upstream;
  params: Record<string, unknown>;
  failure: RelayFailure;
  record?: () => void;
}

/** A relayed prompts/get or resources/read that failed: the upstream's own error, verbatim. */
export function relayError(error: UpstreamError): { error: { code: number; message: string; data?: unknown } } {
  return { error: error.rpcError ?? { code: ErrorCode.InternalError, message: error.message } };
}

/** A server as operators see it (`/readyz`, focus_mode status, metrics). */
export interface ServerState {
  name: string;
  state: 'up' | 'down' | 'failed' | 'lazy' | 'starting';
  reason?: string;
}

/** How a catalog tool was called, for the usage record. */
export type CallVia = 'direct' | 'execute_tool';

/** What a session is opened with (an HTTP endpoint, a token, `serve --mode`). */
export interface SessionOptions {
  /** Serve this mode only: the list never varies per connection, and focus_mode is not offered. */
  mode?: string | undefined;
  /** Override the rc strategy for this endpoint. */
  strategy?: Strategy | undefined;
  /** Who the session may be (policy.boundaryOf): a bearer token's modes bound everything it does. */
  boundary?: Boundary | undefined;
}

/**
 * What the routing modules (prompts, resources, completion, logging, client requests) need from
 * the gateway: the upstreams and the indexes built from their lists. Narrow on purpose: a handler
 * cannot reach focus state or the tool catalog through it.
 */
export interface RoutingContext {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly subscriptions: SubscriptionTable;
  prompts(): PromptIndex;
  resources(): ResourceIndex;
  /** Re-sends the lowest log level any session asked for to the upstreams that log. */
  applyLogLevels(): Promise<void>;
}

/** The hub (front/gateway) as the tool handlers see it: catalog, config, search, routing. */
export interface HubView extends RoutingContext {
  readonly catalog: Catalog;
  readonly config: ResolvedConfig;
  readonly search: SearchIndex;
  /** Meaning for search from an embeddings endpoint (rc `discovery.embeddings`), when one is set up. */
  readonly embeddings?: Pick<EmbeddingSearch, 'lookup'> | undefined;
  /** Tools held back by rc `pin`, by exposed name and id, with why. */
  readonly heldBack: ReadonlyMap<string, string>;
  readonly usage: UsageRecorder | undefined;
  readonly logger: Logger;
  upstreamOf(tool: CatalogTool): Upstream | undefined;
  ownTools(strategy: ServedStrategy): ToolDefinition[];
  serverStates(): ServerState[];
}

/** The hub as a 2025 session needs it besides the handlers' view (capabilities, the session set). */
export interface SessionHub extends HubView {
  readonly sessions: ReadonlySet<object>;
  /** list_changed notifications sent to sessions (metrics). */
  listChangedSent: number;
  /** The initial start while it runs (lists wait for it), else undefined. */
  ready(): Promise<void> | undefined;
}

/**
 * Whoever serves lazytools' own tools and catalog calls: a 2025 session (front/session) or one
 * stateless 2026-07-28 request's view (front/modern/view).
 */
export interface ToolSession {
  readonly gateway: HubView;
  readonly boundary: Boundary | undefined;
  readonly fixedMode: string | undefined;
  readonly mode: string;
  readonly focus: FocusState;
  readonly strategy: ServedStrategy;
  /** Why this caller may not call the tool now, or undefined when it may (focus/policy). */
  refusal(tool: CatalogTool): string | undefined;
  recordUsage(tool: CatalogTool, via: CallVia): void;
  origin(requestId: RequestId | undefined): CallOrigin;
  inMode(tool: CatalogTool): boolean;
  /** Sends an event to the caller's focus actor (a stateless request's view ignores it). */
  focusEvent(event: FocusEvent): void;
  noteSearched(tools: readonly CatalogTool[]): void;
  ownDefinitions(): ToolDefinition[];
  listedTools(): CatalogTool[];
  modeTools(): CatalogTool[];
}

/**
 * The one view the tools handlers (tools/list, tools/call: handlers/tools) are written against:
 * a 2025 session or one 2026-07-28 request's view. What differs by era stays behind it: whether
 * focus changes relate to a request, and what focus_mode does once policy allows it.
 */
export interface ToolsView extends ToolSession {
  /** The `tools/list` entries: own definitions, then catalog tools (listed per page, see listEntry). */
  listEntries(): ListEntry[];
  /** Runs a handler with `requestId` as the request focus changes relate to (a request's view just runs it). */
  whileHandling<T>(requestId: RequestId | undefined, handler: () => T): T;
  /** focus_mode once policy allows it: a switch in a session, "how to reach" a mode for a request. */
  focusMode(args: unknown): CallToolResult;
}

/** A `tools/list` entry: one of lazytools' own definitions, or a catalog tool (listed on demand, see tool-lists). */
export type ListEntry = ToolDefinition | CatalogTool;

/** A 2025 session as tools/list, tools/call and focus_mode see it. */
export interface ListingSession extends ToolsView {
  /** Sends list_changed now when a focus change scheduled one. */
  flushListCheck(): void;
}

/** One client session as the routing modules see it. */
export interface SessionContext {
  readonly routing: RoutingContext;
  /** The level this session set with logging/setLevel (undefined: everything). */
  logLevel: string | undefined;
  /** The origin upstream requests carry for a front request of this session. */
  origin(requestId: RequestId | undefined): CallOrigin;
  clientCapabilities(): ClientCapabilities | undefined;
  /** Sends a notification to this session's client (on the request's stream when related). */
  notify(method: string, params: Record<string, unknown> | undefined, relatedRequestId?: RequestId): void;
  /** Sends a request to this session's client and resolves with its answer, verbatim. */
  forward(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** Turns an upstream failure into the error the client receives (the upstream's own, verbatim). */
export function upstreamFailure(error: unknown): Error {
  if (error instanceof UpstreamError && error.rpcError) return rpcError(error.rpcError.code, error.rpcError.message, error.rpcError.data);
  return rpcError(ErrorCode.InternalError, (error as Error).message);
}

const OWN_SCHEME = 'lazytools://';

/** The gateway as a scoped routing context needs it. */
interface Scopable extends RoutingContext {
  readonly catalog: Catalog;
  readonly config: ResolvedConfig;
}

/**
 * The routing context (prompts, resources, completion, subscriptions, logging) of a caller a
 * bearer token bounds: only the upstreams one of the token's modes reaches (policy.boundaryServers),
 * so a token cannot list, read or complete another server's prompts and resources. lazytools' own
 * `lazytools://` resources stay (their contents are scoped where they are read). Derived lists are
 * cached until the catalog, the config or an upstream's list changes.
 */
export class ScopedRouting implements RoutingContext {
  private scope: { catalog: Catalog; config: ResolvedConfig; servers: ReadonlySet<string>; upstreams: ReadonlyMap<string, Upstream> } | undefined;
  private promptScope: { source: PromptIndex; servers: ReadonlySet<string>; index: PromptIndex } | undefined;
  private resourceScope: { source: ResourceIndex; servers: ReadonlySet<string>; index: ResourceIndex } | undefined;

  constructor(
    private readonly gateway: Scopable,
    private readonly boundary: Boundary,
  ) {}

  get subscriptions(): SubscriptionTable {
    return this.gateway.subscriptions;
  }

  /** The upstreams the boundary reaches. */
  get upstreams(): ReadonlyMap<string, Upstream> {
    return this.current().upstreams;
  }

  applyLogLevels(): Promise<void> {
    return this.gateway.applyLogLevels();
  }

  prompts(): PromptIndex {
    const source = this.gateway.prompts();
    const { servers } = this.current();
    if (this.promptScope?.source === source && this.promptScope.servers === servers) return this.promptScope.index;
    const byName = new Map([...source.byName].filter(([, route]) => servers.has(route.server)));
    const index = { list: source.list.filter((prompt) => byName.has(prompt.name)), byName };
    this.promptScope = { source, servers, index };
    return index;
  }

  resources(): ResourceIndex {
    const source = this.gateway.resources();
    const { servers } = this.current();
    if (this.resourceScope?.source === source && this.resourceScope.servers === servers) return this.resourceScope.index;
    const exact = new Map([...source.exact].filter(([, server]) => servers.has(server)));
    const matchers = source.matchers.filter((matcher) => servers.has(matcher.server));
    const templates = new Set(matchers.map((matcher) => matcher.uriTemplate));
    const index: ResourceIndex = {
      resources: source.resources.filter((resource) => resource.uri.startsWith(OWN_SCHEME) || exact.has(resource.uri)),
      templates: source.templates.filter((template) => template.uriTemplate.startsWith(OWN_SCHEME) || templates.has(template.uriTemplate)),
      exact,
      matchers,
    };
    this.resourceScope = { source, servers, index };
    return index;
  }

  private current(): NonNullable<ScopedRouting['scope']> {
    const { catalog, config } = this.gateway;
    if (this.scope?.catalog === catalog && this.scope.config === config) return this.scope;
    const servers = boundaryServers(catalog, config, this.boundary) ?? new Set(this.gateway.upstreams.keys());
    const upstreams = new Map([...this.gateway.upstreams].filter(([name]) => servers.has(name)));
    this.scope = { catalog, config, servers, upstreams };
    return this.scope;
  }
}

const shared = new WeakMap<Scopable, Map<string, ScopedRouting>>();

/**
 * The routing context for a boundary: the gateway itself when no token bounds it, else one scoped
 * context per set of token modes, shared by the requests and sessions of that token (so a
 * stateless request does not recompute the token's servers).
 */
export function scopedRouting(gateway: Scopable, boundary: Boundary | undefined): RoutingContext {
  if (!boundary?.token) return gateway;
  let byModes = shared.get(gateway);
  if (!byModes) shared.set(gateway, (byModes = new Map()));
  const key = (boundary.modes ?? []).join('\n');
  let scoped = byModes.get(key);
  if (!scoped) byModes.set(key, (scoped = new ScopedRouting(gateway, boundary)));
  return scoped;
}
