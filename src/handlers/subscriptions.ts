import { tooManySubscriptions } from '../protocol/errors.js';
import { UpstreamError } from '../upstream/error.js';
import type { Upstream } from '../upstream/upstream.js';
import type { SubscriptionTable } from './caller.js';

/** Subscriptions one session may hold (a bound on the gateway's memory, far above real use). */
export const MAX_SUBSCRIPTIONS = 1_000;

type RequestOptions = Parameters<Upstream['request']>[2];

/** One upstream URI: the sessions holding it, and its subscribe (`settled` once answered). */
interface Entry {
  server: string;
  uri: string;
  sessions: Set<object>;
  ready: Promise<unknown>;
  settled: boolean;
}

/**
 * Who is subscribed to which upstream URI. The upstream hears one subscribe when the first session
 * subscribes and one unsubscribe when the last leaves; resources/updated reaches only subscribers.
 * A URI is registered as soon as its subscribe is sent, not when the upstream answers: a session
 * subscribing meanwhile waits on that one request, and an unsubscribe meanwhile counts (it was a
 * no-op, and the session stayed subscribed once the answer came). That request is every waiting
 * session's, so it carries none's cancel signal: a session that cancels or closes stops waiting
 * alone. When the last one leaves before the answer, the entry stays (holding no session) until
 * the answer comes, then the upstream hears the unsubscribe: nothing left subscribed, nothing leaked.
 */
export class Subscriptions implements SubscriptionTable {
  private readonly byKey = new Map<string, Entry>();
  private readonly counts = new WeakMap<object, number>();

  constructor(private readonly max = MAX_SUBSCRIPTIONS) {}

  async subscribe(session: object, upstream: Upstream, uri: string, options: RequestOptions = {}): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    let entry = this.byKey.get(key);
    if (!entry?.sessions.has(session)) {
      const count = this.counts.get(session) ?? 0;
      if (count >= this.max) throw tooManySubscriptions(this.max);
      this.counts.set(session, count + 1);
      entry ??= this.open(key, upstream, uri, options);
      entry.sessions.add(session);
    }
    try {
      await untilAborted(entry.ready, options.signal, upstream.name);
    } catch (error) {
      // Refused (the answer's handler already let every session go) or this session cancelled.
      this.leave(session, entry);
      if (entry.settled && entry.sessions.size === 0) void this.release(key, entry, upstream).catch(() => {});
      throw error;
    }
  }

  async unsubscribe(session: object, upstream: Upstream, uri: string, options: RequestOptions = {}): Promise<void> {
    const key = `${upstream.name}\n${uri}`;
    const entry = this.byKey.get(key);
    if (!entry || !this.leave(session, entry)) return;
    // Still unanswered: the answer's handler unsubscribes if no session has come back by then.
    if (entry.sessions.size > 0 || !entry.settled) return;
    await this.release(key, entry, upstream, options);
  }

  /** True while a session holds a subscription on the server (its process must keep running). */
  holds(server: string): boolean {
    for (const entry of this.byKey.values()) if (entry.server === server) return true;
    return false;
  }

  /** Sessions subscribed to a URI of a server. */
  subscribers(server: string, uri: string): ReadonlySet<object> {
    return this.byKey.get(`${server}\n${uri}`)?.sessions ?? new Set();
  }

  /** Drops a closed session's subscriptions (unsubscribing upstream where it was the last). */
  drop(session: object, upstreams: ReadonlyMap<string, Upstream>): void {
    for (const [key, entry] of this.byKey) {
      if (!this.leave(session, entry) || entry.sessions.size > 0 || !entry.settled) continue;
      const upstream = upstreams.get(entry.server);
      if (upstream?.status === 'ready') void this.release(key, entry, upstream).catch(() => {});
      else this.byKey.delete(key);
    }
  }

  /** Subscribes again after an upstream (re)started: a new process knows no subscriptions. */
  renew(upstream: Upstream): void {
    for (const entry of this.byKey.values())
      if (entry.server === upstream.name && entry.sessions.size > 0) void upstream.request('resources/subscribe', { uri: entry.uri }).catch(() => {});
  }

  /** Sends the one subscribe for a URI; its answer settles the entry for whoever holds it then. */
  private open(key: string, upstream: Upstream, uri: string, options: RequestOptions): Entry {
    // The origin routes what the upstream asks back meanwhile; the signal stays with its session.
    const ready = upstream.request('resources/subscribe', { uri }, options?.origin ? { origin: options.origin } : {});
    const entry: Entry = { server: upstream.name, uri, sessions: new Set(), ready, settled: false };
    this.byKey.set(key, entry);
    ready.then(
      () => {
        entry.settled = true;
        if (entry.sessions.size === 0) void this.release(key, entry, upstream).catch(() => {});
      },
      () => {
        // Refused: no session holds it (each waiting one hears the failure).
        entry.settled = true;
        for (const session of [...entry.sessions]) this.leave(session, entry);
        if (this.byKey.get(key) === entry) this.byKey.delete(key);
      },
    );
    return entry;
  }

  /** Takes a session out of an entry; false when it was not in it. */
  private leave(session: object, entry: Entry): boolean {
    if (!entry.sessions.delete(session)) return false;
    this.counts.set(session, (this.counts.get(session) ?? 1) - 1);
    return true;
  }

  /** Forgets an entry no session holds and tells the upstream (once: a second call finds it gone). */
  private async release(key: string, entry: Entry, upstream: Upstream, options?: RequestOptions): Promise<void> {
    if (this.byKey.get(key) !== entry) return;
    this.byKey.delete(key);
    await upstream.request('resources/unsubscribe', { uri: entry.uri }, options);
  }
}

/** The shared answer as one session waits for it: its own abort ends only its wait. */
function untilAborted<T>(ready: Promise<T>, signal: AbortSignal | undefined, server: string): Promise<T> {
  if (!signal) return ready;
  if (signal.aborted) return Promise.reject(new UpstreamError(server, 'cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new UpstreamError(server, 'cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    ready.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
