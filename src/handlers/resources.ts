import type { ReadResourceResult, Server } from '@modelcontextprotocol/server';
import { sumTokens, type CatalogGroup } from '../catalog/catalog.js';
import { groupToolsWithin } from '../focus/policy.js';
import { relayedError, resourceNotFound, upstreamFailure } from '../protocol/errors.js';
import type { ResourceDefinition, TemplateDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import { forward } from './call.js';
import type { Caller, CallerFront, RelayRoute, ResourceIndex, RoutingContext } from './caller.js';
import { fitting, listPage, PAGE_MAX_BYTES } from './paging.js';
import { compileTemplate, TEMPLATE_STEP_BUDGET, type StepBudget } from './uri-template.js';
import { decodeOrKeep } from '../util/uri.js';

/** The scheme of lazytools' own resources: never an upstream's (theirs with it are left out). */
export const OWN_SCHEME = 'lazytools://';
/** The group index; `${GROUPS_INDEX}/<group>` is one group's tool definitions. */
export const GROUPS_INDEX = `${OWN_SCHEME}groups`;

/** Resources for clients that browse them: the group index and each group's tool definitions. */
export const RESOURCES: ResourceDefinition[] = [
  { uri: GROUPS_INDEX, name: 'groups', title: 'Tool groups', description: 'Tool groups with descriptions, tool counts and tokens', mimeType: 'application/json' },
];

/** The template of one group's resource (`lazytools://groups/{group}`): listed before every upstream's. */
export const RESOURCE_TEMPLATES: TemplateDefinition[] = [
  { uriTemplate: `${GROUPS_INDEX}/{group}`, name: 'group', title: 'Tool group', description: 'Tool definitions of one group', mimeType: 'application/json' },
];

/** One of lazytools' own resources, as the caller may see it (a token: its modes' tools only). */
export function readOwnResource(caller: Caller, uri: string): ReadResourceResult {
  const { catalog, config } = caller.hub;
  // A token sees only its modes' tools: groups hold those, groups without any are not there.
  const within = (group: CatalogGroup) => groupToolsWithin(config, caller.boundary, group);
  if (uri === GROUPS_INDEX) {
    const groups = [...catalog.groups.values()]
      .map((group) => ({ group, tools: within(group) }))
      .filter(({ tools }) => tools.length > 0 || !caller.boundary?.token)
      .map(({ group, tools }) => ({ name: group.name, description: group.description, tools: tools.length, tokens: sumTokens(tools) }));
    // Bounded like a group's tools: an rc of 12,000 groups with long descriptions made 12.7 MB.
    const { kept, omitted } = fitting(groups, GROUP_RESOURCE_BYTES);
    const more = omitted > 0 ? { omitted, note: `${omitted} more groups left out to keep this answer under 1 MiB: search_tools finds their tools.` } : {};
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ mode: caller.focus.mode, groups: kept, ...more }) }] };
  }
  const name = uri.startsWith(`${GROUPS_INDEX}/`) ? uri.slice(GROUPS_INDEX.length + 1) : '';
  const found = name !== '' && !name.includes('/') ? catalog.groups.get(decodeOrKeep(name)) : undefined;
  const tools = found ? within(found) : [];
  const group = found && (tools.length > 0 || !caller.boundary?.token) ? found : undefined;
  if (!group) throw resourceNotFound(uri, `Read ${GROUPS_INDEX} for the group names, then ${GROUPS_INDEX}/<group>.`);
  // A group may hold the whole catalog (`all`): its definitions are cut at the page bound (10,000
  // tools made 10.6 MB, past what an SDK stdio client takes before it drops the connection).
  const { kept, omitted } = fitting(tools, GROUP_RESOURCE_BYTES, (tool) => tool.listed);
  const more = omitted > 0 ? { omitted, note: `${omitted} more tools of this group left out to keep this answer under 1 MiB: search_tools {"group": ${JSON.stringify(group.name)}, "query": …} finds them.` } : {};
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ name: group.name, description: group.description, tools: kept.map((tool) => tool.listed), ...more }) }],
  };
}

/** Bytes the group index's entries, or a group resource's tool definitions, take at most: the page bound less room for the rest and the note. */
const GROUP_RESOURCE_BYTES = PAGE_MAX_BYTES - 8 * 1024;

/**
 * True for a URI or template of lazytools' own resources. The scheme in any case (RFC 3986: it is
 * case-insensitive): an upstream's `LAZYTOOLS://groups` was listed beside lazytools' own index as
 * if it were one of the gateway's.
 */
export function isOwnUri(uri: string): boolean {
  return uri.slice(0, OWN_SCHEME.length).toLowerCase() === OWN_SCHEME;
}

/** Longest URI matched against templates (about what browsers and servers accept in a URL). */
const MAX_TEMPLATE_URI = 8 * 1024;

