/**
 * A search as a series of passes over the catalog's postings (engine.ts): a generator that yields
 * before each pass, run to its end at once (`finish`, the CLI and library, where nothing else
 * waits) or with the event loop let through between passes (`interleaved`, the gateway). One
 * search_tools call of ten long tasks makes up to 18 passes, about 112 ms at 10,000 tools; run
 * at once, four loops of such calls from one client held another client's tools/call at p50
 * 1.2 s. Between passes the other clients' requests run. Both drivers run the same generator, so
 * a search answers the same hits in the same order either way.
 */
export type Passes<T> = Generator<void, T, void>;

/** Runs a search to its end without yielding to the event loop. */
export function finish<T>(passes: Passes<T>): T {
  for (;;) {
    const step = passes.next();
    if (step.done) return step.value;
  }
}

/** Why an interleaved search stopped before its end: its request was cancelled. */
export class SearchCancelled extends Error {
  constructor() {
    super('search cancelled: the request was cancelled');
    this.name = 'SearchCancelled';
  }
}

/**
 * Runs a search letting the event loop through (setImmediate: timers and I/O, so other clients'
 * requests, are served) before each pass. A request cancelled meanwhile (`signal`: the client's
 * notifications/cancelled, an HTTP abort) stops it at the next pass with SearchCancelled, so a
 * cancelled search does not finish its work.
 */
export async function interleaved<T>(passes: Passes<T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const step = passes.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) {
      passes.return(undefined as never);
      throw new SearchCancelled();
    }
  }
}
