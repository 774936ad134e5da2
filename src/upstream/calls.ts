import { QUOTED_UPSTREAM_ID, UPSTREAM_ID_PREFIX } from '../protocol/jsonrpc.js';
import { UpstreamError } from './error.js';
import type { CallOrigin } from './primitives.js';

/** Receives the response line minus its closing `,"id":…}` (the caller appends its own id). */
export type RawDone = (prefix: string) => void;

/** How a request ends: once, with an UpstreamError or the upstream's result (as sent). */
export type CallDone = (error: UpstreamError | undefined, result?: Record<string, unknown>) => void;

/** A request in flight: cancel it (the upstream is told). */
export interface CallHandle {
  cancel(reason: string): void;
}

/** One request sent on our own id and not answered yet. */
export interface Pending {
  method: string;
  /** Set when the caller can write the upstream's response line through unparsed (raw.ts). */
  raw: RawDone | undefined;
  done: CallDone;
  onProgress: ((params: Record<string, unknown>) => void) | undefined;
  deadline: number;
  /** The tool or prompt name (the method for others): for timeouts and metrics. */
  name: string;
  timeoutMs: number;
  origin: CallOrigin | undefined;
  /**
   * Ends the request upstream when it times out, for a request the SDK client sent on an id of its
   * own (a 2026-07-28 server's, modern.ts); unset, the upstream hears notifications/cancelled for
   * our id (CallTableHooks.timedOut).
   */
  abort: ((reason: string) => void) | undefined;
}

/** How often deadlines are checked: a timeout fires up to this much late. */
export const SWEEP_MS = 250;

/** What the table tells its upstream. */
export interface CallTableHooks {
  /** Each request as it ends (metrics): method, name, milliseconds, failed. */
  settled(method: string, name: string, ms: number, failed: boolean): void;
  /** A request on our own id passed its deadline and was failed: tell the upstream (notifications/cancelled). */
  timedOut(id: string): void;
}

/**
 * The call table of one upstream: requests in flight on our own ids (`lt-N`), each ended exactly
 * once (answer, error, cancel, timeout, or the upstream going away). No timer per call: one sweep,
 * running only while calls are pending, fails those past their deadline.
 */
export class CallTable {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly server: string,
    private readonly hooks: CallTableHooks,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** A fresh id of ours; a string, so it can never equal a number id the client chose. */
  nextId(): string {
    return `${UPSTREAM_ID_PREFIX}${++this.seq}`;
  }

  get(id: string): Pending | undefined {
    return this.pending.get(id);
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /**
   * Tracks a request sent on `id`, failing it with a timeout past `timeoutMs`. The entry is built
   * field by field: this runs once per relayed call, and an object spread here cost microseconds.
   */
  add(id: string, method: string, params: Record<string, unknown>, timeoutMs: number, entry: Pick<Pending, 'raw' | 'done' | 'onProgress' | 'origin'> & { abort?: Pending['abort'] }): void {
    const name = typeof params.name === 'string' ? params.name : method;
    this.pending.set(id, { method, raw: entry.raw, done: entry.done, onProgress: entry.onProgress, deadline: Date.now() + timeoutMs, name, timeoutMs, origin: entry.origin, abort: entry.abort });
    this.sweepSoon();
  }

  /** Ends one pending call exactly once. */
  settle(id: string, error: UpstreamError | undefined, result?: Record<string, unknown>): void {
    const pending = this.take(id, error !== undefined || result?.isError === true);
    pending?.done(error, result);
  }

  /** Removes a pending call that is answered another way (a raw line), counting it as settled. */
  take(id: string, failed: boolean): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    this.hooks.settled(pending.method, pending.name, Date.now() - (pending.deadline - pending.timeoutMs), failed);
    return pending;
  }

  failAll(message: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new UpstreamError(this.server, message));
  }

  /**
   * Fails the call an unreadable line was meant for: the pending id it quotes, or (for an
   * oversized line, surely an answer) the only call pending. False when it names none (a log
   * line on stdout): nothing failed.
   */
  failFor(text: string, message: string, onlyPending = false): boolean {
    const quoted = [...text.matchAll(QUOTED_UPSTREAM_ID)].map((match) => match[1] as string).find((id) => this.pending.has(id));
    const id = quoted ?? (onlyPending && this.pending.size === 1 ? [...this.pending.keys()][0] : undefined);
    if (id === undefined) return false;
    this.settle(id, new UpstreamError(this.server, message));
    return true;
  }

  /** Front requests in flight, oldest first, with who caused them. */
  origins(): CallOrigin[] {
    const out: CallOrigin[] = [];
    for (const pending of this.pending.values()) if (pending.origin) out.push(pending.origin);
    return out;
  }

  private sweepSoon(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, pending] of this.pending) {
        if (pending.deadline > now) continue;
        this.settle(id, new UpstreamError(this.server, `"${pending.name}" on upstream "${this.server}" timed out after ${pending.timeoutMs} ms`));
        if (pending.abort) pending.abort('timeout');
        else this.hooks.timedOut(id);
      }
      if (this.pending.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, SWEEP_MS);
    this.sweeper.unref();
  }
}

/**
 * A relayed request as a promise: `send` starts it (it may call back at once, when the upstream is
 * gone meanwhile); an abort of `signal` cancels it while it is pending.
 */
export function awaitCall(signal: AbortSignal | undefined, send: (done: CallDone) => CallHandle): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // Runs only after send() returned: the listener is attached below, once the call is pending.
    const onAbort = () => handle.cancel(String(signal?.reason ?? 'cancelled by client'));
    const handle = send((error, result) => {
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(result ?? {});
    });
    if (settled) return;
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
