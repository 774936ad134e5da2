import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ServerProfile } from '../catalog/types.js';
import { addCloseListener } from '../util/close.js';
import { silentLogger, type Logger } from '../util/log.js';
import { limitWarnings } from '../util/rate-limit.js';
import { awaitCall, CallTable, type CallDone, type CallHandle, type RawDone } from './calls.js';
import { limitAsking, ROUTABLE_CAPABILITIES, type ClientHooks } from './client.js';
import { openConnection, StartFailure, stderrSaid } from './connection.js';
import { UpstreamError } from './error.js';
import { createLifecycle, waitSeconds, type Lifecycle } from './lifecycle.js';
import { ListWatch } from './lister.js';
import { profileOf, stateOf } from './lock-profile.js';
import { TwinSlot, type ModernChannel } from './modern.js';
import type { CallOrigin } from './primitives.js';
import { attachRaw, relayRaw, sendCancel } from './raw.js';
import { UpstreamState } from './state.js';
import type { CallOptions, UpstreamOptions, UpstreamRequest } from './types.js';
import { cannotAnswer } from '../protocol/errors.js';
import { shownName } from '../config/secrets.js';

export type { ListKind, PrimitiveKind, UpstreamRequest } from './types.js';

const DEFAULT_TIMEOUT = 120_000;
const DEFAULT_START_TIMEOUT = 30_000;

/**
 * One upstream MCP server: its lifecycle (lazy start, era, idle stop, restart with backoff) and
 * what it lists. Requests of any method go out on our own ids (call table: calls.ts; the raw byte
 * contract: raw.ts), answered as the upstream sent them with no schema parsing on the hot path; a
 * 2026-07-28 server's go through its channel (modern.ts). Progress and cancellation are forwarded;
 * when the upstream exits, every request in flight fails at once with an UpstreamError naming it.
 */
export class Upstream extends UpstreamState {
  private client: Client | undefined;
  /** The 2026-07-28 side of the connection, when the server speaks that era. */
  private modern: ModernChannel | undefined;
  /** The 2026-07-28 connection for modern clients' requests; null once the server proved 2025-only. */
  private readonly twins = new TwinSlot(() => new Upstream(this.name, { ...this.options, twin: true, logger: silentLogger }));
  private transport: Transport | undefined;
  /** The transport of a start in progress, and how many stops came (see stop). */
  private connecting: Transport | undefined;
  private stops = 0;
  private starting: Promise<void> | undefined;
  private readonly calls: CallTable;
  private lastUsed = 0;
  /** Its status, when a restart may come, when it stops for idleness (lifecycle.ts). */
  private readonly lifecycle: Lifecycle;
  private readonly logger: Logger;
  private readonly lists: ListWatch;

