// When an upstream may restart after failures, and when an unused one stops.

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * Restarts after a failure: the first may come at once (a crash is often a one-off), then the wait
 * doubles from 0.5 s up to 30 s until a call succeeds again.
 */
export class Backoff {
  /** Consecutive failures (start errors and crashes); a successful call resets it. */
  private failures = 0;
  private retryAt = 0;

  succeeded(): void {
    this.failures = 0;
  }

  failed(): void {
    this.failures++;
    const delay = this.failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (this.failures - 2));
    this.retryAt = Date.now() + delay;
  }

  /** Whole seconds until a restart may come; 0 when it may come now. */
  waitSeconds(): number {
    const left = this.retryAt - Date.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }
}

/**
 * Calls `stop` once `idle()` has held for `idleMs`, checked every quarter of it (50 ms to 10 s).
 * The timer does not keep the process alive.
 */
export function watchIdle(idleMs: number, idle: () => boolean, stop: () => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (idle()) stop();
  }, Math.max(50, Math.min(idleMs / 4, 10_000)));
  timer.unref();
  return timer;
}
