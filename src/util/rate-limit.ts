import type { Logger } from './log.js';

/**
 * Lets at most `limit` events through per window and counts the rest; the count is reported once,
 * when the window ends (a timer that keeps no process alive). What a peer can make us log, or
 * write, then costs a bounded number of lines a second however fast it sends.
 */
export class RateLimit {
  private windowStart = -Infinity;
  private used = 0;
  private suppressed = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Hears how many events were held back in a window that ended. */
    private readonly report: (suppressed: number) => void,
  ) {}

  /** True when this event may go through; false when it is counted instead. */
  allow(now = performance.now()): boolean {
    if (now - this.windowStart >= this.windowMs) {
      this.flush();
      this.windowStart = now;
      this.used = 0;
    }
    if (++this.used <= this.limit) return true;
    this.suppressed++;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(1, this.windowStart + this.windowMs - now));
      this.timer.unref();
    }
    return false;
  }

  /** Reports what was held back so far, if anything. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const suppressed = this.suppressed;
    this.suppressed = 0;
    if (suppressed > 0) this.report(suppressed);
  }
}

/** Warnings a second one upstream (or any one peer) may cause before the rest are only counted. */
export const WARNINGS_PER_SECOND = 10;

/**
 * A logger whose warnings are rate-limited (WARNINGS_PER_SECOND, then one line saying how many
 * more there were): an upstream that sends a thousand broken messages a second costs ten lines.
 */
export function limitWarnings(logger: Logger, who: string): Logger {
  const limit = new RateLimit(WARNINGS_PER_SECOND, 1_000, (more) => logger.warn(`${who}: ${more} more warnings left out (over ${WARNINGS_PER_SECOND} a second)`));
  return {
    ...logger,
    warn: (message) => {
      if (limit.allow()) logger.warn(message);
    },
  };
}
