import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Caller, RelayRoute } from '../handlers/caller.js';
import { promptRelayRoute } from '../handlers/prompts.js';
import { resourceRelayRoute } from '../handlers/resources.js';
import { toolRelayRoute } from '../handlers/tools.js';
import { isNotification, isRequest, usableProgressToken, type RequestId } from '../protocol/jsonrpc.js';
import type { FrontRelay } from './relay.js';

/**
 * A 2025 session's fast path: a permitted `tools/call` for a catalog tool, a `prompts/get` or an
 * upstream `resources/read` goes straight to its running upstream, no SDK parsing either way, and
 * the answer goes back as the upstream sent it (relay.ts). Each primitive's module gives the route
 * after the permit its SDK handler asks too (handlers/tools, prompts, resources); false leaves the
 * message to the SDK (own tools, refusals, stopped upstreams, malformed requests, tasks).
 */
export function fastPath(caller: Caller, message: unknown, relay: FrontRelay, advertised: ServerCapabilities): boolean {
  if (isNotification(message) && message.method === 'notifications/cancelled') {
    const id = message.params?.requestId as RequestId | undefined;
    return id !== undefined && relay.cancel(id, String(message.params?.reason ?? 'cancelled by client'));
  }
  if (!isRequest(message) || relay.full) return false;
  const params = message.params;
  if (!params || params.task !== undefined) return false;
  const token = usableProgressToken((params._meta as { progressToken?: unknown } | undefined)?.progressToken);
  const route = fastRoute(caller, message.method, params, advertised);
  if (!route || route.upstream.status !== 'ready') return false;
  const sent = relay.send({ id: message.id, upstream: route.upstream, method: message.method, params: route.params, progressToken: token, origin: caller.origin(message.id), failure: route.failure });
  // Bookkeeping after the request is on its way: off the path between reading it and writing it on.
  if (sent) route.record?.();
  return true;
}

/** Where a request can be relayed without the SDK; each primitive's module decides its own. */
function fastRoute(caller: Caller, method: string, params: Record<string, unknown>, advertised: ServerCapabilities): RelayRoute | undefined {
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined;
  // An own "__proto__" argument never gets here: the session refuses it first (protocol/proto-args).
  if (method === 'tools/call') return toolRelayRoute(caller, params);
  if (method === 'prompts/get') return advertised.prompts ? promptRelayRoute(caller, params) : undefined;
  if (method === 'resources/read') return resourceRelayRoute(caller, params);
  return undefined;
}
