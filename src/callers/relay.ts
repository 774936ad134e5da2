import type { Transport } from '@modelcontextprotocol/server';
import type { CallOrigin } from '../upstream/primitives.js';
import { withClientId } from '../upstream/raw.js';
import type { Upstream } from '../upstream/upstream.js';
import { errorEnvelope, ErrorCode, type RequestId } from '../protocol/jsonrpc.js';
import type { RelayFailure } from '../handlers/caller.js';

/** Requests one session may have in flight on the relay (a bound on memory, not on work). */
export const MAX_INFLIGHT = 10_000;

/** A transport that writes an already-serialized line (stdio, transports/stdio.ts): answers pass through unparsed. */
export interface RawLineTransport {
  sendRawLine(line: string): void;
}

export interface RelayRequest {
  id: RequestId;
  upstream: Upstream;
  method: string;
  /** Params for the upstream (names already mapped back to the upstream's own). */
  params: Record<string, unknown>;
  /** The client's progress token, if it asked for progress. */
  progressToken: unknown;
  origin: CallOrigin;
  failure: RelayFailure;
}

/**
 * The byte contract of the relay, in one place: a permitted request goes to its upstream on the
 * upstream's own id; the answer comes back as the upstream sent it (over stdio, the response line
 * is written through unparsed with the client's id spliced in); progress is re-tokened both ways;
 * a client's cancellation reaches the upstream; a failure is answered by the caller's rule.
 */
export class FrontRelay {
  private readonly inflight = new Map<RequestId, { cancel(reason: string): void }>();
  private readonly raw: RawLineTransport | undefined;

  constructor(private readonly transport: Transport) {
    const raw = transport as Transport & Partial<RawLineTransport>;
    this.raw = typeof raw.sendRawLine === 'function' ? (raw as RawLineTransport) : undefined;
  }

  /** True when the session has too many requests in flight (the SDK path answers then). */
  get full(): boolean {
    return this.inflight.size >= MAX_INFLIGHT;
  }

  /** Cancels a relayed request by the client's id; false when it is not one of ours. */
  cancel(id: RequestId, reason: string): boolean {
    const handle = this.inflight.get(id);
    if (!handle) return false;
    this.inflight.delete(id);
    handle.cancel(reason);
    return true;
  }

  cancelAll(reason: string): void {
    for (const handle of this.inflight.values()) handle.cancel(reason);
    this.inflight.clear();
  }

  /** Relays the request; false when it was refused instead (its id is already in flight). */
  send(request: RelayRequest): boolean {
    const { id, progressToken: token } = request;
    const transport = this.transport;
    // Ids tell a session's requests in flight apart (and count them): one reused would replace
    // the first, which ran on upstream unanswered and uncounted.
    if (this.inflight.has(id)) {
      void transport.send(errorEnvelope(id, ErrorCode.InvalidRequest, 'Invalid Request: a request with this id is already in flight')).catch(() => {});
      return false;
    }
    const onProgress =
      token === undefined
        ? undefined
        : (progress: Record<string, unknown>) =>
            void transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken: token } } as never, { relatedRequestId: id }).catch(() => {});
    // `handle` is read only when the client cancels, after relay() returned.
    const entry = { cancel: (reason: string) => handle.cancel(reason) };
    this.inflight.set(id, entry);
    const finish = (write: () => void) => {
      if (this.inflight.get(id) !== entry) return;
      this.inflight.delete(id);
      // A response right behind a progress notification can land in the client's same read, and
      // the SDK client then drops that notification: answer on the next turn instead.
      if (token === undefined) write();
      else setImmediate(write);
    };
    const raw = this.raw;
    const handle = request.upstream.relay(
      request.params,
      (error, result) =>
        finish(() => {
          const answer = error ? request.failure(error) : { result };
          void transport.send({ jsonrpc: '2.0', id, ...answer } as never, { relatedRequestId: id }).catch(() => {});
        }),
      onProgress,
      undefined,
      raw && ((prefix) => finish(() => raw.sendRawLine(withClientId(prefix, id)))),
      { method: request.method, origin: request.origin },
    );
    return true;
  }
}
