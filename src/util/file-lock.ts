import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A lock older than this is taken over (its holder hung or the machine slept mid-refresh). */
const STALE_MS = 30_000;

/** Waits between tries: short at first (a refresh takes a round trip), growing to this. */
const MAX_POLL_MS = 200;

/** Why a lock could not be had in time (another process holds it and is not done). */
export class LockTimeoutError extends Error {}

/**
 * Runs `run` while holding a lock shared by every process of this user on `file`: the file
 * `<file>.lock`, created exclusively, holding the holder's pid and start time. Two gateways
 * refreshing one sign-in take turns this way, so the second reads what the first wrote instead of
 * spending a refresh token the first already rotated. A lock whose holder is gone (its pid no
 * longer runs here) or that is older than 30 s is taken over. Not re-entrant: `run` must not lock
 * the same file again.
 *
 * @throws LockTimeoutError when the lock stays held for `waitMs`.
 */
export async function withFileLock<T>(file: string, run: () => Promise<T>, waitMs = 15_000): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  let pause = 5;
  for (;;) {
    const taken = tryTake(lock);
    if (taken) break;
    if (Date.now() > deadline) throw new LockTimeoutError(`${lock} is held by another lazytools process (waited ${Math.round(waitMs / 1000)} s)`);
    await sleep(pause);
    pause = Math.min(MAX_POLL_MS, pause * 2);
  }
  try {
    return await run();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Taken over as stale meanwhile: the new holder owns it now.
    }
  }
}

/** Creates the lock file; false when another live holder has it. */
function tryTake(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx', 0o600);
    writeSync(fd, `${process.pid} ${Date.now()}`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const seen = readHolder(lock);
  if (seen === undefined || !stale(seen)) return false;
  // Removed only if it is still the lock judged stale (not a fresh one taken meanwhile).
  if (readHolder(lock)?.text === seen.text) {
    try {
      unlinkSync(lock);
    } catch {
      // Gone already.
    }
  }
  return false;
}

function readHolder(lock: string): { pid: number; at: number; text: string } | undefined {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, at] = text.split(' ').map(Number);
  // A half-written lock (its writer between open and write) reads as fresh.
  return { pid: Number.isInteger(pid) ? (pid as number) : 0, at: Number.isFinite(at) ? (at as number) : Date.now(), text };
}

function stale(holder: { pid: number; at: number }): boolean {
  if (Date.now() - holder.at > STALE_MS) return true;
  if (holder.pid <= 0 || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
