import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { boundaryServers, type Boundary } from '../focus/policy.js';
import type { CallOrigin } from '../upstream/primitives.js';
import { UpstreamError, type Upstream } from '../upstream/upstream.js';
import type { RequestId } from '../util/jsonrpc.js';
import { ErrorCode, rpcError } from '../protocol/errors.js';
import type { PromptIndex } from './prompts.js';
import type { ResourceIndex, Subscriptions } from './resources.js';

/**
 * What the routing modules (prompts, resources, completion, logging, client requests) need from
 * the gateway: the upstreams and the indexes built from their lists. Narrow on purpose: a handler
 * cannot reach focus state or the tool catalog through it.
 */
export interface RoutingContext {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly subscriptions: Subscriptions;
  prompts(): PromptIndex;
  resources(): ResourceIndex;
  /** Re-sends the lowest log level any session asked for to the upstreams that log. */
  applyLogLevels(): Promise<void>;
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

  get subscriptions(): Subscriptions {
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
