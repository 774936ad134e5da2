/**
 * A search as a series of passes over the catalog's postings (engine.ts): a generator that yields
 * before each pass, run to its end at once (`finish`: the CLI and library, and in the gateway the
 * searches of fitting's typical tasks and of a focus_mode intent) or with the
 * event loop let through between passes (`interleaved`: the gateway's search_tools). One
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
 * in turn among the parties waiting, then among a party's holders. A holder is a session (or one
 * 2026-07-28 request, which has none); its party is the bearer token it came with (every session
 * and request of one token), else itself. A party runs at most `perParty` searches (half the
 * slots), so another party always finds one free: a token that opens 500 sessions, each queuing
 * searches, takes one turn in each round, not 500, and the other tokens' searches start next.
 * A client that queues a hundred searches waits behind its own.
 */
export class SearchSlots {
  private running = 0;
  /** Slots each holder, and each party, runs now. */
  private readonly held = new Map<SlotHolder, number>();
  private readonly partyHeld = new Map<SlotHolder, number>();
  /**
   * Waiting grants per party, then per holder; each Map's order is the turn order (a served
   * party, and a served holder within it, goes last). Empty entries are removed at once.
   */
  private readonly waiting = new Map<SlotHolder, Map<SlotHolder, Array<() => void>>>();
  /** Grants waiting in all (for tests and metrics). */
  private queued = 0;

  constructor(
    private readonly most: number = MAX_SEARCHES,
    private readonly perHolder: number = MAX_SEARCHES_PER_HOLDER,
    private readonly perParty: number = Math.max(perHolder, Math.floor(most / 2)),
  ) {}

  /** Searches running now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  /** Searches waiting for a slot now (for tests and metrics). */
  get waitingCount(): number {
    return this.queued;
  }

  /**
   * Waits for a slot for `holder` (of `party`: its bearer token, else itself) and returns its
   * release (call it once the search is done, whatever its outcome). A request cancelled while
   * waiting (`signal`) leaves the queue with SearchCancelled and takes no slot.
   */
  async acquire(holder: SlotHolder, signal?: AbortSignal, party: SlotHolder = holder): Promise<() => void> {
    if (signal?.aborted) throw new SearchCancelled();
    if (this.running >= this.most || this.waiting.size > 0 || !this.mayTake(holder, party)) {
      await new Promise<void>((resolve, reject) => {
        let holders = this.waiting.get(party);
        if (!holders) this.waiting.set(party, (holders = new Map()));
        let queue = holders.get(holder);
        if (!queue) holders.set(holder, (queue = []));
        const mine = queue;
        const onAbort = (): void => {
          const at = mine.indexOf(grant);
          if (at >= 0) {
            mine.splice(at, 1);
            this.queued--;
          }
          const inParty = this.waiting.get(party);
          if (mine.length === 0 && inParty?.get(holder) === mine) inParty.delete(holder);
          if (inParty?.size === 0) this.waiting.delete(party);
          reject(new SearchCancelled());
        };
        const grant = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        mine.push(grant);
        this.queued++;
        signal?.addEventListener('abort', onAbort, { once: true });
        // Slots may be free while others wait (holders at their share): served in turn at once.
        this.grantNext();
      });
    } else this.take(holder, party);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      drop(this.held, holder);
      drop(this.partyHeld, party);
      this.grantNext();
    };
  }

  private mayTake(holder: SlotHolder, party: SlotHolder): boolean {
    return (this.held.get(holder) ?? 0) < this.perHolder && (this.partyHeld.get(party) ?? 0) < this.perParty;
  }

  private take(holder: SlotHolder, party: SlotHolder): void {
    this.running++;
    this.held.set(holder, (this.held.get(holder) ?? 0) + 1);
    this.partyHeld.set(party, (this.partyHeld.get(party) ?? 0) + 1);
  }

  /**
   * Hands free slots to the waiting parties in turn, each one grant to its first holder in turn
   * below its share, the served party and holder to the back; one at its share keeps its place
   * until one of its searches ends.
   */
  private grantNext(): void {
    while (this.running < this.most) {
      let granted = false;
      for (const [party, holders] of [...this.waiting]) {
        if (this.running >= this.most) return;
        if ((this.partyHeld.get(party) ?? 0) >= this.perParty) continue;
        const holder = [...holders.keys()].find((key) => (this.held.get(key) ?? 0) < this.perHolder);
        if (holder === undefined) continue;
        const queue = holders.get(holder) ?? [];
        const grant = queue.shift();
        holders.delete(holder);
        if (queue.length > 0) holders.set(holder, queue);
        this.waiting.delete(party);
        if (holders.size > 0) this.waiting.set(party, holders);
        if (!grant) continue;
        this.queued--;
        this.take(holder, party);
        grant();
        granted = true;
      }
      if (!granted) return;
    }
  }
}

/** One less for `key`; the entry goes at zero (the maps hold only what runs). */
function drop(counts: Map<SlotHolder, number>, key: SlotHolder): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** The gateway's search slots: one process, one bound on the memos its searches hold. */
export const searchSlots = new SearchSlots();
