import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * `base` with every request (and the reading of its answer) ended when `deadline` fires: the SDK's
 * auth() makes several round trips to an authorization server and sets no time limit of its own.
 */
export function fetchBefore(deadline: AbortSignal, base: FetchLike): FetchLike {
  return (input, init) => base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
}

/**
 * `base` with each request (and the reading of its answer) ended `ms` after it starts: for a
 * transport whose requests include the SDK's own sign-in round trips (discovery, registration,
 * the code exchange of finishAuth, a step-up's), which no caller's deadline reaches.
 */
export function fetchWithin(ms: number, base: FetchLike): FetchLike {
  return (input, init) => fetchBefore(AbortSignal.timeout(ms), base)(input, init);
}

/**
 * Runs `work` (one auth() and its round trips) with a fetch ended after `ms`; past it, the failure
 * says the authorization server did not answer, whatever the SDK made of the aborted request
 * (it takes an aborted exchange for a refused one).
 */
export async function answeredWithin<T>(ms: number, base: FetchLike, work: (fetchFn: FetchLike) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  try {
    return await work(fetchBefore(deadline, base));
  } catch (error) {
    throw deadline.aborted ? notAnswered(ms) : error;
  }
}

/** The failure of an authorization server that did not answer in time. */
export function notAnswered(ms: number): Error {
  return new Error(`the authorization server did not answer within ${Math.ceil(ms / 1000)} s`);
}

/** True when `error` (or an error it was caused by) is a fetch ended by a timeout signal. */
export function timedOut(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) if (at.name === 'TimeoutError') return true;
  return false;
}
