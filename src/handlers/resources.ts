import type { Server } from '@modelcontextprotocol/server';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { ResourceDefinition, TemplateDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import { listPage } from './paging.js';
import { relayError, upstreamFailure, type RelayRoute, type ResourceIndex, type SessionContext, type SubscriptionTable, type ToolSession } from './context.js';
import { ErrorCode, resourceNotFound, rpcError } from '../protocol/errors.js';
import { echoName } from '../util/errors.js';
import { sumTokens, type CatalogGroup } from '../catalog/catalog.js';
import { groupToolsWithin } from '../focus/policy.js';
import { compileTemplate, TEMPLATE_STEP_BUDGET } from './uri-template.js';

/** Resources for clients that browse them: the group index and each group's tool definitions. */
export const RESOURCES: ResourceDefinition[] = [
  { uri: 'lazytools://groups', name: 'groups', title: 'Tool groups', description: 'Tool groups with descriptions, tool counts and tokens', mimeType: 'application/json' },
];

export const RESOURCE_TEMPLATES: TemplateDefinition[] = [
  { uriTemplate: 'lazytools://groups/{group}', name: 'group', title: 'Tool group', description: 'Tool definitions of one group', mimeType: 'application/json' },
];

export function readResource(session: Pick<ToolSession, 'gateway' | 'focus' | 'boundary'>, uri: string): ReadResourceResult {
  const catalog = session.gateway.catalog;
  // A token sees only its modes' tools: groups hold those, groups without any are not there.
  const within = (group: CatalogGroup) => groupToolsWithin(session.gateway.config, session.boundary, group);
  if (uri === 'lazytools://groups') {
    const groups = [...catalog.groups.values()]
      .map((group) => ({ group, tools: within(group) }))
      .filter(({ tools }) => tools.length > 0 || !session.boundary?.token)
      .map(({ group, tools }) => ({ name: group.name, description: group.description, tools: tools.length, tokens: sumTokens(tools) }));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ mode: session.focus.mode, groups }) }] };
  }
  const match = /^lazytools:\/\/groups\/([^/]+)$/.exec(uri);
  const found = match ? catalog.groups.get(decodeURIComponent(match[1] ?? '')) : undefined;
  const tools = found ? within(found) : [];
  const group = found && (tools.length > 0 || !session.boundary?.token) ? found : undefined;
  // Not McpError: it prefixes "MCP error -32602: " on the wire and the client adds it again.
  if (!group) throw resourceNotFound(uri, `Unknown resource "${echoName(uri)}". Read lazytools://groups for the group names, then lazytools://groups/<group>.`);
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ name: group.name, description: group.description, tools: tools.map((tool) => tool.listed) }) }],
  };
}

const OWN_SCHEME = 'lazytools://';
/** Longest URI matched against templates (about what browsers and servers accept in a URL). */
const MAX_TEMPLATE_URI = 8 * 1024;
/** Subscriptions one session may hold (a bound on the gateway's memory, far above real use). */
export const MAX_SUBSCRIPTIONS = 1_000;

/** Builds the resource index over the upstreams' lists, in rc order (first owner of a URI wins). */
export function buildResourceIndex(upstreams: Iterable<Pick<Upstream, 'name' | 'primitives'>>): ResourceIndex {
  const resources: ResourceDefinition[] = [...RESOURCES];
  const templates: TemplateDefinition[] = [...RESOURCE_TEMPLATES];
  const exact = new Map<string, string>();
  const matchers: ResourceIndex['matchers'] = [];
  for (const upstream of upstreams) {
    for (const resource of upstream.primitives.resources) {
      if (exact.has(resource.uri) || resource.uri.startsWith(OWN_SCHEME)) continue;
      exact.set(resource.uri, upstream.name);
      resources.push(resource);
    }
    for (const template of upstream.primitives.templates) {
      if (template.uriTemplate.startsWith(OWN_SCHEME)) continue;
      templates.push(template);
      matchers.push({ server: upstream.name, uriTemplate: template.uriTemplate, pattern: compileTemplate(template.uriTemplate) });
    }
  }
  return { resources, templates, exact, matchers };
}

/** The upstream that serves a URI: the owner of the exact URI, then the first matching template. */
export function resourceOwner(session: SessionContext, uri: string): Upstream | undefined {
  const index = session.routing.resources();
  // Templates are the upstreams' and URIs the client's: only URIs of a sane length are matched,
  // and all templates together get one step budget, so no pair of them holds the event loop.
  const budget = { steps: TEMPLATE_STEP_BUDGET };
  const server = index.exact.get(uri) ?? (uri.length <= MAX_TEMPLATE_URI ? index.matchers.find((matcher) => matcher.pattern.test(uri, budget))?.server : undefined);
  return server === undefined ? undefined : session.routing.upstreams.get(server);
}

