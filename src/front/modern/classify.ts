import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { isRequest } from '../../util/jsonrpc.js';

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when an HTTP POST without a session belongs to the 2026-07-28 era: the SDK's own
 * classifier (the one `createMcpHandler` routes by) says it is not legacy traffic: it carries
 * the `_meta` envelope claim (malformed ones included, so they get the modern errors), or a
 * modern `MCP-Protocol-Version` header. `initialize`, claim-less requests, batches and posted
 * responses stay legacy.
 */
export function isModernHttpRequest(headers: IncomingHttpHeaders, body: unknown): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(headers['mcp-protocol-version']),
    mcpMethodHeader: header(headers['mcp-method']),
    mcpNameHeader: header(headers['mcp-name']),
    body,
  });
  return outcome.kind !== 'legacy';
}

/**
 * True when the first message of a stdio connection opens the 2026-07-28 era: `server/discover`
 * or any request carrying the envelope's protocol version. `initialize` (and anything else) keeps
 * the connection legacy, as it is today.
 */
export function isModernOpening(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || !isRequest(message)) return false;
  if (message.method === 'initialize') return false;
  if (message.method === 'server/discover') return true;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, PROTOCOL_VERSION_META);
}
