import { readdirSync, readFileSync } from 'node:fs';

/**
 * Counts events (notifications, log lines) and lets a test wait for the n-th one: no polling and
 * no sleep, a missing event fails the test at its timeout.
 */
export class EventCounter {
  count = 0;
  private waiters: Array<{ n: number; resolve: () => void }> = [];

  /** Records one event (usable as a callback). */
  readonly hit = (): void => {
    this.count++;
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.n > this.count) return true;
      waiter.resolve();
      return false;
    });
  };

  /** Resolves once `n` events were recorded in all. */
  reached(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

/** A promise with its resolver outside, for "wait until this callback ran". */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Polls a condition that has no event to wait on (the state of other processes in /proc), with a
 * deadline. Everything that has an event (a notification, an exit, a log line, an answer) waits
 * on that instead.
 */
export async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** Live child processes of `pid` (Linux /proc), for counting spawned upstreams. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** True while a process exists (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A process's resident memory in MiB (Linux /proc), for bounds on what a flood may grow. */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}