/** Builds the resource index over the upstreams' lists, in rc order (first owner of a URI wins; `listed` keeps the others). */
export function buildResourceIndex(upstreams: Iterable<Pick<Upstream, 'name' | 'primitives'>>): ResourceIndex {
  const resources: ResourceDefinition[] = [...RESOURCES];
  const templates: TemplateDefinition[] = [...RESOURCE_TEMPLATES];
  const exact = new Map<string, string>();
  const listed: ResourceIndex['listed'][number][] = [];
  const matchers: ResourceIndex['matchers'] = [];
  for (const upstream of upstreams) {
    for (const resource of upstream.primitives.resources) {
      if (isOwnUri(resource.uri)) continue;
      listed.push({ server: upstream.name, resource });
      if (exact.has(resource.uri)) continue;
      exact.set(resource.uri, upstream.name);
      resources.push(resource);
    }
    for (const template of upstream.primitives.templates) {
      if (isOwnUri(template.uriTemplate)) continue;
      templates.push(template);
      matchers.push({ server: upstream.name, uriTemplate: template.uriTemplate, pattern: compileTemplate(template.uriTemplate) });
    }
  }
  return { resources, templates, exact, listed, matchers };
}

/**
 * The upstream that serves a URI: the owner of the exact URI, else the matching template with the
 * longest literal head (`notes://{id}` before a catch-all `{+uri}`), the first in rc order among
 * equals. A server's catch-all took every templated read of the servers after it, and saw their URIs.
 */
export function resourceOwner(routing: RoutingContext, uri: string): Upstream | undefined {
  const index = routing.resources();
  const exact = index.exact.get(uri);
  if (exact !== undefined) return routing.upstreams.get(exact);
  // Templates are the upstreams' and URIs the client's: only URIs of a sane length are matched,
  // and all templates together get one step budget, so no pair of them holds the event loop.
  // Each server spends its own share of it: one server's costly templates used it all, and the
  // URIs of every server after it were not found.
  if (uri.length > MAX_TEMPLATE_URI) return undefined;
  const share = Math.floor(TEMPLATE_STEP_BUDGET / Math.max(1, new Set(index.matchers.map((matcher) => matcher.server)).size));
  const budgets = new Map<string, StepBudget>();
  let best: ResourceIndex['matchers'][number] | undefined;
  for (const matcher of index.matchers) {
    const { prefix } = matcher.pattern;
    if ((best && prefix.length <= best.pattern.prefix.length) || !uri.startsWith(prefix)) continue;
    let budget = budgets.get(matcher.server);
    if (!budget) budgets.set(matcher.server, (budget = { steps: share }));
    if (matcher.pattern.test(uri, budget)) best = matcher;
  }
  return best === undefined ? undefined : routing.upstreams.get(best.server);
}

/** The relay route of a 2025 session's resources/read for an upstream URI (lazytools' own are answered by the SDK path). */
export function resourceRelayRoute(caller: Caller, params: Record<string, unknown>): RelayRoute | undefined {
  if (typeof params.uri !== 'string' || isOwnUri(params.uri)) return undefined;
  const upstream = resourceOwner(caller.routing, params.uri);
  return upstream ? { upstream, params, failure: relayedError } : undefined;
}

function owner(caller: Caller, uri: string): Upstream {
  const upstream = resourceOwner(caller.routing, uri);
  if (!upstream) throw resourceNotFound(uri);
  return upstream;
}

/**
 * resources/list and templates/list (lazytools' own plus every upstream's the caller may reach),
 * resources/read routed by URI, and for a 2025 session subscribe/unsubscribe routed and counted
 * per session (2026-07-28 replaced them with subscriptions/listen).
 */
export function registerResources<C extends Caller>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('resources/list', (request, ctx) => listPage(front.callerOf(ctx).routing.resources().resources, request.params?.cursor, (resource) => resource.uri, 'resources') as never);
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    listPage(front.callerOf(ctx).routing.resources().templates, request.params?.cursor, (template) => template.uriTemplate, 'resourceTemplates') as never,
  );
  server.setRequestHandler('resources/read', (request, ctx) => {
    const uri = request.params.uri;
    const caller = front.callerOf(ctx);
    if (isOwnUri(uri)) return readOwnResource(caller, uri) as never;
    const upstream = owner(caller, uri);
    return front.run(caller, ctx, `resources/read ${uri}`, (call) => forward(caller, upstream, 'resources/read', request.params, call)) as never;
  });
  if (front.era === 'modern') return;
  // Subscribe and unsubscribe route alike: lazytools' own resources need none, others go to their owner.
  for (const [method, action] of [
    ['resources/subscribe', 'subscribe'],
    ['resources/unsubscribe', 'unsubscribe'],
  ] as const)
    server.setRequestHandler(method, async (request, ctx) => {
      const uri = request.params.uri;
      if (isOwnUri(uri)) return {};
      const caller = front.callerOf(ctx);
      try {
        await caller.routing.subscriptions[action](caller, owner(caller, uri), uri, { origin: caller.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal });
      } catch (error) {
        throw upstreamFailure(error);
      }
      return {};
    });
}