  constructor(
    readonly name: string,
    private readonly options: UpstreamOptions,
  ) {
    super();
    this.logger = limitWarnings(options.logger ?? silentLogger, name);
    const idleMs = options.idleTimeoutMs;
    this.lifecycle = createLifecycle({
      idleMs,
      // Stops an upstream that had no call for `idleTimeoutMs` (its tools stay known).
      idle: () => this.calls.size === 0 && Date.now() - this.lastUsed >= (idleMs ?? Infinity) && !this.keepAlive?.(),
      stop: () => {
        this.logger.info(`${shownName(this.name)}: idle for ${Math.round((idleMs ?? 0) / 1000)} s, stopping`);
        void this.stop();
      },
      changed: (status) => {
        this.status = status;
        this.onStatus?.(this);
      },
    });
    this.calls = new CallTable(name, {
      settled: (method, tool, ms, failed) => this.onSettled?.(this, method, tool, ms, failed),
      timedOut: (id) => sendCancel(this.transport, id, 'timeout'),
    });
    this.lists = new ListWatch({
      client: () => this.client,
      timeout: () => this.startTimeoutMs,
      warn: (message) => this.logger.warn(`${shownName(this.name)}: ${message}`),
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
      this.lifecycle.send({ type: 'DISABLED' });
      return Promise.reject(new UpstreamError(this.name, `upstream "${this.name}" is disabled: ${this.options.disabled}`));
    }
    const wait = this.starting ? 0 : waitSeconds(this.lifecycle.getSnapshot());
    if (wait > 0) {
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
    // A stop during this start ends it: neither attempt may open a connection after it.
    const stops = this.stops;
    try {
      await this.doStart(stops);
    } catch (error) {
      if (remembered?.kind !== 'modern' || this.options.twin || this.stops !== stops) throw error;
      this.discovery = undefined;
      await this.doStart(stops);
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
      timer = setTimeout(() => reject(new UpstreamError(this.name, `upstream "${this.name}" gave no answer within the start timeout (${limit} ms)${stderrSaid(this.connecting)}`)), limit);
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
   * upstream's JSON-RPC error. A request whose `signal` aborts before it is sent is not sent.
   */
  async request(method: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    if (options.origin) this.lastOrigin = options.origin;
    if (this.status !== 'ready') await this.start();
    if (options.inputRequired === 'return' && this.era === 'legacy') {
      const twin = this.options.sharedServer && !this.options.twin ? await this.twins.get((twin) => (twin.onRequest = this.onRequest as typeof twin.onRequest)) : undefined;
      if (twin) return twin.request(method, params, options);
    }
    // Cancelled while the server started: never sent (a cancel after it is advisory, and a tool that writes may run anyway).
    if (options.signal?.aborted) throw new UpstreamError(this.name, 'cancelled');
    return awaitCall(options.signal, (done) =>
      this.relay(params, done, options.onProgress, options.timeoutMs, undefined, { method, origin: options.origin, inputRequired: options.inputRequired }),
    );
  }

  /**
   * The hot path: sends a request (`tools/call` unless `route.method` says otherwise) on our own
   * id and calls `done` once with the upstream's result (as sent) or an UpstreamError; `raw`, when
   * given, receives a successful stdio answer unparsed instead (raw.ts). No promise, abort signal
   * or timer per call (deadlines are swept, calls.ts). The handle cancels, telling the upstream.
   */
  relay(params: Record<string, unknown>, done: CallDone, onProgress?: (params: Record<string, unknown>) => void, timeoutMs?: number, raw?: RawDone, route: { method?: string | undefined; origin?: CallOrigin | undefined; inputRequired?: 'fulfil' | 'return' | undefined } = {}): CallHandle {
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
    if (this.modern) return this.modern.send(this.calls, id, { method, params, origin: route.origin, timeoutMs: limit, onProgress, inputRequired: route.inputRequired }, done, () => this.answered());
    return relayRaw(this.name, transport, this.calls, id, { method, params, timeoutMs: limit }, { raw, done, onProgress, origin: route.origin });
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

  /** Disconnects (and ends a stdio child, and the twin's connection). */
  async stop(): Promise<void> {
    await this.twins.stop();
    const client = this.client;
    const connecting = this.connecting;
    this.stops++;
    this.forget();
    this.calls.failAll(`upstream "${this.name}" was stopped`);
    // Idle before the child is gone: a call arriving meanwhile starts a fresh one.
    this.lifecycle.send({ type: 'STOP' });
    if (client) await client.close().catch(() => {});
    // A start still in progress: its transport (and process) ends now, and the start fails.
    await connecting?.close().catch(() => {});
  }

  /** One connection attempt of the start that began when `stops` stops had come (see stop). */
  private async doStart(stops: number): Promise<void> {
    this.lifecycle.send({ type: 'START' });
    try {
      const connection = await openConnection({
        name: this.name,
        connect: async () => {
          // A stop during the start (before this attempt, or while its transport was made: no fresh
          // process); else remembered while connecting, so stop() can end the start (its process too).
          const transport = this.stops === stops ? await this.options.connect() : undefined;
          if (transport && this.stops === stops) return (this.connecting = transport);
          await transport?.close().catch(() => {});
          throw new Error('stopped while starting');
        },
        hooks: this.clientHooks(stops),
        known: this.discovery,
        timeout: this.startTimeoutMs,
        twin: this.options.twin === true,
        opened: (client, transport) => this.attach(transport, client),
        abandon: () => this.forget(),
        warn: (message) => this.logger.warn(`${shownName(this.name)}: ${message}`),
        ask: (request, signal) => this.askClient(request, signal),
      });
      ({ discovery: this.discovery, capabilities: this.capabilities, instructions: this.instructions, tools: this.tools, primitives: this.primitives, modern: this.modern } = connection);
      this.lastError = undefined;
      this.lastUsed = Date.now();
      this.lifecycle.send({ type: 'STARTED' });
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
      answered: () => this.answered(),
      notification: (notification) => {
        if (!this.onNotification) return false;
        this.onNotification(this, notification);
        return true;
      },
      warn: (message) => this.logger.warn(message),
      gated: (method) => this.lists.gated(transport, method),
    });
    addCloseListener(transport, () => {
      if (this.client !== client) return;
      this.forget();
      this.calls.failAll(`upstream "${this.name}" exited while handling the call`);
      this.lastError = 'exited';
      this.markDown();
    });
  }

  /** The server asks its client (sampling, elicitation, roots): the front routes it (onRequest), at most MAX_ASKING at once. */
  private readonly askClient = limitAsking((request: UpstreamRequest, signal: AbortSignal) => (this.onRequest ? this.onRequest(this, request, signal) : Promise.reject(cannotAnswer(request.method))));

  /**
   * What each connection's SDK client reports back; nothing once lazytools stopped it (`stops`: the count its start began at): `lock`
   * warned "Failed to send response" when the everything server's roots request, sent 350 ms after initialize, met the closing process.
   */
  private clientHooks(stops: number): ClientHooks {
    return {
      // lazytools routes these requests to the client session that caused them
      // (client-requests.ts), which refuses clearly when its own client lacks them.
      capabilities: this.clientCapabilities?.() ?? ROUTABLE_CAPABILITIES,
      toolsChanged: () => this.lists.toolsChanged(),
      // Prompts or resources list_changed are re-listed; other notifications passed on.
      notified: async (notification) => void (await (this.lists.listChanged(notification.method) ?? this.onNotification?.(this, notification))),
      request: (request, cause, signal) => this.askClient({ ...request, origin: cause === undefined ? undefined : this.calls.get(cause)?.origin }, signal),
      warn: (message) => void (this.stops === stops && this.logger.warn(`${shownName(this.name)}: ${message}`)),
    };
  }

  /** Down after a failure; the next start waits out the backoff. */
  private markDown(): void {
    this.lifecycle.send({ type: 'FAILED' });
  }

  /** A call was answered: the server is healthy again (the hot path reads one number first). */
  private answered(): void {
    if (this.lifecycle.getSnapshot().context.failures > 0) this.lifecycle.send({ type: 'ANSWERED' });
  }
}
