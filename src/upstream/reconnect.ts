import type { FetchLike, ReconnectionScheduler } from '@modelcontextprotocol/client';

/**
 * Least time between two openings of a remote server's SSE stream: the SDK's own first backoff
 * step. A server chooses the wait with the SSE `retry:` field and both SDK transports obey it as
 * sent: `retry: 0` on a stream that then ends made the gateway reopen it about 450 times a
 * second for as long as it ran (most of a core, other clients slowed), and a `retry:` past what a
 * Node timer waits fired after 1 ms with a TimeoutOverflowWarning on stderr each time.
 */
export const MIN_RECONNECT_MS = 1_000;
/** Most time waited before reopening a stream (the SDK's own ceiling for its backoff). */
export const MAX_RECONNECT_MS = 30_000;

/** The wait before reopening a stream: the server's (or the backoff's) `delay` within [MIN, MAX]. */
export function reconnectDelay(delay: number): number {
  return Number.isFinite(delay) ? Math.min(Math.max(delay, MIN_RECONNECT_MS), MAX_RECONNECT_MS) : MAX_RECONNECT_MS;
}

/** The Streamable HTTP transport's reconnection timer, with the wait bounded (reconnectDelay). */
export const pacedReconnection: ReconnectionScheduler = (reconnect, delay) => {
  const timer = setTimeout(reconnect, reconnectDelay(delay));
  return () => clearTimeout(timer);
};

/**
 * `base` with each GET (an SSE stream opening) started at least MIN_RECONNECT_MS after the one
 * before it: the HTTP+SSE transport's EventSource reconnects on its own timer, after the server's
 * `retry:`, and takes no scheduler. One per transport (the wait is per connection); a GET whose
 * request is aborted meanwhile fails with the abort.
 */
export function pacedGets(base: FetchLike): FetchLike {
  let last = Number.NEGATIVE_INFINITY;
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() === 'GET') {
      const wait = last + MIN_RECONNECT_MS - Date.now();
      if (wait > 0) await abortableWait(wait, init?.signal ?? undefined);
      last = Date.now();
    }
    return base(url, init);
  };
}

function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
