import type { Server } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstream/upstream.js';
import { upstreamFailure, type SessionContext } from './context.js';
import { ErrorCode, rpcError } from '../protocol/errors.js';
import { promptRoute } from './prompts.js';

/**
 * Where a completion/complete goes, by its reference: a prompt (by exposed name, renamed to the
 * server's own) or a resource template (by its exact `uriTemplate`, then by the owner of a plain
 * URI). `own` when it names one of lazytools' own templates (group names: no completions); an
 * InvalidParams error when no server offers it. Shared by 2025 sessions and 2026-07-28 requests.
 */
export function completionRoute(session: Pick<SessionContext, 'routing'>, params: Record<string, unknown>): { upstream: Upstream; params: Record<string, unknown> } | 'own' {
  const ref = (params.ref ?? {}) as Record<string, unknown>;
  let upstream: Upstream | undefined;
  let routed = params;
  if (ref.type === 'ref/prompt') {
    const found = promptRoute(session, ref.name);
    upstream = found.upstream;
    routed = { ...params, ref: { ...ref, name: found.route.name } };
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const index = session.routing.resources();
    const server = index.matchers.find((matcher) => matcher.uriTemplate === ref.uri)?.server ?? index.exact.get(ref.uri);
    upstream = server === undefined ? undefined : session.routing.upstreams.get(server);
    if (!upstream && ref.uri.startsWith('lazytools://')) return 'own';
  }
  if (!upstream) throw rpcError(ErrorCode.InvalidParams, `No server offers completions for ${JSON.stringify(ref).slice(0, 200)}`);
  return { upstream, params: routed };
}

/** completion/complete for a 2025 session, routed by completionRoute. */
export function registerCompletion(server: Server, session: SessionContext): void {
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const route = completionRoute(session, request.params);
    if (route === 'own') return { completion: { values: [] } };
    try {
      return (await route.upstream.request('completion/complete', route.params, { origin: session.origin(ctx.mcpReq.id), signal: ctx.mcpReq.signal })) as never;
    } catch (error) {
      throw upstreamFailure(error);
    }
  });
}
