import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when an HTTP POST without a session belongs to the 2026-07-28 era: the SDK's own
 * classifier (the one `createMcpHandler` routes by) says it is not legacy traffic: it carries
 * the `_meta` envelope claim (malformed ones included, so they get the modern errors), or a
 * modern `MCP-Protocol-Version` header, or it is `server/discover`. `initialize`, claim-less
 * requests, batches and posted responses stay legacy.
 */
export function isModernHttpRequest(headers: IncomingHttpHeaders, body: unknown): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(headers['mcp-protocol-version']),
    mcpMethodHeader: header(headers['mcp-method']),
    mcpNameHeader: header(headers['mcp-name']),
    body,
  });
  // A claim-less server/discover is a modern probe too: it gets the modern answer (the supported
  // versions) instead of the 2025 "the first request must be initialize".
  return outcome.kind !== 'legacy' || (typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'server/discover');
}
