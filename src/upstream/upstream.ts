import type { Client, JSONRPCMessage, Notification, PriorDiscovery, Transport } from '@modelcontextprotocol/client';
import type { ServerProfile, ToolDefinition } from '../catalog/types.js';
import { addCloseListener } from '../util/close.js';
import { silentLogger, type Logger } from '../util/log.js';
import { CallTable, type CallDone, type RawDone } from './calls.js';
import { ROUTABLE_CAPABILITIES, type ClientHooks } from './client.js';
import { openConnection, StartFailure } from './connection.js';
import { UpstreamError } from './error.js';
import { ListWatch } from './lister.js';
import { profileOf, stateOf } from './lock-profile.js';
import type { ModernChannel } from './modern.js';
import { NO_PRIMITIVES, type CallOrigin, type UpstreamPrimitives } from './primitives.js';
import { attachRaw, sendCancel, sendRaw } from './raw.js';
import type { CallOptions, PrimitiveKind, UpstreamOptions, UpstreamRequest, UpstreamStatus } from './types.js';

export { UpstreamError } from './error.js';

export type { CallOptions, PrimitiveKind, UpstreamOptions, UpstreamRequest, UpstreamStatus } from './types.js';

const DEFAULT_TIMEOUT = 120_000;
const DEFAULT_START_TIMEOUT = 30_000;
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * One upstream MCP server: its lifecycle (lazy start, era, idle stop, restart with backoff) and
 * what it lists. Requests of any method go out on our own ids (call table: calls.ts; the raw byte
 * contract: raw.ts), answered as the upstream sent them with no schema parsing on the hot path; a
 * 2026-07-28 server's go through its channel (modern.ts). Progress and cancellation are forwarded;
 * when the upstream exits, every request in flight fails at once with an UpstreamError naming it.
 */
export class Upstream {
  status: UpstreamStatus = 'idle';
  tools: ToolDefinition[] = [];
  lastError: string | undefined;
  /** Called after the upstream's own tools/list_changed has been re-listed. */
  onToolsChanged: ((upstream: Upstream) => void) | undefined;
  /** Called when the status changes. */
  onStatus: ((upstream: Upstream) => void) | undefined;
  /**
   * Hears each relayed request as it ends (metrics): method, tool or prompt name, milliseconds,
   * and whether it failed (an error, or a tool result with isError). Unset: no cost.
   */
  onSettled: ((upstream: Upstream, method: string, name: string, ms: number, failed: boolean) => void) | undefined;
  /** Prompts, resources and templates, as listed at start and after the upstream's list_changed. */
  primitives: UpstreamPrimitives = NO_PRIMITIVES;
  /** The server's capabilities and instructions from its initialize answer (verbatim). */
  capabilities: Record<string, unknown> | undefined;
  instructions: string | undefined;
  /**
   * The era verdict, the one place the era is kept: the last connection's (`modern` with its
   * server/discover result, or `legacy`), or the lock's before the first start. The next start
   * connects with it and skips the probe.
   */
  discovery: PriorDiscovery | undefined;
  /** The latest request sent for a front session (routes requests that arrive outside a call). */
  lastOrigin: CallOrigin | undefined;
  /** Called after a prompts or resources list_changed was re-listed. */
  onPrimitivesChanged: ((upstream: Upstream, kind: PrimitiveKind) => void) | undefined;
  /** Other notifications of the upstream (log messages, resources/updated), verbatim. */
  onNotification: ((upstream: Upstream, notification: Notification) => void) | undefined;
  /** True while something needs the process even without calls (a session's subscriptions). */
  keepAlive: (() => boolean) | undefined;
  /**
   * The client capabilities to declare at the next start (sampling, elicitation, roots): the
   * front reflects its clients' own. Default: everything lazytools can route.
   */
  clientCapabilities: (() => Record<string, unknown>) | undefined;
  /** Requests the upstream sends its client (sampling, elicitation, roots); the answer goes back. */
  onRequest: ((upstream: Upstream, request: UpstreamRequest, signal: AbortSignal) => Promise<Record<string, unknown>>) | undefined;

  private client: Client | undefined;
  /** The 2026-07-28 side of the connection, when the server speaks that era. */
  private modern: ModernChannel | undefined;
  /** The 2026-07-28 connection for modern clients' requests; null once the server proved 2025-only. */
  private twin: Upstream | null | undefined;
  private transport: Transport | undefined;
  /** The transport of a start in progress, and how many stops came (see stop). */
  private connecting: Transport | undefined;
  private stops = 0;
  private starting: Promise<void> | undefined;
  private readonly calls: CallTable;
  private idleTimer: NodeJS.Timeout | undefined;
  private lastUsed = 0;
  /** Consecutive failures (start errors and crashes); a successful call resets it. */
  private failures = 0;
  private retryAt = 0;
  private readonly logger: Logger;
  private readonly lists: ListWatch;

