import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { outsideText } from '../util/redact.js';
import { SWEEP_MS, type CallDone, type CallHandle, type CallTable } from './calls.js';
import { MAX_TIMER_MS } from '../util/bounds.js';
import { sdkFailure, type ClientHooks } from './client.js';
import { UpstreamError } from './error.js';
import type { CallOrigin } from './primitives.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import { LOG_LEVEL_META } from '../protocol/revision.js';
import { MAX_RECONNECT_MS, MIN_RECONNECT_MS } from './reconnect.js';

const looseResult = z.looseObject({});
/** Input rounds one request may take before lazytools gives up on it (the SDK's default too). */
const MAX_ROUNDS = 10;
/**
 * The resources one 2026-07-28 upstream is asked to watch for all sessions together, by count and
 * by the length of their URIs: each subscribe re-opens the listen stream with every watched URI,
 * so 1,000 subscribes of 8 KiB URIs once sent 4 GB and took 101 s. Past either, a subscribe is
 * refused (InvalidParams) until some are dropped. One session may have asked for at most half of
 * either (WATCH_SHARE): one client's 1,000 template URIs refused every other client's subscribe.
 */
export const MAX_WATCHED = 1_000;
export const MAX_WATCHED_CHARS = 256 * 1024;
export const WATCH_SHARE = 0.5;

/** One request to a 2026-07-28 server, on its ModernChannel. */
export interface ChannelRequest {
  method: string;
  params: Record<string, unknown>;
  origin: CallOrigin | undefined;
  signal: AbortSignal;
  timeoutMs: number;
  onProgress: ((params: Record<string, unknown>) => void) | undefined;
  /** `return`: hand an input_required result back as sent; else answer it and retry. */
  inputRequired: 'fulfil' | 'return' | undefined;
}

/**
 * A connection to a 2026-07-28 server, where the 2025 idioms lazytools' front uses become the
 * modern ones: `logging/setLevel` becomes the log level in every request's envelope,
 * `resources/subscribe` a `subscriptions/listen` filter (with the list changes), and the server's
 * `input_required` results are answered by asking the client of the request that caused them
 * (its origin, known exactly here) before retrying.
 */