/** The relay route of a resources/read for an upstream URI (lazytools' own are answered here). */
export function resourceRelayRoute(session: SessionContext, params: Record<string, unknown>): RelayRoute | undefined {
  if (typeof params.uri !== 'string' || params.uri.startsWith(OWN_SCHEME)) return undefined;
  const upstream = resourceOwner(session, params.uri);
  return upstream ? { upstream, params, failure: relayError } : undefined;
}

/**
 * Who is subscribed to which upstream URI. The upstream hears one subscribe when the first session
 * subscribes and one unsubscribe when the last leaves; resources/updated reaches only subscribers.
 */
export class Subscriptions implements SubscriptionTable {
  private readonly byKey = new Map<string, { server: string; uri: string; sessions: Set<object> }>();
  private readonly counts = new WeakMap<object, number>();

  constructor(private readonly max = MAX_SUBSCRIPTIONS) {}

  async subscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    const entry = this.byKey.get(key);
    if (entry?.sessions.has(session)) return;
    const count = this.counts.get(session) ?? 0;
    if (count >= this.max) throw rpcError(ErrorCode.InvalidParams, `Too many subscriptions: a session may hold ${this.max}; unsubscribe from some first`);
    this.counts.set(session, count + 1);
    if (entry) {
      entry.sessions.add(session);
      return;
    }
    try {
      await upstream.request('resources/subscribe', { uri }, origin);
    } catch (error) {
      this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
      throw error;
    }
    const fresh = this.byKey.get(key);
    // A concurrent subscribe of the same session got there first: count it once.
    if (fresh?.sessions.has(session)) this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
    else if (fresh) fresh.sessions.add(session);
    else this.byKey.set(key, { server: upstream.name, uri, sessions: new Set([session]) });
  }

  async unsubscribe(session: object, upstream: Upstream, uri: string, origin: Parameters<Upstream['request']>[2]): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    const entry = this.byKey.get(key);
    if (!entry?.sessions.delete(session)) return;
    this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
    if (entry.sessions.size > 0) return;
    this.byKey.delete(key);
    await upstream.request('resources/unsubscribe', { uri }, origin);
  }

  /** True while a session holds a subscription on the server (its process must keep running). */
  holds(server: string): boolean {
    for (const entry of this.byKey.values()) if (entry.server === server) return true;
    return false;
  }

  /** Sessions subscribed to a URI of a server. */
  subscribers(server: string, uri: string): ReadonlySet<object> {
    return this.byKey.get(`${server}\n${uri}`)?.sessions ?? new Set();
  }

  /** Drops a closed session's subscriptions (unsubscribing upstream where it was the last). */
  drop(session: object, upstreams: ReadonlyMap<string, Upstream>): void {
    for (const [key, entry] of this.byKey) {
      if (!entry.sessions.delete(session) || entry.sessions.size > 0) continue;
      this.byKey.delete(key);
      const upstream = upstreams.get(entry.server);
      if (upstream?.status === 'ready') void upstream.request('resources/unsubscribe', { uri: entry.uri }).catch(() => {});
    }
  }

  /** Subscribes again after an upstream (re)started: a new process knows no subscriptions. */
  renew(upstream: Upstream): void {
    for (const entry of this.byKey.values())
      if (entry.server === upstream.name) void upstream.request('resources/subscribe', { uri: entry.uri }).catch(() => {});
  }
}

/**
 * resources/list and templates/list (lazytools' own plus every upstream's), resources/read routed
 * by URI, subscribe/unsubscribe routed and counted per session.
 */
export function registerResources(server: Server, session: SessionContext, own: (uri: string) => ReadResourceResult): void {
  const routing = session.routing;
  server.setRequestHandler('resources/list', (request) => listPage(routing.resources().resources, request.params?.cursor, (resource) => resource.uri, 'resources') as never);
  server.setRequestHandler('resources/templates/list', (request) =>
    listPage(routing.resources().templates, request.params?.cursor, (template) => template.uriTemplate, 'resourceTemplates') as never,
  );
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    if (uri.startsWith(OWN_SCHEME)) return own(uri);
    const upstream = owner(session, uri);
    try {
      return (await upstream.request('resources/read', request.params, { origin: session.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal })) as never;
    } catch (error) {
      throw upstreamFailure(error);
    }
  });
  // Subscribe and unsubscribe route alike: lazytools' own resources need none, others go to their owner.
  for (const [schema, action] of [
    ['resources/subscribe', 'subscribe'],
    ['resources/unsubscribe', 'unsubscribe'],
  ] as const)
    server.setRequestHandler(schema, async (request, ctx) => {
      const uri = request.params.uri;
      if (uri.startsWith(OWN_SCHEME)) return {};
      try {
        await routing.subscriptions[action](session, owner(session, uri), uri, { origin: session.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal });
      } catch (error) {
        throw upstreamFailure(error);
      }
      return {};
    });
}

function owner(session: SessionContext, uri: string): Upstream {
  const upstream = resourceOwner(session, uri);
  if (!upstream) throw resourceNotFound(uri, `Resource not found: no server lists "${echoName(uri)}" or a template that matches it`);
  return upstream;
}
