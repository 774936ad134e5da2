import type { Strategy } from '../../config/schema.js';

/**
 * What the transport knows about a 2026-07-28 request before its handlers run: the endpoint's
 * mode, the modes `serve --mode` serves, the bearer token's grant, where the gateway is served,
 * and the variant hints a `server/discover` carried. Passed to the per-request server factory.
 */
export interface ModernRoute {
  /** The mode of the path (`/mcp/<mode>`). */
  endpoint?: string | undefined;
  /** The modes `serve --mode` serves. */
  served?: readonly string[] | undefined;
  /** The modes the request's bearer token may use, and its label. */
  tokenModes?: readonly string[] | undefined;
  tokenLabel?: string | undefined;
  /** The strategy setting (`--strategy`, `?strategy=`), else the rc's. */
  strategy?: Strategy | undefined;
  /** The HTTP endpoint without a mode (`http://127.0.0.1:8765/mcp`); undefined over stdio. */
  baseUrl?: string | undefined;
  /** `_meta["io.modelcontextprotocol/server-variant-hints"]` of a server/discover request. */
  variantHints?: unknown;
  /** True when answers depend on the bearer token (the rc maps tokens): lists are `private`. */
  tokenScoped?: boolean | undefined;
}

/** The AuthInfo `extra` key the HTTP front passes the route under (the SDK passes it through). */
export const ROUTE_KEY = 'lazytoolsRoute';
