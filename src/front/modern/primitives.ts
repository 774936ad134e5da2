import { MissingRequiredClientCapabilityError, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { resourceNotFound } from '../../protocol/errors.js';
import { echoName } from '../../util/errors.js';
import type { Upstream } from '../../upstream/upstream.js';
import type { Gateway } from '../../hub/gateway.js';
import { listPage } from '../../handlers/paging.js';
import { readResource, resourceOwner } from '../../handlers/resources.js';
import { scopedRouting, upstreamFailure, type SessionContext } from '../../handlers/context.js';
import { promptRoute } from '../../handlers/prompts.js';
import { completionRoute } from '../../handlers/completion.js';
import type { ModernRoute } from './route.js';

import { retryParams, withInputRounds } from './rounds.js';
import type { ModernView } from './view.js';

const OWN_SCHEME = 'lazytools://';

/**
 * Prompts, resources and completions for 2026-07-28 requests: the same aggregated lists and the
 * same routing as legacy sessions (prompts by exposed name, resources by exact URI then template,
 * completions by reference), answered per request. Resource subscriptions belong to
 * subscriptions/listen there, so resources/subscribe is not served.
 */
export function registerModernPrimitives(server: Server, gateway: Gateway, modernRoute: ModernRoute, view: (ctx: ServerContext) => ModernView, offered: { prompts: boolean; completions: boolean }): void {
  // A token's requests reach only the servers its modes do (front/scope.ts); others see every server.
  const base = routingContext(gateway);
  const routingOf = (requestView: ModernView): SessionContext => (requestView.boundary.token ? { ...base, routing: scopedRouting(gateway, requestView.boundary) } : base);
  if (offered.prompts) {
    server.setRequestHandler('prompts/list', (request, ctx) => {
      const routing = routingOf(view(ctx));
      return listPage(routing.routing.prompts().list, request.params?.cursor, (prompt) => prompt.name, 'prompts') as never;
    });
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const requestView = view(ctx);
      const { route, upstream } = promptRoute(routingOf(requestView), request.params.name);
      return withInputRounds(gateway, modernRoute, requestView, ctx, `prompts/get ${request.params.name}`, (signal) => relay(upstream, 'prompts/get', { ...request.params, name: route.name }, ctx, requestView, signal)) as never;
    });
  }
  // The lists do not depend on the mode, but a forged variant is refused on every request.
  server.setRequestHandler('resources/list', (request, ctx) => {
    const routing = routingOf(view(ctx));
    return listPage(routing.routing.resources().resources, request.params?.cursor, (resource) => resource.uri, 'resources') as never;
  });
  server.setRequestHandler('resources/templates/list', (request, ctx) => {
    const routing = routingOf(view(ctx));
    return listPage(routing.routing.resources().templates, request.params?.cursor, (template) => template.uriTemplate, 'resourceTemplates') as never;
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const requestView = view(ctx);
    if (uri.startsWith(OWN_SCHEME)) return readResource(requestView, uri) as never;
    const upstream = resourceOwner(routingOf(requestView), uri);
    if (!upstream) throw resourceNotFound(uri, `Resource not found: no server lists "${echoName(uri)}" or a template that matches it`);
    return withInputRounds(gateway, modernRoute, requestView, ctx, `resources/read ${uri}`, (signal) => relay(upstream, 'resources/read', request.params, ctx, requestView, signal)) as never;
  });
  if (offered.completions)
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const requestView = view(ctx);
      const route = completionRoute(routingOf(requestView), request.params);
      if (route === 'own') return { completion: { values: [] } } as never;
      return relay(route.upstream, 'completion/complete', route.params, ctx, requestView);
    });
}

/** Sends the request to its upstream and returns the answer verbatim (its error, verbatim, too). */
async function relay(upstream: Upstream, method: string, params: Record<string, unknown>, ctx: ServerContext, view: ModernView, signal: AbortSignal = ctx.mcpReq.signal): Promise<never> {
  let answer: unknown;
  try {
    // The upstream's own input_required rounds go back to the client as sent (stateless).
    answer = await upstream.request(method, { ...params, ...retryParams(ctx, params._meta) }, { origin: view.origin(ctx.mcpReq.id), signal, inputRequired: 'return' });
  } catch (error) {
    if (view.missing === undefined) throw upstreamFailure(error);
  }
  // The upstream needed a capability the client did not declare: the request fails as a whole.
  if (view.missing !== undefined) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [view.missing]: {} } });
  return answer as never;
}

/**
 * The routing modules' session context for a stateless request: only `routing` is meaningful.
 * Upstream requests to the client (sampling, elicitation, roots) have no channel in the
 * 2026-07-28 era without inputRequired translation, so `forward` refuses with a clear error.
 */
function routingContext(gateway: Gateway): SessionContext {
  return {
    routing: gateway,
    logLevel: undefined,
    origin: (requestId) => ({ session: gateway, requestId }),
    clientCapabilities: () => undefined,
    notify: () => {},
    forward: (method) => Promise.reject(new Error(`${method} cannot reach a 2026-07-28 client yet (no inputRequired translation)`)),
  };
}
