import { CLIENT_CAPABILITIES_META_KEY, Server, type CacheHint, type JSONRPCMessage, type ServerContext, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import { boundaryOf, type Route } from '../focus/scope.js';
import type { CallerFront } from '../handlers/caller.js';
import { advertised } from '../handlers/capabilities.js';
import { registerPrimitives } from '../handlers/primitives.js';
import { VERSION } from '../util/version.js';
import type { Hub } from './hub.js';
import { requestCaller, type ModernRequest } from './request.js';
import { runModern } from './rounds.js';
import { scopedRouting } from './routing.js';
import { VARIANT_META, VARIANTS_EXTENSION, variantsExtension } from './variants.js';

/**
 * Whether a notification for the request may still go to its client (the transport's bound on
 * what a client leaves unread: transports/http-unread stalledStreamGate); none over stdio.
 */
export type NotificationGate = (message: () => unknown) => boolean;

/** Sees each message the server hands its transport, before the transport does (transports/early-answer). */
export type SendTap = (message: JSONRPCMessage, options?: TransportSendOptions) => void;

/** A Server whose transport's sends pass `tap` first (an HTTP request's early answer). */
class TappedServer extends Server {
  constructor(info: ConstructorParameters<typeof Server>[0], options: ConstructorParameters<typeof Server>[1], private readonly tap: SendTap) {
    super(info, options);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      try {
        this.tap(message, options);
      } catch {
        // The SDK still answers: the tap only ever writes first.
      }
      return send(message, options);
    };
  }
}

/**
 * A 2026-07-28 server for one request (HTTP) or one connection (stdio): the low-level SDK
 * `Server` with every primitive registered once (handlers/primitives.ts) over a ModernRequest per
 * request. Nothing is kept between requests: each resolves its scope (endpoint, token, server
 * variant; focus/scope.ts) and is answered from the gateway's catalog and upstreams. List results
 * carry `ttlMs` and `cacheScope` (`private` when the answer depends on the bearer token). `tap`
 * sees what the server sends before its transport does (an HTTP request's early answer).
 */
export function createModernServer(hub: Hub, route: Route, gate?: NotificationGate, tap?: SendTap): Server {
  const config = hub.config;
  // A token's requests are told only of the capabilities and instructions of the servers its modes reach.
  const { offered, capabilities: own, instructions } = advertised('modern', scopedRouting(hub, boundaryOf(route)).upstreams);
  const variants = variantsExtension(config, route.tokenModes ?? route.served, route.variantHints);
  const capabilities = { ...own, ...(variants ? { experimental: { [VARIANTS_EXTENSION]: variants } } : {}) };
  const hint: CacheHint = { ttlMs: config.cacheTtlMs, cacheScope: route.tokenScoped ? 'private' : 'public' };
  const options = {
    capabilities,
    instructions,
    cacheHints: { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'server/discover': hint },
  };
  const info = { name: 'lazytools', version: VERSION };
  const server = tap ? new TappedServer(info, options, tap) : new Server(info, options);
  // Progress for the request passes the transport's gate: past it, it is dropped, not queued.
  const run: CallerFront<ModernRequest>['run'] = gate
    ? (caller, ctx, subject, work) => runModern(caller, ctx, subject, (call) => work({ ...call, notify: (method, params) => void (gate(() => ({ method, params })) && call.notify(method, params)) }))
    : runModern;
  const front: CallerFront<ModernRequest> = { era: 'modern', callerOf: (ctx) => callerOf(hub, route, ctx), run, listExtras: () => ({ ...hint }) };
  registerPrimitives(server, front, offered);
  return server;
}

/** The caller of the request `ctx` handles: its variant and declared capabilities come with it. */
function callerOf(hub: Hub, route: Route, ctx: ServerContext): ModernRequest {
  const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return requestCaller(hub, route, { variant: ctx.mcpReq._meta?.[VARIANT_META], declared });
}
