import type { Server } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstream/upstream.js';
import { INVALID_PARAMS, rpcError, upstreamFailure, type SessionContext } from './context.js';
import { promptRoute } from './prompts.js';

/**
 * completion/complete routed by its reference: a prompt (by exposed name, renamed to the server's
 * own) or a resource template (by its exact `uriTemplate`, then by the owner of a plain URI).
 */
export function registerCompletion(server: Server, session: SessionContext): void {
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const ref = request.params.ref as Record<string, unknown>;
    let upstream: Upstream | undefined;
    let params: Record<string, unknown> = request.params;
    if (ref.type === 'ref/prompt') {
      const found = promptRoute(session, ref.name);
      upstream = found.upstream;
      params = { ...request.params, ref: { ...ref, name: found.route.name } };
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const index = session.routing.resources();
      const server = index.matchers.find((matcher) => matcher.uriTemplate === ref.uri)?.server ?? index.exact.get(ref.uri);
      upstream = server === undefined ? undefined : session.routing.upstreams.get(server);
      // lazytools' own templates (group names) have no completions.
      if (!upstream && ref.uri.startsWith('lazytools://')) return { completion: { values: [] } };
    }
    if (!upstream) throw rpcError(INVALID_PARAMS, `No server offers completions for ${JSON.stringify(ref)}`);
    try {
      return (await upstream.request('completion/complete', params, { origin: session.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal })) as never;
    } catch (error) {
      throw upstreamFailure(error);
    }
  });
}