  constructor(
    readonly name: string,
    private readonly options: UpstreamOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.calls = new CallTable(name, {
      settled: (method, tool, ms, failed) => this.onSettled?.(this, method, tool, ms, failed),
      timedOut: (id) => sendCancel(this.transport, id, 'timeout'),
    });
    this.lists = new ListWatch({
      client: () => this.client,
      timeout: () => this.startTimeoutMs,
      warn: (message) => this.logger.warn(`${this.name}: ${message}`),
      tools: (tools) => {
        this.tools = tools;
        this.onToolsChanged?.(this);
      },
      primitives: (primitives, kinds) => {
        this.primitives = primitives;
        for (const kind of kinds) this.onPrimitivesChanged?.(this, kind);
      },
    });
  }

  /** The protocol era the server speaks (see discovery): `modern` (2026-07-28) or `legacy`. */
  get era(): 'legacy' | 'modern' | undefined {
    return this.discovery?.kind;
  }

  /** Why the server cannot start at all (see UpstreamOptions.disabled), else undefined. */
  get disabledReason(): string | undefined {
    return this.options.disabled;
  }

  /** Requests sent and not answered yet (a shutdown waits for them). */
  get inFlight(): number {
    return this.calls.size;
  }

  /** How long a start may take (spawn, initialize, lists); the gateway waits no longer for it. */
  get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT;
  }

  /** True while a re-list after tools/list_changed is running. */
  get relisting(): boolean {
    return this.lists.relistingTools;
  }

  /** Connects and lists tools; concurrent callers share one attempt. */
  start(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    if (this.options.disabled !== undefined) {
      this.lastError = this.options.disabled;
      this.setStatus('down');
      return Promise.reject(new UpstreamError(this.name, `upstream "${this.name}" is disabled: ${this.options.disabled}`));
    }
    if (this.status === 'down' && Date.now() < this.retryAt && !this.starting) {
      const wait = Math.ceil((this.retryAt - Date.now()) / 1000);
      return Promise.reject(new UpstreamError(this.name, `upstream "${this.name}" is down (${this.lastError ?? 'failed'}); next restart in ${wait} s`));
    }
    this.starting ??= this.startOnce().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /**
   * One start. A remembered 2026-07-28 verdict (the lock's, or the last connection's) skips the
   * probe; when the server no longer speaks that era (its answers fail), the verdict is forgotten
   * and the server probed afresh once, instead of failing every start.
   */
  private async startOnce(): Promise<void> {
    const remembered = this.discovery;
    try {
      await this.doStart();
    } catch (error) {
      if (remembered?.kind !== 'modern' || this.options.twin) throw error;
      this.discovery = undefined;
      await this.doStart();
    }
  }

  /**
   * start(), given up after the start timeout: the caller goes on without this server, while
   * the attempt itself goes on (a late start still brings the server up) until stop().
   */
  async startWithin(): Promise<void> {
    const started = this.start();
    started.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const limit = this.startTimeoutMs;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new UpstreamError(this.name, `upstream "${this.name}" gave no answer within the start timeout (${limit} ms)`)), limit);
    });
    try {
      await Promise.race([started, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Calls a tool by its upstream name, starting the upstream first when needed. */
  call(params: Record<string, unknown> & { name: string }, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.request('tools/call', params, options);
  }

  /**
   * Sends any request (prompts/get, resources/read, …) on the relay, starting the upstream first
   * when needed; resolves with the result as sent, rejects with an UpstreamError that carries the
   * upstream's JSON-RPC error.
   */
  async request(method: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    if (options.origin) this.lastOrigin = options.origin;
    if (this.status !== 'ready') await this.start();
    if (options.inputRequired === 'return' && this.era === 'legacy') {
      const twin = await this.modernTwin();
      if (twin) return twin.request(method, params, options);
    }
    return new Promise((resolve, reject) => {
      // relay() may call back synchronously (upstream gone meanwhile), so the abort listener is
      // declared first and attached only while the call is still pending.
      let settled = false;
      // Runs only after relay() returned: the listener is attached below, once the call is pending.
      const onAbort = () => handle.cancel(String(options.signal?.reason ?? 'cancelled by client'));
      const handle = this.relay(
        params,
        (error, result) => {
          settled = true;
          options.signal?.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve(result ?? {});
        },
        options.onProgress,
        options.timeoutMs,
        undefined,
        { method, origin: options.origin, inputRequired: options.inputRequired },
      );
      if (settled) return;
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * The hot path: sends a request (`tools/call` unless `route.method` says otherwise) on our own
   * id and calls `done` once with the upstream's result (as sent) or an UpstreamError; `raw`, when
   * given, receives a successful stdio answer unparsed instead (raw.ts). No promise, abort signal
   * or timer per call (deadlines are swept, calls.ts). The handle cancels, telling the upstream.
   */
  relay(
    params: Record<string, unknown>,
    done: CallDone,
    onProgress?: (params: Record<string, unknown>) => void,
    timeoutMs?: number,
    raw?: RawDone,
    route: { method?: string | undefined; origin?: CallOrigin | undefined; inputRequired?: 'fulfil' | 'return' | undefined } = {},
  ): { cancel(reason: string): void } {
    const method = route.method ?? 'tools/call';
    if (route.origin) this.lastOrigin = route.origin;
    const transport = this.transport;
    if (!transport || !this.client || this.status !== 'ready') {
      done(new UpstreamError(this.name, `upstream "${this.name}" is not connected`));
      return { cancel: () => {} };
    }
    const id = this.calls.nextId();
    const limit = timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT;
    this.lastUsed = Date.now();
    const answered = () => (this.failures = 0);
    if (this.modern) return this.modern.send(this.calls, id, { method, params, origin: route.origin, timeoutMs: limit, onProgress, inputRequired: route.inputRequired }, done, answered);
    this.calls.add(id, method, params, limit, { raw, done, onProgress, origin: route.origin });
    sendRaw(this.name, transport, this.calls, id, method, params, onProgress !== undefined);
    return {
      cancel: (reason) => {
        if (!this.calls.has(id)) return;
        this.calls.settle(id, new UpstreamError(this.name, 'cancelled'));
        sendCancel(transport, id, reason);
      },
    };
  }

  /** Sends a notification (e.g. roots/list_changed) when connected; dropped otherwise. */
  notify(method: string, params?: Record<string, unknown>): void {
    // 2026-07-28 has no client-to-server change notifications (roots come with each request).
    if (this.status !== 'ready' || !this.transport || this.era === 'modern') return;
    void this.transport.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) } as JSONRPCMessage).catch(() => {});
  }

  /** What a lock records of this server besides its tools (after a start). */
  profile(): ServerProfile {
    return profileOf(this);
  }

  /**
   * Takes what a lock recorded while the server is not started, so the gateway can advertise
   * its capabilities, instructions, prompts and resources, and the first start skips the era probe.
   */
  seed(profile: ServerProfile): void {
    if (this.status === 'ready' || this.status === 'starting') return;
    Object.assign(this, stateOf(profile));
  }

  /** Front requests in flight on this upstream, oldest first, with who caused them. */
  origins(): CallOrigin[] {
    return this.calls.origins();
  }

  /**
   * A 2026-07-28 request (from a modern client) to an HTTP server spoken to in 2025 goes to a
   * second connection in 2026-07-28 when the server speaks it, so its own input_required rounds
   * reach the client as it sent them (keys, state, several rounds) with nothing kept here. Not for
   * a stdio server (a second process would not share its state) nor one that speaks only 2025:
   * their requests to the client become lazytools' own rounds (front/input-rounds.ts).
   */
  private async modernTwin(): Promise<Upstream | undefined> {
    if (this.twin === null || this.options.twin || !this.options.sharedServer) return undefined;
    this.twin ??= new Upstream(this.name, { ...this.options, twin: true, logger: silentLogger });
    const twin = this.twin;
    twin.onRequest = this.onRequest;
    try {
      await twin.start();
      return twin;
    } catch {
      // Known now: this server speaks only 2025. Asked once per process.
      this.twin = null;
      await twin.stop();
      return undefined;
    }
  }

  /** Disconnects (and ends a stdio child, and the twin's connection). */
  async stop(): Promise<void> {
    const twin = this.twin;
    if (twin) await twin.stop();
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    const client = this.client;
    const connecting = this.connecting;
    this.stops++;
    this.forget();
    this.calls.failAll(`upstream "${this.name}" was stopped`);
    // Idle before the child is gone: a call arriving meanwhile starts a fresh one.
    this.setStatus('idle');
    if (client) await client.close().catch(() => {});
    // A start still in progress: its transport (and process) ends now, and the start fails.
    await connecting?.close().catch(() => {});
  }

  private async doStart(): Promise<void> {
    this.setStatus('starting');
    // Remembered while connecting, so stop() can end a start in progress (its process too).
    const stops = this.stops;
    try {
      const connection = await openConnection({
        name: this.name,
        connect: async () => {
          // A stop during the first attempt must not lead to a second one (a fresh process).
          if (this.stops !== stops) throw new Error('stopped while starting');
          return (this.connecting = await this.options.connect());
        },
        hooks: this.clientHooks(),
        known: this.discovery,
        timeout: this.startTimeoutMs,
        twin: this.options.twin === true,
        opened: (client, transport) => this.attach(transport, client),
        abandon: () => this.forget(),
        warn: (message) => this.logger.warn(`${this.name}: ${message}`),
        ask: (request, signal) => this.askClient(request, signal),
      });
      ({ discovery: this.discovery, capabilities: this.capabilities, instructions: this.instructions, tools: this.tools, primitives: this.primitives, modern: this.modern } = connection);
      this.lastError = undefined;
      this.lastUsed = Date.now();
      this.watchIdle();
      this.setStatus('ready');
    } catch (error) {
      const message = error instanceof StartFailure ? error.message : String(error);
      this.lastError = message;
      this.forget();
      this.markDown();
      throw new UpstreamError(this.name, `could not start upstream "${this.name}": ${message}`);
    }
  }

  /** Drops the connection's objects (its close is then no crash: see attach). */
  private forget(): void {
    this.connecting = undefined;
    this.client = undefined;
    this.modern = undefined;
    this.transport = undefined;
  }

  /** Wires a new connection: the raw side of the transport, and what its close means. */
  private attach(transport: Transport, client: Client): void {
    this.connecting = undefined;
    this.client = client;
    this.transport = transport;
    attachRaw(this.name, transport, this.calls, {
      answered: () => (this.failures = 0),
      notification: (notification) => {
        if (!this.onNotification) return false;
        this.onNotification(this, notification);
        return true;
      },
      warn: (message) => this.logger.warn(message),
    });
    addCloseListener(transport, () => {
      if (this.client !== client) return;
      this.forget();
      this.calls.failAll(`upstream "${this.name}" exited while handling the call`);
      this.lastError = 'exited';
      this.markDown();
    });
  }

  /** The server asks its client (sampling, elicitation, roots): the front routes it (onRequest). */
  private askClient(request: UpstreamRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (!this.onRequest) return Promise.reject(Object.assign(new Error(`lazytools cannot answer ${request.method}`), { code: -32601 }));
    return this.onRequest(this, request, signal);
  }

  /** What the SDK client of each connection reports back to this upstream. */
  private clientHooks(): ClientHooks {
    return {
      // lazytools routes these requests to the client session that caused them
      // (client-requests.ts), which refuses clearly when its own client lacks them.
      capabilities: this.clientCapabilities?.() ?? ROUTABLE_CAPABILITIES,
      toolsChanged: () => this.lists.toolsChanged(),
      notified: (_client, notification) => this.notified(notification),
      request: (request, cause, signal) => this.askClient({ ...request, origin: cause === undefined ? undefined : this.calls.get(cause)?.origin }, signal),
      warn: (message) => this.logger.warn(`${this.name}: ${message}`),
    };
  }

  /** Re-lists prompts or resources on the upstream's list_changed; passes other notifications on. */
  private async notified(notification: Notification): Promise<void> {
    const kind: PrimitiveKind | undefined =
      notification.method === 'notifications/prompts/list_changed' ? 'prompts' : notification.method === 'notifications/resources/list_changed' ? 'resources' : undefined;
    if (!kind) this.onNotification?.(this, notification);
    else await this.lists.primitivesChanged(kind);
  }

  /**
   * Down after a failure: the first restart may come at once (a crash is often a one-off), then
   * backoff doubles from 0.5 s up to 30 s until a call succeeds again.
   */
  private markDown(): void {
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    this.failures++;
    const delay = this.failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (this.failures - 2));
    this.retryAt = Date.now() + delay;
    this.setStatus('down');
  }

  /** Stops an upstream that had no call for `idleTimeoutMs` (its tools stay known). */
  private watchIdle(): void {
    const idle = this.options.idleTimeoutMs;
    if (!idle || this.idleTimer) return;
    this.idleTimer = setInterval(() => {
      if (this.status !== 'ready' || this.calls.size > 0 || Date.now() - this.lastUsed < idle || this.keepAlive?.()) return;
      this.logger.info(`${this.name}: idle for ${Math.round(idle / 1000)} s, stopping`);
      void this.stop();
    }, Math.max(50, Math.min(idle / 4, 10_000)));
    this.idleTimer.unref();
  }

  private setStatus(status: UpstreamStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.onStatus?.(this);
  }
}
