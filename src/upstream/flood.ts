/**
 * Bounds the work one upstream's unasked messages can cause (notifications, its requests to its
 * client such as `ping` or `roots/list`, answers to requests never sent), so a flood on one
 * upstream slows only that one (a notification flood on one upstream once raised every client's
 * latency ~40x; a flood of 100,000 pings held the gateway for minutes). Three parts, each cheap per message:
 * - list changes are coalesced before any parsing by the SDK: a list_changed whose re-list is
 *   already due (one seen in this read burst, or one queued behind the re-list in flight) adds
 *   nothing and is dropped, though it counts against the budget below (a reader is held for them too);
 * - re-lists of one upstream are paced (RELIST_GAP_MS apart, or RELIST_SPACING times as long as
 *   the last one held the event loop, reading its pages and rebuilding: relistGap), so a burst
 *   costs one re-list now and one later, not one per round trip, and at most about a tenth of the
 *   gateway's time however big each list or rebuild is;
 * - a budget of notifications per window (and a smaller one of requests, REQUEST_BUDGET): past
 *   it, the upstream is not read until the window ends (a stdio pipe, or an HTTP server's SSE
 *   streams through ReadHold: it waits, only it slows); over HTTP what was already read past it is
 *   dropped (list changes excepted: they are coalesced, never lost) and reported once a window.
 */
import type { ListKind } from './types.js';

/** Unasked messages one upstream may send per window before it is slowed or its excess dropped. */
export const NOTIFICATION_BUDGET = 1_000;
/**
 * Of those, requests (ping, roots/list, sampling, elicitation, or any other): each is answered,
 * and over HTTP an answer is a POST of its own. At 1,000 a second those POSTs took the whole
 * event loop: a remote server pouring requests kept new clients from connecting (initialize timed
 * out) and the gateway at 1 GB. Past it, an HTTP server's requests go unanswered (its own
 * timeout ends them) and a stdio server is held, as past NOTIFICATION_BUDGET.
 */
export const REQUEST_BUDGET = 100;
/** The window NOTIFICATION_BUDGET is counted over: a burst is judged per second, not per connection's life. */
export const BUDGET_WINDOW_MS = 1_000;
/** The least time between the starts of two re-lists of one upstream's list (a burst's second one waits). */
export const RELIST_GAP_MS = 500;
/**
 * Within a burst, the next re-list also waits this many times as long as the last one held the
 * gateway's event loop: reading and parsing its pages, and the catalog rebuild it caused (the
 * list's waiting, on the network or the upstream, costs the gateway nothing). An upstream
 * announcing a change every 100 ms with 5,000 fresh tools each time (a 170 ms rebuild) otherwise
 * kept the gateway half busy for good, every client's search 20x slower; one answering each list
 * with a 48 MiB page and announcing a change right after held the event loop ~2 s of every
 * ~3.7 s, for every client, while only the rebuild was counted. Outside bursts a change is
 * re-listed at once, whatever it cost.
 */
export const RELIST_SPACING = 10;
/**
 * The most a re-list waits after the last one started, whatever that cost: the cost is the whole
 * event loop's active time across the list (other clients' work in it too), so a gateway busy with
 * others while an honest list is read slowly does not leave that upstream's tools stale for long.
 */
export const RELIST_MAX_GAP_MS = 60_000;

/**
 * How long after the start of a re-list the next re-list of that upstream waits (within a burst),
 * given the milliseconds the last one held the event loop (`costMs`): at least RELIST_GAP_MS,
 * RELIST_SPACING times that cost, at most RELIST_MAX_GAP_MS.
 */
export function relistGap(costMs: number): number {
  const cost = costMs > 0 ? costMs : 0;
  return Math.min(RELIST_MAX_GAP_MS, Math.max(RELIST_GAP_MS, cost * RELIST_SPACING));
}

const LIST_CHANGES: ReadonlyMap<string, ListKind> = new Map([
  ['notifications/tools/list_changed', 'tools'],
  ['notifications/prompts/list_changed', 'prompts'],
  ['notifications/resources/list_changed', 'resources'],
]);

/** The list a notification method announces a change of, if any. */
export function listChangeOf(method: string): ListKind | undefined {
  return LIST_CHANGES.get(method);
}

