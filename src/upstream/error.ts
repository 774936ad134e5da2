import { withoutSecretName } from '../config/secrets.js';
import { redact } from '../util/redact.js';

/** A failure reaching or running a tool on an upstream; becomes an `isError` result. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly server: string,
    message: string,
    /** The upstream's own JSON-RPC error, when it answered with one (passed on verbatim). */
    readonly rpcError?: { code: number; message: string; data?: unknown },
  ) {
    // Messages quote upstream text and paths that may hold secrets from the environment, and the
    // server's name, which may look like one (a token pasted as the rc key): shown as config errors show it.
    super(redact(withoutSecretName(message, server)));
  }
}
