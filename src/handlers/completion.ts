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

/** Values one completion carries at most: the spec's bound, which clients' SDKs enforce. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * An upstream's completion in the shape the spec gives it: its first MAX_COMPLETION_VALUES string
 * values (hasMore then true), `total` only as a whole number, `hasMore` only as a boolean. The
 * client's SDK checks that shape and refused the whole answer for one value too many, a total of
 * 1e300 or a hasMore of "yes", so the user had an error instead of any completion. A result
 * without a completion object (an input round) is passed on as it came.
 */
export function specCompletion(result: Record<string, unknown>): Record<string, unknown> {
  const completion = result.completion;
  if (typeof completion !== 'object' || completion === null || Array.isArray(completion)) return result;
  const { values, total, hasMore, ...rest } = completion as Record<string, unknown>;
  const strings = Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
  const kept = strings.slice(0, MAX_COMPLETION_VALUES);
  const cut = strings.length > kept.length;
  const shaped: Record<string, unknown> = { ...rest, values: kept };
  if (typeof total === 'number' && Number.isSafeInteger(total) && total >= 0) shaped.total = total;
  if (cut || hasMore === true) shaped.hasMore = true;
  else if (hasMore === false) shaped.hasMore = false;
  return { ...result, completion: shaped };
}

/** completion/complete for both eras, routed by completionRoute (no input round: answered as it ends). */
export function registerCompletion<C extends Caller>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('completion/complete', (request, ctx) => {
    const caller = front.callerOf(ctx);
    const route = completionRoute(caller.routing, request.params);
    if (route === 'own') return { completion: { values: [] } } as never;
    return front.run(caller, ctx, undefined, async (call) => specCompletion(await forward(caller, route.upstream, 'completion/complete', route.params, call))) as never;
  });
}
