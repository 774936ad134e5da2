import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * `base` with every request (and the reading of its answer) ended when `deadline` fires: the SDK's
 * auth() makes several round trips to an authorization server and sets no time limit of its own.
 */
export function fetchBefore(deadline: AbortSignal, base: FetchLike): FetchLike {
  return (input, init) => base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
}
