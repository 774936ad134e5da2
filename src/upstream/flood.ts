/**
 * Bounds the work one upstream's unasked messages can cause (notifications, its requests to its
 * client such as `ping` or `roots/list`, answers to requests never sent), so a flood on one
 * upstream slows only that one (a notification flood on one upstream once raised every client's
 * latency ~40x; a flood of 100,000 pings held the gateway for minutes). Three parts, each cheap per message:
 * - list changes are coalesced before any parsing by the SDK: a list_changed whose re-list is
 *   already due (one seen in this read burst, or one queued behind the re-list in flight) adds
 *   nothing and is dropped;
 * - re-lists of one upstream are paced (RELIST_GAP_MS apart, or RELIST_SPACING times as long as
 *   the last one took), so a burst costs one catalog rebuild now and one later, not one per round
 *   trip, and at most about a tenth of the gateway's time however big each rebuild is;
 * - a budget of notifications per window: past it, a stdio upstream is not read until the window
 *   ends (its pipe fills and it waits: only it slows), and over other transports the excess is
 *   dropped (list changes excepted: they are coalesced, never lost) and reported once a window.
 */
import type { ListKind } from './types.js';

/** Unasked messages one upstream may send per window before it is slowed or its excess dropped. */
export const NOTIFICATION_BUDGET = 1_000;
/** The window NOTIFICATION_BUDGET is counted over: a burst is judged per second, not per connection's life. */
export const BUDGET_WINDOW_MS = 1_000;
/** The least time between the starts of two re-lists of one upstream's list (a burst's second one waits). */
export const RELIST_GAP_MS = 500;
/**
 * Within a burst, the next re-list also waits this many times as long as the gateway took to take
 * the last one (the catalog rebuild it caused; the list's own time, the network's and the
 * upstream's, costs the gateway nothing): an upstream announcing a change every 100 ms with 5,000
 * fresh tools each time (a 170 ms rebuild) otherwise kept the gateway half busy for good, every
 * client's search 20x slower. Outside bursts a change is re-listed at once, whatever it cost.
 */
export const RELIST_SPACING = 10;

const LIST_CHANGES: ReadonlyMap<string, ListKind> = new Map([
  ['notifications/tools/list_changed', 'tools'],
  ['notifications/prompts/list_changed', 'prompts'],
  ['notifications/resources/list_changed', 'resources'],
]);

/** The list a notification method announces a change of, if any. */
export function listChangeOf(method: string): ListKind | undefined {
  return LIST_CHANGES.get(method);
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
  /** Dropped in the current window (reported when the next one starts). */
  private dropped = 0;

  constructor(
    private readonly queued: (kind: ListKind) => boolean,
    private readonly budget = NOTIFICATION_BUDGET,
    private readonly windowMs = BUDGET_WINDOW_MS,
  ) {}

  /**
   * Judges one notification. `canHold` is true when the transport can stop reading (stdio): past
   * the budget the caller holds it for `holdMs()` and the notification still passes.
   * `report` hears how many were dropped in the window that just ended.
   */
  judge(method: string, canHold: boolean, now: number, report: (dropped: number) => void): Verdict {
    const kind = listChangeOf(method);
    if (kind !== undefined) {
      if (this.burst.has(kind) || this.queued(kind)) return 'coalesced';
      // Messages of one read burst are handled in one synchronous pass: the SDK's handlers (which
      // queue the re-list) run after it, so the burst remembers the kind until then.
      if (this.burst.size === 0) queueMicrotask(() => this.burst.clear());
      this.burst.add(kind);
    }
    if (now - this.windowStart >= this.windowMs) {
      if (this.dropped > 0) report(this.dropped);
      this.windowStart = now;
      this.used = 0;
      this.dropped = 0;
    }
    this.used++;
    if (this.used <= this.budget || canHold || kind !== undefined) return 'pass';
    this.dropped++;
    return 'drop';
  }

  /** True once the window's budget is spent: a transport that can should stop reading for holdMs(). */
  get spent(): boolean {
    return this.used > this.budget;
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
