import type { Server } from '@modelcontextprotocol/server';
import type { PromptDefinition } from '../upstream/primitives.js';
import type { Upstream } from '../upstream/upstream.js';
import { listPage } from './paging.js';
import { relayError, upstreamFailure, type PromptIndex, type PromptRoute, type RelayRoute, type SessionContext } from './context.js';
import { ErrorCode, rpcError } from '../protocol/errors.js';
import { echoName } from '../util/errors.js';

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

/** The route of an exposed prompt name, or an InvalidParams error naming it. */
export function promptRoute(session: Pick<SessionContext, 'routing'>, name: unknown): { route: PromptRoute; upstream: Upstream } {
  const route = typeof name === 'string' ? session.routing.prompts().byName.get(name) : undefined;
  const upstream = route && session.routing.upstreams.get(route.server);
  if (!route || !upstream) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt "${echoName(String(name))}"`);
  return { route, upstream };
}

/** The relay route of a prompts/get for a listed prompt (renamed to the server's own). */
export function promptRelayRoute(session: SessionContext, params: Record<string, unknown>): RelayRoute | undefined {
  const route = typeof params.name === 'string' ? session.routing.prompts().byName.get(params.name) : undefined;
  const upstream = route && session.routing.upstreams.get(route.server);
  return route && upstream ? { upstream, params: { ...params, name: route.name }, failure: relayError } : undefined;
}

/** prompts/list (every upstream's prompts) and prompts/get (routed to the prompt's server). */
export function registerPrompts(server: Server, session: SessionContext): void {
  server.setRequestHandler('prompts/list', (request) => listPage(session.routing.prompts().list, request.params?.cursor, (prompt) => prompt.name, 'prompts') as never);
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { route, upstream } = promptRoute(session, request.params.name);
    try {
      return (await upstream.request('prompts/get', { ...request.params, name: route.name }, { origin: session.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal })) as never;
    } catch (error) {
      throw upstreamFailure(error);
    }
  });
}
