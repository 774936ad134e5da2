import { randomUUID } from 'node:crypto';
import { Shares } from '../util/counts.js';
import { invalidRequestState, requestStateMismatch, unansweredInput } from '../protocol/errors.js';

/** How long a client may take to answer an input round (a user filling in a form). */
const ROUND_TTL_MS = 10 * 60_000;
/** Rounds waiting for their clients at once (a bound on memory, far above real use). */
const MAX_OPEN_ROUNDS = 1_000;
/** Rounds one bearer token may hold open, so one token cannot fill the table for the others. */
export const MAX_ROUNDS_PER_TOKEN = 100;

/** Marks the requestState lazytools mints (others belong to a 2026-07-28 upstream, passed through). */
const STATE_PREFIX = 'lazytools-round-';

/** True when a retried request's requestState is one of lazytools' own rounds. */
export function isRoundState(state: unknown): state is string {
  return typeof state === 'string' && state.startsWith(STATE_PREFIX);
}

/** A request the upstream sent its client mid-call, waiting for the client's answer. */
interface Ask {
  request: { method: string; params?: Record<string, unknown> };
  answer(result: Record<string, unknown>): void;
  fail(error: Error): void;
}

/** The 2026-07-28 result that asks the client for input and carries the state to retry with. */
export interface InputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState: string;
  [key: string]: unknown;
}

/** One front request whose upstream may ask the client (sampling, elicitation, roots) mid-call. */
export interface InputAsker {
  /** Carries the upstream's request to the client; resolves with the client's answer. */
  ask(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
}

class Round implements InputAsker {
  readonly queued: Ask[] = [];
  readonly waiting = new Map<string, Ask>();
  private wake: (() => void) | undefined;
  private seq = 0;
  timer: NodeJS.Timeout | undefined;
  /** Cancels the upstream call: the client went away before an answer, or the round expired. */
  readonly controller = new AbortController();

  constructor(
    readonly owner: string | undefined,
    /** What the round answers (`tools/call <name>`, ...): a retry must ask the same. */
    readonly subject: string,
  ) {}

  ask(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    return new Promise((answer, fail) => {
      this.queued.push({ request: params === undefined ? { method } : { method, params }, answer, fail });
      this.wake?.();
    });
  }

  /** Resolves once an ask is queued (at once when one is). */
  nextAsk(): Promise<void> {
    if (this.queued.length > 0) return Promise.resolve();
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Moves the queued asks to waiting under fresh keys; returns them as input requests. */
  takeAsks(): InputRequired['inputRequests'] {
    const requests: InputRequired['inputRequests'] = {};
    for (const ask of this.queued.splice(0)) {
      const key = `input-${++this.seq}`;
      this.waiting.set(key, ask);
      requests[key] = ask.request;
    }
    this.wake = undefined;
    return requests;
  }

  failAll(error: Error): void {
    for (const ask of [...this.queued.splice(0), ...this.waiting.values()]) ask.fail(error);
    this.waiting.clear();
  }
}

/**
 * Turns a 2025 upstream's requests to its client into 2026-07-28 `input_required` rounds for a
 * modern client, and the client's retry back into answers. The upstream call keeps running in
 * this process while the client answers, so the retry must reach the same process: the one
 * piece of modern-era state lazytools holds, bounded in count and time, keyed by an unguessable
 * `requestState` that changes every round and is bound to the caller's authorization.
 */
export class InputRounds<R> {
  private readonly open = new Map<string, { round: Round; work: Promise<R> }>();
  private readonly perOwner = new Shares<string>();

  /**
   * Runs `work`; when the upstream asks the client before it ends, answers with an
   * input_required result instead, and the work goes on until the client's retry.
   */
  begin(owner: string | undefined, subject: string, work: (asker: InputAsker, signal: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R | InputRequired> {
    const round = new Round(owner, subject);
    return this.step(round, work(round, round.controller.signal), signal);
  }

  /**
   * The client's retry: its answers go to the waiting asks, then the call goes on as in begin.
   * An unknown, expired or foreign `requestState` is an error naming why; so is a retry of
   * another request (a round of `tools/call a` retried as `tools/call b` would get a's result).
   */
  resume(owner: string | undefined, subject: string, state: string, responses: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<R | InputRequired> {
    const open = this.open.get(state);
    if (!open || open.round.owner !== owner) return Promise.reject(invalidRequestState());
    if (open.round.subject !== subject)
      return Promise.reject(requestStateMismatch(open.round.subject, subject));
    this.close(state);
    clearTimeout(open.round.timer);
    for (const [key, ask] of open.round.waiting) {
      const response = responses?.[key];
      if (response && typeof response === 'object' && !Array.isArray(response)) ask.answer(response as Record<string, unknown>);
      else ask.fail(unansweredInput(key, ask.request.method));
    }
    open.round.waiting.clear();
    return this.step(open.round, open.work, signal);
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Ends every open round whose owner `keeps` no longer admits (a reload took its token's access
   * away): its asks fail and its upstream call is cancelled now, instead of running until the
   * round expires (10 minutes) for a retry that can no longer resume it.
   */
  abandon(keeps: (owner: string | undefined) => boolean, reason: string): void {
    for (const [state, { round }] of [...this.open]) {
      if (keeps(round.owner)) continue;
      this.close(state);
      clearTimeout(round.timer);
      round.failAll(new Error(`lazytools: ${reason}`));
      round.controller.abort(reason);
    }
  }

  /** Forgets an open round (answered or expired), and counts it off its token's share. */
  private close(state: string): void {
    const owner = this.open.get(state)?.round.owner;
    this.open.delete(state);
    if (owner !== undefined) this.perOwner.release(owner);
  }

  /**
   * Waits for the call's end or its next question. The request being answered (`signal`) may
   * cancel the call while it waits; once it is answered with a round, only the retry can.
   */
  private async step(round: Round, work: Promise<R>, signal: AbortSignal | undefined): Promise<R | InputRequired> {
    const cancel = () => round.controller.abort(signal?.reason);
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    let next: { result: R } | undefined;
    try {
      next = await Promise.race([work.then((result) => ({ result })), round.nextAsk().then(() => undefined)]);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    if (next) return next.result;
    const full = this.open.size >= MAX_OPEN_ROUNDS;
    if (full || (round.owner !== undefined && !this.perOwner.take(round.owner, MAX_ROUNDS_PER_TOKEN))) {
      const whose = full ? '' : ` for this token (at most ${MAX_ROUNDS_PER_TOKEN})`;
      round.failAll(new Error(`lazytools: too many input rounds are waiting for their clients${whose}`));
      return work;
    }
    const state = `${STATE_PREFIX}${randomUUID()}`;
    this.open.set(state, { round, work });
    round.timer = setTimeout(() => {
      if (this.open.get(state)?.round !== round) return;
      this.close(state);
      round.failAll(new Error('lazytools: the client did not answer the input request in time'));
      round.controller.abort('the client did not answer in time');
    }, ROUND_TTL_MS);
    round.timer.unref();
    // The work's own failure while the client answers is reported on the retry.
    work.catch(() => {});
    return { resultType: 'input_required', inputRequests: round.takeAsks(), requestState: state };
  }
}
