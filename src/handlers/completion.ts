import type { Server } from '@modelcontextprotocol/server';
import { noCompletionSource } from '../protocol/errors.js';
import type { Upstream } from '../upstream/upstream.js';
import { forward } from './call.js';
import type { Caller, CallerFront, RoutingContext } from './caller.js';
import { promptRoute } from './prompts.js';
import { isOwnUri } from './resources.js';

/**
 * Where a completion/complete goes, by its reference: a prompt (by exposed name, renamed to the
 * server's own) or a resource template (by its exact `uriTemplate`, then by the owner of a plain
 * URI). `own` when it names one of lazytools' own templates (group names: no completions); an
 * InvalidParams error when no server offers it.
 */
export function completionRoute(routing: RoutingContext, params: Record<string, unknown>): { upstream: Upstream; params: Record<string, unknown> } | 'own' {
  const ref = (params.ref ?? {}) as Record<string, unknown>;
  let upstream: Upstream | undefined;
  let routed = params;
  if (ref.type === 'ref/prompt') {
    const found = promptRoute(routing, ref.name);
    upstream = found.upstream;
    routed = { ...params, ref: { ...ref, name: found.route.name } };
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const index = routing.resources();
    const server = index.matchers.find((matcher) => matcher.uriTemplate === ref.uri)?.server ?? index.exact.get(ref.uri);
    upstream = server === undefined ? undefined : routing.upstreams.get(server);
    if (!upstream && isOwnUri(ref.uri)) return 'own';
  }
  if (!upstream) throw noCompletionSource(ref);
  return { upstream, params: routed };
}

/** completion/complete for both eras, routed by completionRoute (no input round: answered as it ends). */
export function registerCompletion<C extends Caller>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('completion/complete', (request, ctx) => {
    const caller = front.callerOf(ctx);
    const route = completionRoute(caller.routing, request.params);
    if (route === 'own') return { completion: { values: [] } } as never;
    return front.run(caller, ctx, undefined, (call) => forward(caller, route.upstream, 'completion/complete', route.params, call)) as never;
  });
}
