import { isRequest } from '../../util/jsonrpc.js';

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

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
