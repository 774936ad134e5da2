import type { Server } from '@modelcontextprotocol/server';
import { relayedError, unknownPrompt } from '../protocol/errors.js';
import type { PromptDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import { forward } from './call.js';
import type { Caller, CallerFront, PromptIndex, PromptRoute, RelayRoute, RoutingContext } from './caller.js';
import { listPage } from './paging.js';

/**
 * Builds the prompt index from the upstreams' lists, in rc order. Names are made unique the way
 * tool names are: `server_name` where two servers share a name (or always with `prefix: always`).
 */
export function buildPromptIndex(upstreams: Iterable<Pick<Upstream, 'name' | 'primitives'>>, prefix: 'auto' | 'always' | undefined): PromptIndex {
  const counts = new Map<string, number>();
  const all = [...upstreams];
  for (const upstream of all) for (const prompt of upstream.primitives.prompts) counts.set(prompt.name, (counts.get(prompt.name) ?? 0) + 1);
  const list: PromptDefinition[] = [];
  const byName = new Map<string, PromptRoute>();
  for (const upstream of all) {
    for (const prompt of upstream.primitives.prompts) {
      const exposed = prefix === 'always' || (counts.get(prompt.name) ?? 0) > 1 ? `${upstream.name}_${prompt.name}` : prompt.name;
      if (byName.has(exposed)) continue;
      byName.set(exposed, { server: upstream.name, name: prompt.name });
      list.push(exposed === prompt.name ? prompt : { ...prompt, name: exposed });
    }
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