export class ModernChannel {
  private logLevel: string | undefined;
  /** The URIs watched, each with the session whose subscribe first asked for it (when known). */
  private readonly watched = new Map<string, object | undefined>();
  private listening: Promise<McpSubscription | undefined> | undefined;
  /** The wait before the next re-open of a listen stream the server dropped (doubles up to MAX_RECONNECT_MS). */
  private relistWait = MIN_RECONNECT_MS;
  private relistTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly server: string,
    private readonly client: Client,
    private readonly capabilities: Record<string, unknown>,
    private readonly hooks: ClientHooks,
    private readonly ask: (request: { method: string; params?: Record<string, unknown> | undefined; origin: CallOrigin | undefined }, signal: AbortSignal) => Promise<Record<string, unknown>>,
  ) {}

  /**
   * A 2026-07-28 upstream's request goes through the SDK Client, which adds the per-request
   * `_meta` envelope and drives `input_required` rounds (or returns them, when asked). Tracked in
   * the call table like raw relayed calls, so origins, deadlines and failures work the same: the
   * table's deadline ends the call (the SDK's own timer, later, is a backstop), with the same
   * timeout error as a 2025 server's call, and the SDK ends the request on its own id.
   */
  send(calls: CallTable, id: string, request: Omit<ChannelRequest, 'signal'>, done: CallDone, answered: () => void): CallHandle {
    const controller = new AbortController();
    calls.add(id, request.method, request.params, request.timeoutMs, { raw: undefined, done, onProgress: request.onProgress, origin: request.origin, abort: (reason) => controller.abort(reason) });
    this.request({ ...request, timeoutMs: Math.min(MAX_TIMER_MS, request.timeoutMs + 2 * SWEEP_MS), signal: controller.signal }).then(
      (result) => {
        answered();
        calls.settle(id, undefined, result);
      },
      (error: unknown) => calls.settle(id, error instanceof UpstreamError ? error : sdkFailure(this.server, error)),
    );
    return {
      cancel: (reason) => {
        if (!calls.has(id)) return;
        calls.settle(id, new UpstreamError(this.server, 'cancelled'));
        controller.abort(reason);
      },
    };
  }

  async request(request: ChannelRequest): Promise<Record<string, unknown>> {
    const { method, params } = request;
    if (method === 'logging/setLevel') {
      this.logLevel = typeof params.level === 'string' ? params.level : undefined;
      return {};
    }
    if (method === 'resources/subscribe' || method === 'resources/unsubscribe') {
      if (typeof params.uri !== 'string') throw new UpstreamError(this.server, `${method} needs a uri`);
      const before = this.watched.size;
      if (method === 'resources/subscribe' && !this.watched.has(params.uri)) {
        this.mayWatch(params.uri, request.origin?.session);
        this.watched.set(params.uri, request.origin?.session);
      } else if (method === 'resources/unsubscribe') this.watched.delete(params.uri);
      if (this.watched.size !== before) await this.listen();
      return {};
    }
    let outgoing = this.withEnvelope(params);
    for (let round = 0; ; round++) {
      const result = (await this.client.request({ method, params: outgoing } as never, looseResult, {
        signal: request.signal,
        timeout: request.timeoutMs,
        allowInputRequired: true,
        ...(request.onProgress ? { onprogress: (progress: Record<string, unknown>) => request.onProgress?.(progress) } : {}),
      })) as Record<string, unknown>;
      if (result.resultType !== 'input_required' || request.inputRequired === 'return') return result;
      if (round >= MAX_ROUNDS) throw new UpstreamError(this.server, `upstream "${this.server}" asked for input more than ${MAX_ROUNDS} times in one ${method}`);
      const asked = Object.entries((result.inputRequests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>);
      const answers = await Promise.all(asked.map(([, input]) => this.ask({ method: input.method, params: input.params, origin: request.origin }, request.signal)));
      outgoing = {
        ...outgoing,
        inputResponses: Object.fromEntries(asked.map(([key], i) => [key, answers[i]])),
        ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
      };
    }
  }

  /**
   * Throws when watching one more URI would take the upstream past MAX_WATCHED or
   * MAX_WATCHED_CHARS, or take the session asking past its share of either (WATCH_SHARE).
   */
  private mayWatch(uri: string, session: object | undefined): void {
    let bytes = uri.length;
    let [own, ownBytes] = [1, uri.length];
    for (const [watched, asker] of this.watched) {
      bytes += watched.length;
      if (session !== undefined && asker === session) [own, ownBytes] = [own + 1, ownBytes + watched.length];
    }
    const refuse = (message: string) => new UpstreamError(this.server, message, { code: ErrorCode.InvalidParams, message });
    if (this.watched.size >= MAX_WATCHED || bytes > MAX_WATCHED_CHARS)
      throw refuse(`upstream "${this.server}" already watches ${this.watched.size} resources for this gateway (at most ${MAX_WATCHED}, ${MAX_WATCHED_CHARS / 1024} K characters of URIs); unsubscribe from some first`);
    if (session !== undefined && (own > MAX_WATCHED * WATCH_SHARE || ownBytes > MAX_WATCHED_CHARS * WATCH_SHARE))
      throw refuse(`this session already has upstream "${this.server}" watch ${own - 1} resources (one session at most ${MAX_WATCHED * WATCH_SHARE}, ${(MAX_WATCHED_CHARS * WATCH_SHARE) / 1024} K characters of URIs); unsubscribe from some first`);
  }

  /** Opens (or re-opens, when the watched URIs change) the listen stream for list changes and updates. */
  async listen(): Promise<void> {
    const previous = this.listening;
    this.listening = (async () => {
      await (await previous?.catch(() => undefined))?.close();
      const listChanged = (kind: string) => (this.capabilities[kind] as { listChanged?: unknown } | undefined)?.listChanged === true;
      const filter = {
        toolsListChanged: listChanged('tools'),
        promptsListChanged: listChanged('prompts'),
        resourcesListChanged: listChanged('resources'),
        ...(this.watched.size > 0 ? { resourceSubscriptions: [...this.watched.keys()] } : {}),
      };
      if (!filter.toolsListChanged && !filter.promptsListChanged && !filter.resourcesListChanged && this.watched.size === 0) return undefined;
      try {
        const subscription = await this.client.listen(filter);
        this.reopenWhenDropped(subscription, filter);
        return subscription;
      } catch (error) {
        this.hooks.warn(`could not listen for changes: ${outsideText((error as Error).message)}`);
        return undefined;
      }
    })();
    await this.listening;
  }

  /**
   * A listen stream the server or the network dropped (`closed` is 'remote': a restart, a proxy
   * that cuts long streams) is opened again, after MIN_RECONNECT_MS doubling up to
   * MAX_RECONNECT_MS (back to the least once a stream lived that long), and what it may have
   * missed is read again (a list change sent while no stream was open is lost). Without this the
   * gateway heard no list change from that server until it restarted. Not after the connection
   * closed, nor for a stream replaced by a re-open (closed here, 'local').
   */
  private reopenWhenDropped(subscription: McpSubscription, filter: { toolsListChanged: boolean; promptsListChanged: boolean; resourcesListChanged: boolean }): void {
    const opened = Date.now();
    void subscription.closed.then((how) => {
      if (how !== 'remote' || this.client.transport === undefined) return;
      const wait = Date.now() - opened >= MAX_RECONNECT_MS ? MIN_RECONNECT_MS : this.relistWait;
      this.relistWait = Math.min(MAX_RECONNECT_MS, 2 * wait);
      clearTimeout(this.relistTimer);
      this.relistTimer = setTimeout(() => {
        if (this.client.transport === undefined) return;
        this.hooks.warn(`its listen stream ended; opened again after ${wait} ms`);
        void this.listen().then(() => {
          if (filter.toolsListChanged) this.hooks.toolsChanged();
          for (const kind of ['prompts', 'resources'] as const)
            if (filter[`${kind}ListChanged`]) void this.hooks.notified({ method: `notifications/${kind}/list_changed` }).catch(() => {});
        });
      }, wait);
      this.relistTimer.unref?.();
    });
  }

  private withEnvelope(params: Record<string, unknown>): Record<string, unknown> {
    const { _meta: given, ...bare } = params;
    const { progressToken: _dropped, ...meta } = (given ?? {}) as Record<string, unknown>;
    // A 2025 server sends its log messages until told a level; a 2026-07-28 one only when the
    // request names one. Sessions filter by their own level, so ask for all until one set a level.
    meta[LOG_LEVEL_META] ??= this.logLevel ?? 'debug';
    return { ...bare, _meta: meta };
  }
}

/** What a twin connection offers (an Upstream, seen from here). */
export interface TwinUpstream {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A 2026-07-28 request (from a modern client) to an HTTP server spoken to in 2025 goes to a
 * second connection in 2026-07-28 when the server speaks it, so its own input_required rounds
 * reach the client as it sent them (keys, state, several rounds) with nothing kept here. Not for
 * a stdio server (a second process would not share its state) nor one that speaks only 2025:
 * their requests to the client become lazytools' own rounds (callers/input-rounds.ts).
 */
export class TwinSlot<T extends TwinUpstream> {
  /** null once the server proved 2025-only: asked once per process. */
  private twin: T | null | undefined;

  constructor(private readonly create: () => T) {}

  /** The started twin, or undefined when the server speaks only 2025; `prepare` runs before each start. */
  async get(prepare: (twin: T) => void): Promise<T | undefined> {
    if (this.twin === null) return undefined;
    const twin = (this.twin ??= this.create());
    prepare(twin);
    try {
      await twin.start();
      return twin;
    } catch {
      this.twin = null;
      await twin.stop();
      return undefined;
    }
  }

  async stop(): Promise<void> {
    if (this.twin) await this.twin.stop();
  }
}
