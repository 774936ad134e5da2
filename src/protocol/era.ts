import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

export { PROTOCOL_VERSION_META_KEY };

/**
 * The protocol era a message, an upstream or a connection speaks: `legacy` (2024-10-07 ..
 * 2025-11-25: initialize, sessions) or `modern` (2026-07-28: per-request `_meta` envelope, no
 * sessions). The one spelling of an era across lazytools (the SDK's `ProtocolEra` names the same).
 */
export type Era = 'legacy' | 'modern';

/**
 * The era of an inbound message, by the SDK's own classifier (the one `createMcpHandler` routes
 * by), so stdio and HTTP decide alike: a request carrying the 2026-07-28 envelope claim is
 * `modern`, `initialize` included when its claim is valid (the SDK treats the claim, not the
 * method, as the era: an enveloped initialize is a modern request, and the modern server answers
 * it as one); a claim-less `server/discover` is a modern probe; everything else is `legacy`.
 * A message that claims 2026-07-28 and fails the SDK's checks (a malformed envelope, headers
 * that contradict the body) is `modern` too, so the modern front answers it with the SDK's error.
 * `invalid` is a body that is not one JSON-RPC message the eras share (not JSON-RPC, a batch with
 * an enveloped element): over HTTP the modern front answers it with the SDK's error; over stdio
 * it opens no era (the legacy session answers it, as any stray line). Headers are HTTP's only.
 */
export function classifyEra(body: unknown, headers: IncomingHttpHeaders = {}): Era | 'invalid' {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: first(headers['mcp-protocol-version']),
    mcpMethodHeader: first(headers['mcp-method']),
    mcpNameHeader: first(headers['mcp-name']),
    body,
  });
  if (outcome.kind === 'modern') return 'modern';
  if (outcome.kind !== 'legacy') return outcome.rung === 'jsonrpc-shape' ? 'invalid' : 'modern';
  return isMethod(body, 'server/discover') ? 'modern' : 'legacy';
}

/**
 * A cheap test that implies classifyEra(body, any headers) is not `legacy`, for the HTTP front's
 * hot path (the SDK's classifier parses the body against several zod schemas, and the modern front
 * runs it again): one JSON-RPC object with no `result` or `error` key (so no response), not an
 * `initialize` (the one method a claim must be valid to move), whose `params._meta` carries the
 * 2026-07-28 envelope claim key (the SDK's own claim test). Every such body is a modern request or
 * notification, or one the modern front refuses with the SDK's error, whatever the headers say;
 * false decides nothing (classifyEra does).
 */
export function claimsEnvelope(body: unknown): boolean {
  if (!isPlainObject(body) || 'result' in body || 'error' in body || body.method === 'initialize') return false;
  const meta = isPlainObject(body.params) ? body.params._meta : undefined;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the message is a request (or notification) of this method. */
export function isMethod(message: unknown, method: string): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === method;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
