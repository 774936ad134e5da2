import type { Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../util/log.js';
import type { CallOrigin } from './primitives.js';

// What an upstream is told and tells: its options, a request's options, what it asks its client.

/**
 * idle: not started (lazy) or stopped; starting: connecting and listing; ready: connected; down:
 * failed or exited (restarted on the next call once the backoff is waited out, lifecycle.ts).
 */
export type UpstreamStatus = 'idle' | 'starting' | 'ready' | 'down';

/** What a relayed call may carry back while it runs. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Receives `notifications/progress` params (the token is the caller's to set). */
  onProgress?: ((params: Record<string, unknown>) => void) | undefined;
  timeoutMs?: number | undefined;
  /** The front request that caused this one (routes the upstream's own requests back to it). */
  origin?: CallOrigin | undefined;
  /**
   * A 2026-07-28 upstream may answer with an `input_required` result. `fulfil` (default) asks
   * the causing session's client through onRequest and retries; `return` hands the result back
   * as sent (a modern front passes it on to its own client).
   */
  inputRequired?: 'fulfil' | 'return' | undefined;
}

/** The primitive kinds an upstream can announce list changes for, besides tools. */
export type PrimitiveKind = 'prompts' | 'resources';

/** Every list an upstream can announce a change of (`notifications/<kind>/list_changed`). */
export type ListKind = 'tools' | PrimitiveKind;

/** A request the upstream sends to its client (sampling, elicitation, roots), loosely typed. */
export interface UpstreamRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
  /** The call whose response stream carried the request (HTTP upstreams), when known. */
  origin?: CallOrigin | undefined;
}

export interface UpstreamOptions {
  /** Creates a fresh transport for each (re)start. */
  connect: () => Transport | Promise<Transport>;
  /** Per-call timeout (default 120 s). */
  timeoutMs?: number | undefined;
  /** Stop after this long without calls (restarted on the next call). */
  idleTimeoutMs?: number | undefined;
  /** Timeout for start-up: spawn, initialize and the lists (default 30 s). */
  startTimeoutMs?: number | undefined;
  logger?: Logger | undefined;
  /** Why this server cannot start (its rc entry did not resolve): start() fails at once with it. */
  disabled?: string | undefined;
  /** Speak only 2026-07-28 and watch nothing: the twin that serves 2026-07-28 requests (see TwinSlot, modern.ts). */
  twin?: boolean | undefined;
  /**
   * True when a second connection reaches the same server state (HTTP servers), so 2026-07-28
   * requests may use a 2026-07-28 connection beside the 2025 one; a stdio server would run twice.
   */
  sharedServer?: boolean | undefined;
}
