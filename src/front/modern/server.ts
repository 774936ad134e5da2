import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CacheHint,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { boundaryOf, requestMode } from '../../focus/policy.js';
import { VERSION } from '../../util/version.js';
import type { Gateway } from '../../hub/gateway.js';
import { scopedRouting } from '../../handlers/context.js';
import { registerModernPrimitives } from './primitives.js';
import type { ModernRoute } from './route.js';
import { VARIANT_META, VARIANTS_EXTENSION, variantsExtension } from './variants.js';
import { retryParams, withInputRounds } from './rounds.js';
import { ModernView } from './view.js';
import { callContext } from '../../handlers/call.js';
import { registerTools } from '../../handlers/tools.js';
import { registerGroups } from '../../handlers/groups-ext.js';
import { offeredCapabilities, serverCapabilities, serverInstructions } from '../../handlers/capabilities.js';

/**
 * A 2026-07-28 server for one request (HTTP) or one connection (stdio): the low-level SDK
 * `Server` with lazytools' handlers. Nothing is kept between requests: each handler resolves the
 * request's mode (endpoint, token, server variant; focus/policy requestMode) and answers from the
 * gateway's catalog and upstreams. List results carry `ttlMs` and `cacheScope` (`private` when
 * the answer depends on the bearer token).
 */
export function createModernServer(gateway: Gateway, route: ModernRoute): Server {
  const config = gateway.config;
  const offered = offeredCapabilities(gateway.upstreams.values());
  const variants = variantsExtension(config, route.tokenModes ?? route.served, route.variantHints);
  const capabilities = serverCapabilities('modern', offered, variants ? { [VARIANTS_EXTENSION]: variants } : {});
  const hint: CacheHint = { ttlMs: config.cacheTtlMs, cacheScope: route.tokenScoped ? 'private' : 'public' };
  const server = new Server(
    { name: 'lazytools', version: VERSION },
    {
      capabilities,
      // A token's requests read only the instructions of the servers its modes reach.
      instructions: serverInstructions('modern', scopedRouting(gateway, boundaryOf(route)).upstreams.values()),
      cacheHints: { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'server/discover': hint },
    },
  );

  /** The request's view: its mode resolved from the route and its variant, or an invalid-params error. */
  const viewOf = (ctx: ServerContext): ModernView => {
    const variant = ctx.mcpReq._meta?.[VARIANT_META];
    const resolved = requestMode(gateway.config, { ...route, variant });
    if ('refusal' in resolved) throw new ProtocolError(ProtocolErrorCode.InvalidParams, resolved.refusal);
    const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
    return new ModernView(gateway, resolved.mode, resolved.bound, boundaryOf(route), route.strategy ?? gateway.config.strategy, typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {}, route);
  };

  registerTools(server, viewOf, async (view, ctx, name, handle) => {
    const call = { ...callContext(ctx), passInput: { retry: retryParams(ctx) } };
    const result = await withInputRounds(gateway, route, view, ctx, `tools/call ${name}`, (signal) => handle({ ...call, signal }));
    // An upstream needed a capability the client did not declare: the request fails as a whole.
    if (view.missing !== undefined) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [view.missing]: {} } });
    return result;
  });
  registerModernPrimitives(server, gateway, route, viewOf, offered);
  registerGroups(
    server,
    (ctx) => {
      const view = viewOf(ctx);
      return view.groupsDeclared ? view : undefined;
    },
    () => ({ ...hint }),
  );
  return server;
}
