import { assign, createActor, setup, type Actor, type SnapshotFrom } from 'xstate';
import { MAX_TIMER_MS } from '../util/bounds.js';
import type { UpstreamStatus } from './types.js';

/*
 * An upstream's lifecycle as a state machine (XState): idle (not started, or stopped), starting,
 * ready, down. Down waits out a backoff before a restart may come, as a delayed transition
 * (`waiting` -> `retryable`); ready checks for idleness on a delayed transition and stops an
 * upstream that had no call for its idle timeout. The Upstream (upstream.ts) does the work (spawn,
 * connect, close) and tells the machine what happened; the machine decides the status, when a
 * restart may come, and when an idle upstream stops. Tests `.provide()` the delays and guards.
 */

/** What the upstream tells its lifecycle. */
export type LifecycleEvent =
  | { type: 'START' }
  | { type: 'STARTED' }
  /** A start failed or the running server exited: counted for the backoff. */
  | { type: 'FAILED' }
  /** A server that cannot start at all (an unset ${VAR}): down, not counted. */
  | { type: 'DISABLED' }
  | { type: 'STOP' }
  /** A call was answered: the server is healthy, the backoff starts over. */
  | { type: 'ANSWERED' };

export interface LifecycleContext {
  /** Consecutive failures (start errors and crashes); an answered call resets it. */
  failures: number;
  /** When a restart may come (epoch ms), after the last failure. */
  retryAt: number;
}

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * The wait before a restart after `failures` consecutive failures: the first restart may come at
 * once (a crash is often a one-off), then the wait doubles from 0.5 s up to 30 s.
 */
export function backoffMs(failures: number): number {
  return failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (failures - 2));
}

/** How often a ready upstream checks whether it has been idle for `idleMs`: a quarter of it, 50 ms to 10 s. */
export function idleCheckMs(idleMs: number): number {
  return Math.max(50, Math.min(idleMs / 4, 10_000));
}

/** The longest delay a timer takes (about 24.8 days, util/bounds): "never" for an upstream without an idle timeout. */
const NEVER_MS = MAX_TIMER_MS;

/**
 * The machine, with defaults the upstream overrides by `.provide()`: `idle` (nothing in flight,
 * unused for the idle timeout, nothing keeping it alive), `stopIdle` (stop the process), and the
 * `idleCheck` delay.
 */
export const lifecycleMachine = setup({
  types: { context: {} as LifecycleContext, events: {} as LifecycleEvent },
  delays: {
    backoff: ({ context }) => Math.max(0, context.retryAt - Date.now()),
    idleCheck: NEVER_MS,
  },
  guards: {
    idle: () => false,
    waitedOut: ({ context }) => context.retryAt <= Date.now(),
  },
  actions: {
    countFailure: assign(({ context }) => {
      const failures = context.failures + 1;
      return { failures, retryAt: Date.now() + backoffMs(failures) };
    }),
    resetFailures: assign({ failures: 0 }),
    stopIdle: () => {},
  },
}).createMachine({
  id: 'upstream',
  initial: 'idle',
  context: { failures: 0, retryAt: 0 },
  on: {
    STOP: '.idle',
    DISABLED: '.down',
    ANSWERED: { actions: 'resetFailures' },
  },
  states: {
    idle: { on: { START: 'starting' } },
    starting: {
      on: {
        STARTED: 'ready',
        FAILED: { target: 'down', actions: 'countFailure' },
      },
    },
    ready: {
      on: { FAILED: { target: 'down', actions: 'countFailure' } },
      after: {
        idleCheck: [{ guard: 'idle', target: 'idle', actions: 'stopIdle' }, { target: 'ready', reenter: true }],
      },
    },
    down: {
      // A restart may come once the backoff is waited out (a call's start asks then).
      on: { START: { guard: 'waitedOut', target: 'starting' } },
      initial: 'waiting',
      states: {
        waiting: { after: { backoff: 'retryable' } },
        retryable: {},
      },
    },
  },
});

export type Lifecycle = Actor<typeof lifecycleMachine>;

/** The status an upstream reports for a lifecycle snapshot (`down` whatever its backoff). */
export function statusOf(snapshot: SnapshotFrom<typeof lifecycleMachine>): UpstreamStatus {
  return typeof snapshot.value === 'string' ? snapshot.value : 'down';
}

/** Seconds until a restart may come (0: now), for the error a refused start gives. */
export function waitSeconds(snapshot: SnapshotFrom<typeof lifecycleMachine>): number {
  if (!snapshot.matches('down')) return 0;
  const left = snapshot.context.retryAt - Date.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Timers that never keep the process alive (an idle check, a backoff). */
const unrefClock = {
  setTimeout: (fn: (...args: unknown[]) => void, ms: number) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer: unknown) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * The lifecycle of one upstream: its idle check (`idleMs`, undefined: never stops for idleness),
 * what idle means for it and how it stops. `changed` hears every status change.
 */
export function createLifecycle(options: { idleMs: number | undefined; idle: () => boolean; stop: () => void; changed: (status: UpstreamStatus) => void }): Lifecycle {
  const machine = lifecycleMachine.provide({
    delays: { idleCheck: options.idleMs ? idleCheckMs(options.idleMs) : NEVER_MS },
    guards: { idle: () => options.idle() },
    actions: { stopIdle: () => options.stop() },
  });
  const actor = createActor(machine, { clock: unrefClock });
  let last: UpstreamStatus = 'idle';
  actor.subscribe((snapshot) => {
    const status = statusOf(snapshot);
    if (status === last) return;
    last = status;
    options.changed(status);
  });
  return actor.start();
}
