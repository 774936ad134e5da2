import type { Catalog } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { boundaryServers, type Boundary } from '../focus/policy.js';
import type { PromptIndex, ResourceIndex, RoutingContext, SubscriptionTable } from '../handlers/caller.js';
import { OWN_SCHEME } from '../handlers/resources.js';
import type { Upstream } from '../upstream/upstream.js';

/** The hub as a scoped routing context needs it. */
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
    private readonly hub: Scopable,
    private readonly boundary: Boundary,
  ) {}

  get subscriptions(): SubscriptionTable {
    return this.hub.subscriptions;
  }

  /** The upstreams the boundary reaches. */
  get upstreams(): ReadonlyMap<string, Upstream> {
    return this.current().upstreams;
  }

  applyLogLevels(): Promise<void> {
    return this.hub.applyLogLevels();
  }

  prompts(): PromptIndex {
    const source = this.hub.prompts();
    const { servers } = this.current();
    if (this.promptScope?.source === source && this.promptScope.servers === servers) return this.promptScope.index;
    const byName = new Map([...source.byName].filter(([, route]) => servers.has(route.server)));
    const index = { list: source.list.filter((prompt) => byName.has(prompt.name)), byName };
    this.promptScope = { source, servers, index };
    return index;
  }

  resources(): ResourceIndex {
    const source = this.hub.resources();
    const { servers } = this.current();
    if (this.resourceScope?.source === source && this.resourceScope.servers === servers) return this.resourceScope.index;
    // Each URI goes to the first server in reach that lists it: one outside the token's modes
    // listing the same URI first took it from the token's own server (not listed, not found).
    const exact = new Map<string, string>();
    const resources = source.resources.filter((resource) => resource.uri.startsWith(OWN_SCHEME));
    const listed = source.listed.filter(({ server }) => servers.has(server));
    for (const { server, resource } of listed) {
      if (exact.has(resource.uri)) continue;
      exact.set(resource.uri, server);
      resources.push(resource);
    }
    const matchers = source.matchers.filter((matcher) => servers.has(matcher.server));
    const templates = new Set(matchers.map((matcher) => matcher.uriTemplate));
    const index: ResourceIndex = {
      resources,
      templates: source.templates.filter((template) => template.uriTemplate.startsWith(OWN_SCHEME) || templates.has(template.uriTemplate)),
      exact,
      listed,
      matchers,
    };
    this.resourceScope = { source, servers, index };
    return index;
  }

  private current(): NonNullable<ScopedRouting['scope']> {
    const { catalog, config } = this.hub;
    if (this.scope?.catalog === catalog && this.scope.config === config) return this.scope;
    const servers = boundaryServers(catalog, config, this.boundary) ?? new Set(this.hub.upstreams.keys());
    const upstreams = new Map([...this.hub.upstreams].filter(([name]) => servers.has(name)));
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
export function scopedRouting(hub: Scopable, boundary: Boundary | undefined): RoutingContext {
  if (!boundary?.token) return hub;
  let byModes = shared.get(hub);
  if (!byModes) shared.set(hub, (byModes = new Map()));
  const key = (boundary.modes ?? []).join('\n');
  let scoped = byModes.get(key);
  if (!scoped) byModes.set(key, (scoped = new ScopedRouting(hub, boundary)));
  return scoped;
}
