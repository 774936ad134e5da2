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

/**
 * How many interleaved searches run at once in one process: the rest wait for a slot. Each one in
 * flight holds its memo (memo.ts: up to 18 score arrays of catalog size, 1.4 MB at 10,000 tools)
 * until it answers, and interleaving lets every request a client sends be in flight together:
 * 32 sessions each POSTing a JSON-RPC batch of 30 costly search_tools calls took the gateway from
 * 152 to 724 MB at 10,000 tools, and more sessions took it further (each session's batch keeps
 * about one search per pass in flight). Eight keep the memos under 12 MB at 10,000 tools, and
 * another client's request waits for at most eight passes (one of each running search).
 */
export const MAX_SEARCHES = 8;

/**
 * How many of those slots one holder (see SearchSlots) runs at once. Searches
 * cost CPU, not waiting, so a holder's own batch answers no sooner with more of them in flight;
 * but with all eight, another client's search waited for a slot until the batch was nearly done:
 * beside one session's eight costly searches at 10,000 tools, another session's search took 700-
 * 745 ms (p50), 10-15 ms with two per holder; the batch took as long either way (bench/fairness.mjs).
 */
export const MAX_SEARCHES_PER_HOLDER = 2;

/** Whose searches share a turn and a share: a session, or a key such as a bearer token's label. */
export type SlotHolder = object | string;

/**
 * Slots for interleaved searches (MAX_SEARCHES, at most `perHolder` of them per holder), granted
 * in turn among the holders waiting (a session; a bearer token's 2026-07-28 requests, or one such
 * request without a token): a client that queues a hundred searches waits behind its own, and
 * another client's search gets a free slot at once, or the next one but one per holder ahead of it.
 */
export class SearchSlots {
  private running = 0;
  /** Slots each holder runs now. */
  private readonly held = new Map<SlotHolder, number>();
  /** Waiting grants per holder; the Map's order is the turn order (a served holder goes last). */
  private readonly waiting = new Map<SlotHolder, Array<() => void>>();

  constructor(
    private readonly most: number = MAX_SEARCHES,
    private readonly perHolder: number = MAX_SEARCHES_PER_HOLDER,
  ) {}

  /** Searches running now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  /**
   * Waits for a slot for `holder` and returns its release (call it once the search is done,
   * whatever its outcome). A request cancelled while waiting (`signal`) leaves the queue with
   * SearchCancelled and takes no slot.
   */
  async acquire(holder: SlotHolder, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new SearchCancelled();
    if (this.running >= this.most || this.waiting.size > 0 || this.heldBy(holder) >= this.perHolder) {
      await new Promise<void>((resolve, reject) => {
        let queue = this.waiting.get(holder);
        if (!queue) this.waiting.set(holder, (queue = []));
        const mine = queue;
        const onAbort = (): void => {
          const at = mine.indexOf(grant);
          if (at >= 0) mine.splice(at, 1);
          if (mine.length === 0 && this.waiting.get(holder) === mine) this.waiting.delete(holder);
          reject(new SearchCancelled());
        };
        const grant = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        mine.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
        // Slots may be free while others wait (holders at their share): served in turn at once.
        this.grantNext();
      });
    } else this.take(holder);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = this.heldBy(holder) - 1;
      if (left > 0) this.held.set(holder, left);
      else this.held.delete(holder);
      this.grantNext();
    };
  }

  private heldBy(holder: SlotHolder): number {
    return this.held.get(holder) ?? 0;
  }

  private take(holder: SlotHolder): void {
    this.running++;
    this.held.set(holder, this.heldBy(holder) + 1);
  }

  /**
   * Hands free slots to the waiting holders in turn, each one grant, the served holder to the
   * back; a holder running its `perHolder` keeps its place until one of its searches ends.
   */
  private grantNext(): void {
    while (this.running < this.most) {
      let granted = false;
      for (const [holder, queue] of [...this.waiting]) {
        if (this.running >= this.most) return;
        if (this.heldBy(holder) >= this.perHolder) continue;
        const grant = queue.shift();
        this.waiting.delete(holder);
        if (queue.length > 0) this.waiting.set(holder, queue);
        if (!grant) continue;
        this.take(holder);
        grant();
        granted = true;
      }
      if (!granted) return;
    }
  }
}

/** The gateway's search slots: one process, one bound on the memos its searches hold. */
export const searchSlots = new SearchSlots();
