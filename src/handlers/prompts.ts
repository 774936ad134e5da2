import type { Server } from '@modelcontextprotocol/server';
import { relayedError, unknownPrompt } from '../protocol/errors.js';
import type { PromptDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import { forward } from './call.js';
import type { Caller, CallerFront, PromptIndex, PromptRoute, RelayRoute, RoutingContext } from './caller.js';
import { listPage } from './paging.js';
import { nameSkeleton, prefixReadAlikes } from '../util/lookalike.js';

/**
 * Builds the prompt index from the upstreams' lists, in rc order. Names are made unique the way
 * tool names are (catalog.ts plannedNames): `server_name` where two servers share a name, or
 * names that look alike (util/lookalike: case, fullwidth forms, a Cyrillic or Greek letter drawn
 * like a Latin one), or always with `prefix: always`; and a literal name drawn like another's
 * prefixed one (a server's own "files_review" beside files' "review" listed as files_review) is
 * prefixed too, so no upstream takes another's prompt by its name: the first server's literal
 * name took it, and prompts/get of files_review ran the other server's prompt.
 */
export function buildPromptIndex(upstreams: Iterable<Pick<Upstream, 'name' | 'primitives'>>, prefix: 'auto' | 'always' | undefined): PromptIndex {
  const all = [...upstreams];
  const planned = all.flatMap((upstream) => upstream.primitives.prompts.map((prompt) => ({ server: upstream.name, prompt, look: nameSkeleton(prompt.name), exposed: prompt.name })));
  // Servers per look of a name (entries come server by server: a server listing one name twice is one server).
  const servers = new Map<string, { last: string; count: number }>();
  for (const { server, look } of planned) {
    const seen = servers.get(look);
    if (!seen) servers.set(look, { last: server, count: 1 });
    else if (seen.last !== server) servers.set(look, { last: server, count: seen.count + 1 });
  }
  for (const entry of planned) if (prefix === 'always' || (servers.get(entry.look)?.count ?? 0) > 1) entry.exposed = `${entry.server}_${entry.prompt.name}`;
  // How a prefixed name looks: its server's look, `_`, its own look (both already at hand).
  let serverLooks: Map<string, string> | undefined;
  const serverLook = (server: string) => (serverLooks ??= new Map(all.map((upstream) => [upstream.name, nameSkeleton(upstream.name)]))).get(server) ?? '';
  prefixReadAlikes(planned, {
    bare: (entry) => entry.exposed === entry.prompt.name,
    look: (entry) => entry.look,
    prefixedLook: (entry) => `${serverLook(entry.server)}_${entry.look}`,
    prefix: (entry) => (entry.exposed = `${entry.server}_${entry.prompt.name}`),
  });
  // Two prefixed names that read alike (docs's site_summary, docs_site's summary): the longer server's
  // keeps it, as tools do (catalog.ts prefixedReadAlikes), whatever the rc's order.
  const owners = new Map<string, string>();
  const prefixedLook = (entry: (typeof planned)[number]) => (entry.exposed === entry.prompt.name ? undefined : `${serverLook(entry.server)}_${entry.look}`);
  for (const entry of planned) {
    const look = prefixedLook(entry);
    const owner = look === undefined ? undefined : owners.get(look);
    if (look !== undefined && (owner === undefined || owner.length < entry.server.length)) owners.set(look, entry.server);
  }
  const list: PromptDefinition[] = [];
  const byName = new Map<string, PromptRoute>();
  for (const entry of planned) {
    const { server, prompt, exposed } = entry;
    const look = prefixedLook(entry);
    if (byName.has(exposed) || (look !== undefined && (owners.get(look) as string).length > server.length)) continue;
    byName.set(exposed, { server, name: prompt.name });
    list.push(exposed === prompt.name ? prompt : { ...prompt, name: exposed });
  }
  return { list, byName };
}

/** Where an exposed prompt name leads for this routing (a token's servers only), or undefined. */
function findPrompt(routing: RoutingContext, name: unknown): { route: PromptRoute; upstream: Upstream } | undefined {
  const route = typeof name === 'string' ? routing.prompts().byName.get(name) : undefined;
  const upstream = route && routing.upstreams.get(route.server);
  return route && upstream ? { route, upstream } : undefined;
}

/** The route of an exposed prompt name, or the unknown-prompt error (completion references prompts too). */
export function promptRoute(routing: RoutingContext, name: unknown): { route: PromptRoute; upstream: Upstream } {
  const found = findPrompt(routing, name);
  if (!found) throw unknownPrompt(name);
  return found;
}

/** The relay route of a 2025 session's prompts/get for a listed prompt (renamed to the server's own). */
export function promptRelayRoute(caller: Caller, params: Record<string, unknown>): RelayRoute | undefined {
  const found = findPrompt(caller.routing, params.name);
  return found && { upstream: found.upstream, params: { ...params, name: found.route.name }, failure: relayedError };
}

/** prompts/list (every upstream's prompts the caller may reach) and prompts/get (routed to the prompt's server). */
export function registerPrompts<C extends Caller>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('prompts/list', (request, ctx) => {
    const caller = front.callerOf(ctx);
    return listPage(caller.routing.prompts().list, request.params?.cursor, (prompt) => prompt.name, 'prompts') as never;
  });
  server.setRequestHandler('prompts/get', (request, ctx) => {
    const caller = front.callerOf(ctx);
    const { route, upstream } = promptRoute(caller.routing, request.params.name);
    return front.run(caller, ctx, `prompts/get ${request.params.name}`, (call) => forward(caller, upstream, 'prompts/get', { ...request.params, name: route.name }, call)) as never;
  });
}