/**
 * A transport that can stop reading its upstream for a while: a stdio child's pipe, or a remote
 * server's SSE streams (ReadHold): past the budget it is held, so a flood slows only its upstream.
 */
export interface HoldsReading {
  holdReading(ms: number): void;
}

/** Whether `transport` can be held (HoldsReading). */
export function holdsReading(transport: object): transport is HoldsReading {
  return typeof (transport as Partial<HoldsReading>).holdReading === 'function';
}

/**
 * The pause of one remote server's SSE streams (boundedFetch awaits `paused()` before it passes
 * each chunk on): while held, the response bodies are not read, TCP fills, and the server waits.
 * A flood over HTTP was parsed whole before the gate could drop it: a server that poured
 * notifications, requests and stray answers on its streams held every client's calls for seconds
 * and `/healthz` for a minute, with the gateway at 700 MB.
 */
export class ReadHold implements HoldsReading {
  private until = 0;
  private timer: Promise<void> | undefined;

  holdReading(ms: number): void {
    this.until = Math.max(this.until, performance.now() + ms);
  }

  /** A promise to wait on while held, else undefined (the hot path allocates nothing). */
  paused(): Promise<void> | undefined {
    const wait = this.until - performance.now();
    if (wait <= 0) return undefined;
    this.timer ??= new Promise<void>((resolve) => setTimeout(resolve, wait).unref()).finally(() => (this.timer = undefined));
    return this.timer;
  }
}

/** What the gate says of one notification. */
export type Verdict = 'pass' | 'coalesced' | 'drop';

/**
 * One upstream's notification gate (see the module comment). `queued(kind)` tells whether a
 * re-list of that list is already due after the one in flight.
 */
export class FloodGate {
  private readonly burst = new Set<ListKind>();
  private windowStart = -Infinity;
  private used = 0;
  /** Requests among them (REQUEST_BUDGET). */
  private asked = 0;
  /** Dropped in the current window (reported when the next one starts). */
  private dropped = 0;

  constructor(
    private readonly queued: (kind: ListKind) => boolean,
    private readonly budget = NOTIFICATION_BUDGET,
    private readonly windowMs = BUDGET_WINDOW_MS,
    private readonly askBudget = REQUEST_BUDGET,
  ) {}

  /**
   * Judges one notification. `canHold` is true when the transport can stop reading (stdio): past
   * the budget the caller holds it for `holdMs()` and the notification still passes.
   * `report` hears how many were dropped in the window that just ended.
   */
  judge(method: string, canHold: boolean, now: number, report: (dropped: number) => void): Verdict {
    if (now - this.windowStart >= this.windowMs) {
      if (this.dropped > 0) report(this.dropped);
      this.windowStart = now;
      this.used = 0;
      this.asked = 0;
      this.dropped = 0;
    }
    // Every message counts, a coalesced list change too: each was read and judged, and a server
    // pouring list changes over HTTP (coalesced, never counted) was read without pause.
    this.used++;
    const kind = listChangeOf(method);
    if (kind !== undefined) {
      if (this.burst.has(kind) || this.queued(kind)) return 'coalesced';
      // Messages of one read burst are handled in one synchronous pass: the SDK's handlers (which
      // queue the re-list) run after it, so the burst remembers the kind until then.
      if (this.burst.size === 0) queueMicrotask(() => this.burst.clear());
      this.burst.add(kind);
    }
    // `method` is a request's unless it names a notification, or stands for a stray answer or an unreadable message (raw.ts).
    const asks = kind === undefined && method !== 'response' && method !== 'error' && !method.startsWith('notifications/');
    if (asks) this.asked++;
    if (canHold || kind !== undefined || (this.used <= this.budget && !(asks && this.asked > this.askBudget))) return 'pass';
    this.dropped++;
    return 'drop';
  }

  /** True once the window's budget is spent: a transport that can should stop reading for holdMs(). */
  get spent(): boolean {
    return this.used > this.budget || this.asked > this.askBudget;
  }

  /** How long until the current window ends. */
  holdMs(now: number): number {
    return Math.max(1, Math.ceil(this.windowStart + this.windowMs - now));
  }
}

/** Waits until `gapMs` after `since` (performance.now() time), at once when that has passed. */
export function paced(since: number, gapMs = RELIST_GAP_MS): Promise<void> {
  const wait = since + gapMs - performance.now();
  return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait).unref());
}
