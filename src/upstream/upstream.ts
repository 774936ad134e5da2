import type { Client, PriorDiscovery } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Notification } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerProfile, ToolDefinition } from '../catalog/catalog.js';
import { admitTools, usableTools } from '../catalog/admit.js';
import { addCloseListener } from '../util/close.js';
import { isNotification, isResponse } from '../util/jsonrpc.js';
import { MAX_LINE_BYTES } from '../util/lines.js';
import { containsSecret, outsideText, redact, redactValue } from '../util/redact.js';
import { silentLogger, type Logger } from '../util/log.js';
import { listPrimitives, NO_PRIMITIVES, type CallOrigin, type UpstreamPrimitives } from './primitives.js';
import { StdioUpstreamTransport } from './stdio-transport.js';
import { UpstreamError } from './error.js';
import { ConnectFailure, connectEitherEra, ROUTABLE_CAPABILITIES, sdkFailure, type ClientHooks } from './client.js';
import { ModernChannel } from './modern.js';
import { FloodGate, NOTIFICATION_BUDGET, paced } from './flood.js';
import { isObject } from '../util/json.js';

export { UpstreamError } from './error.js';

/** idle: not started (lazy); ready: connected; down: failed or exited (restarted on the next call). */
export type UpstreamStatus = 'idle' | 'starting' | 'ready' | 'down';

/** What a relayed call may carry back while it runs. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Receives `notifications/progress` params (the token is the caller's to set). */
  onProgress?: ((params: Record<string, unknown>) => void) | undefined;
  timeoutMs?: number | undefined;
  /** The front request that caused this one (routes the upstream's own requests back to it). */
  origin?: CallOrigin | undefined;
  /**
   * A 2026-07-28 upstream may answer with an `input_required` result. `fulfil` (default) asks
   * the causing session's client through onRequest and retries; `return` hands the result back
   * as sent (a modern front passes it on to its own client).
   */
  inputRequired?: 'fulfil' | 'return' | undefined;
}

/** The primitive kinds an upstream can announce list changes for, besides tools. */
export type PrimitiveKind = 'prompts' | 'resources';

/** A request the upstream sends to its client (sampling, elicitation, roots), loosely typed. */
export interface UpstreamRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
  /** The call whose response stream carried the request (HTTP upstreams), when known. */
  origin?: CallOrigin | undefined;
}

export interface UpstreamOptions {
  /** Creates a fresh transport for each (re)start. */
  connect: () => Transport | Promise<Transport>;
  /** Per-call timeout (default 120 s). */
  timeoutMs?: number | undefined;
  /** Stop after this long without calls (restarted on the next call). */
  idleTimeoutMs?: number | undefined;
  /** Timeout for start-up: spawn, initialize and tools/list (default 30 s). */
  startTimeoutMs?: number | undefined;
  logger?: Logger | undefined;
  /** Why this server cannot start (its rc entry did not resolve): start() fails at once with it. */
  disabled?: string | undefined;
  /** `modern`: speak only 2026-07-28 (the twin that serves 2026-07-28 requests, see modernTwin). */
  era?: 'modern' | undefined;
  /**
   * True when a second connection reaches the same server state (HTTP servers), so 2026-07-28
   * requests may use a 2026-07-28 connection beside the 2025 one; a stdio server would run twice.
   */
  sharedServer?: boolean | undefined;
}

/**
 * The tail of a successful response on one of our ids, as the SDK writes it:
 * `{"result":…,"jsonrpc":"2.0","id":"lt-N"}`. Unescaped, this text can only be the envelope's own:
 * inside a string value its quotes would be escaped.
 */
const RAW_TAIL = ',"jsonrpc":"2.0","id":"lt-';

/** Receives the response line minus its closing `,"id":…}` (the caller appends its own id). */
export type RawDone = (prefix: string) => void;

interface Pending {
  method: string;
  raw: RawDone | undefined;
  done: (error: UpstreamError | undefined, result?: Record<string, unknown>) => void;
  onProgress: ((params: Record<string, unknown>) => void) | undefined;
  deadline: number;
  tool: string;
  timeoutMs: number;
  origin: CallOrigin | undefined;
}

const looseResult = z.looseObject({});
const DEFAULT_TIMEOUT = 120_000;
const DEFAULT_START_TIMEOUT = 30_000;
/** How often deadlines are checked: a timeout fires up to this much late. */
const SWEEP_MS = 250;
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * One upstream MCP server. Lists tools through the SDK Client, and relays `tools/call` on its own
 * ids straight over the transport: results are passed back as the upstream sent them, with no
 * schema parsing on the hot path. Progress and cancellation are forwarded; when the upstream
 * exits, every call in flight fails at once with an UpstreamError naming the server.
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
   * The protocol era the server speaks, once connected: `modern` (2026-07-28, found with
   * server/discover) or `legacy` (initialize).
   */
  era: 'legacy' | 'modern' | undefined;
  /**
   * The era verdict of the last connection (or from the lock): the next start skips the
   * server/discover probe with it.
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
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private lastUsed = 0;
  /** Consecutive failures (start errors and crashes); a successful call resets it. */
  private failures = 0;
  private retryAt = 0;
  private readonly logger: Logger;
  /** tools/list_changed handling: one re-list in flight, at most one more queued behind it. */
  private relist: Promise<void> | undefined;
  private relistAgain = false;
  /** Prompts/resources list_changed alike: one re-list in flight; kinds changed meanwhile wait for the next. */
  private primitivesRelist: Promise<void> | undefined;
  private readonly primitivesChanged = new Set<PrimitiveKind>();
  /** Coalesces list changes and bounds other notifications per window (flood.ts). */
  private readonly flood = new FloodGate((kind) => (kind === 'tools' ? this.relist !== undefined && this.relistAgain : this.primitivesRelist !== undefined && this.primitivesChanged.has(kind)));

  constructor(
    readonly name: string,
    private readonly options: UpstreamOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Why the server cannot start at all (see UpstreamOptions.disabled), else undefined. */
  get disabledReason(): string | undefined {
    return this.options.disabled;
  }

  /** Requests sent and not answered yet (a shutdown waits for them). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** How long a start may take (spawn, initialize, lists); the gateway waits no longer for it. */
  get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT;
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
      if (remembered?.kind !== 'modern' || this.options.era === 'modern') throw error;
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
   * The hot path: sends `tools/call` on our own id and calls `done` once with the upstream's
   * result (as sent) or an UpstreamError. No promise, abort signal or timer per call: deadlines
   * are swept every 250 ms. The returned handle cancels (forwarding notifications/cancelled).
   */
  relay(
    params: Record<string, unknown>,
    done: (error: UpstreamError | undefined, result?: Record<string, unknown>) => void,
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
    const id = `lt-${++this.seq}`;
    if (this.modern) return this.sdkRelay(this.modern, id, method, params, done, onProgress, timeoutMs, route);
    const meta = (params._meta ?? undefined) as Record<string, unknown> | undefined;
    let outgoing: Record<string, unknown> = params;
    if (onProgress) outgoing = { ...params, _meta: { ...meta, progressToken: id } };
    else if (meta && 'progressToken' in meta) {
      const { progressToken: _dropped, ...rest } = meta;
      outgoing = { ...params, _meta: rest };
    }
    const limit = timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT;
    this.lastUsed = Date.now();
    this.pending.set(id, { method, raw, done, onProgress, deadline: Date.now() + limit, tool: typeof params.name === 'string' ? params.name : method, timeoutMs: limit, origin: route.origin });
    this.sweepSoon();
    const message = { jsonrpc: '2.0', id, method, params: outgoing } as JSONRPCMessage;
    const unreachable = (error: unknown) => this.settle(id, new UpstreamError(this.name, `could not reach upstream "${this.name}": ${outsideText((error as Error).message)}`));
    if (transport instanceof StdioUpstreamTransport) {
      if (!transport.sendNow(message)) unreachable(new Error('upstream process is not running'));
    } else transport.send(message).catch(unreachable);
    return {
      cancel: (reason) => {
        if (!this.pending.has(id)) return;
        this.settle(id, new UpstreamError(this.name, 'cancelled'));
        void transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(() => {});
      },
    };
  }

  /**
   * A 2026-07-28 upstream's request goes through the SDK Client, which adds the per-request
   * `_meta` envelope and drives `input_required` rounds (or returns them, when asked). Tracked
   * in `pending` like relayed calls, so origins, deadlines and failures work the same.
   */
  private sdkRelay(
    channel: ModernChannel,
    id: string,
    method: string,
    params: Record<string, unknown>,
    done: (error: UpstreamError | undefined, result?: Record<string, unknown>) => void,
    onProgress: ((params: Record<string, unknown>) => void) | undefined,
    timeoutMs: number | undefined,
    route: { origin?: CallOrigin | undefined; inputRequired?: 'fulfil' | 'return' | undefined },
  ): { cancel(reason: string): void } {
    const limit = timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT;
    const controller = new AbortController();
    this.lastUsed = Date.now();
    this.pending.set(id, { method, raw: undefined, done, onProgress, deadline: Date.now() + limit, tool: typeof params.name === 'string' ? params.name : method, timeoutMs: limit, origin: route.origin });
    this.sweepSoon();
    channel.request({ method, params, origin: route.origin, signal: controller.signal, timeoutMs: limit, onProgress, inputRequired: route.inputRequired }).then(
      (result) => {
        this.failures = 0;
        this.settle(id, undefined, result);
      },
      (error: unknown) => this.settle(id, error instanceof UpstreamError ? error : sdkFailure(this.name, error)),
    );
    return {
      cancel: (reason) => {
        if (!this.pending.has(id)) return;
        this.settle(id, new UpstreamError(this.name, 'cancelled'));
        controller.abort(reason);
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
    const discovery = this.discovery;
    return {
      protocol: discovery?.kind === 'modern' ? { era: 'modern', discover: discovery.discover as unknown as Record<string, unknown> } : discovery ? { era: 'legacy' } : undefined,
      capabilities: this.capabilities,
      instructions: this.instructions,
      prompts: this.primitives.prompts,
      resources: this.primitives.resources,
      resourceTemplates: this.primitives.templates,
    };
  }

  /**
   * Takes what a lock recorded while the server is not started, so the gateway can advertise
   * its capabilities, instructions, prompts and resources, and the first start skips the era probe.
   */
  seed(profile: ServerProfile): void {
    if (this.status === 'ready' || this.status === 'starting') return;
    this.capabilities = profile.capabilities;
    this.instructions = profile.instructions;
    this.primitives = { prompts: profile.prompts ?? [], resources: profile.resources ?? [], templates: profile.resourceTemplates ?? [] };
    const protocol = profile.protocol;
    if (protocol) this.discovery = protocol.era === 'modern' ? { kind: 'modern', discover: protocol.discover as never } : { kind: 'legacy' };
  }

  /** Disconnects (and ends a stdio child). */
  /**
   * A 2026-07-28 request (from a modern client) to an HTTP server spoken to in 2025 goes to a
   * second connection in 2026-07-28 when the server speaks it, so its own input_required rounds
   * reach the client as it sent them (keys, state, several rounds) with nothing kept here. Not for
   * a stdio server (a second process would not share its state) nor one that speaks only 2025:
   * their requests to the client become lazytools' own rounds (front/input-rounds.ts).
   */
  private async modernTwin(): Promise<Upstream | undefined> {
    if (this.twin === null || this.options.era === 'modern' || !this.options.sharedServer) return undefined;
    this.twin ??= new Upstream(this.name, { ...this.options, era: 'modern', logger: silentLogger });
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

  async stop(): Promise<void> {
    const twin = this.twin;
    if (twin) await twin.stop();
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    const client = this.client;
    const connecting = this.connecting;
    this.stops++;
    this.client = undefined;
    this.connecting = undefined;
    this.modern = undefined;
    this.transport = undefined;
    this.failAll(`upstream "${this.name}" was stopped`);
    // Idle before the child is gone: a call arriving meanwhile starts a fresh one.
    this.setStatus('idle');
    if (client) await client.close().catch(() => {});
    // A start still in progress: its transport (and process) ends now, and the start fails.
    await connecting?.close().catch(() => {});
  }

  private async doStart(): Promise<void> {
    this.setStatus('starting');
    const timeout = this.startTimeoutMs;
    const hooks = this.clientHooks();
    let client: Client | undefined;
    let transport: Transport | undefined;
    try {
      // Remembered while connecting, so stop() can end a start in progress (its process too).
      const stops = this.stops;
      const connect = async () => {
        // A stop during the first attempt must not lead to a second one (a fresh process).
        if (this.stops !== stops) throw new Error('stopped while starting');
        return (this.connecting = await this.options.connect());
      };
      ({ client, transport } = await connectEitherEra(connect, hooks, this.discovery, timeout, this.options.era === 'modern'));
      this.connecting = undefined;
      this.client = client;
      this.transport = transport;
      this.hook(transport, client);
      this.era = client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
      const discover = client.getDiscoverResult();
      this.discovery = this.era === 'modern' && discover ? { kind: 'modern', discover: redactValue(discover) } : { kind: 'legacy' };
      this.capabilities = redactValue(client.getServerCapabilities() as Record<string, unknown> | undefined);
      this.instructions = redactValue(client.getInstructions());
      [this.tools, this.primitives] = await Promise.all([this.listAll(client, timeout), this.listPrimitives(client, timeout)]);
      this.modern = this.era === 'modern' ? new ModernChannel(this.name, client, this.capabilities ?? {}, hooks, (request, signal) => this.askClient(request, signal)) : undefined;
      // The twin serves requests only: the main connection watches for changes.
      if (this.options.era !== 'modern') void this.modern?.listen();
      this.lastError = undefined;
      this.lastUsed = Date.now();
      this.watchIdle();
      this.setStatus('ready');
    } catch (error) {
      const failed = error instanceof ConnectFailure ? error : undefined;
      this.connecting = undefined;
      const message = describe(failed ? failed.failure : error, failed ? failed.transport : transport);
      this.lastError = message;
      this.client = undefined;
      this.modern = undefined;
      this.transport = undefined;
      await client?.close().catch(() => {});
      this.markDown();
      throw new UpstreamError(this.name, `could not start upstream "${this.name}": ${message}`);
    }
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
      toolsChanged: () => this.toolsChanged(),
      notified: (client, notification) => this.notified(client, notification),
      request: (request, cause, signal) => this.askClient({ ...request, origin: cause === undefined ? undefined : this.pending.get(cause)?.origin }, signal),
      warn: (message) => this.logger.warn(`${this.name}: ${message}`),
    };
  }

  /** Takes our relayed responses and progress off the transport before the SDK sees them. */
  private hook(transport: Transport, client: Client): void {
    if (transport instanceof StdioUpstreamTransport) {
      transport.onLine = (line) => this.rawLine(line);
      transport.onUnreadable = (line, problem) => this.failFor(line, `upstream "${this.name}" sent a line that is not a JSON-RPC message (${problem})`);
      transport.onOversize = (size, head, tail) =>
        this.failFor(`${head}\n${tail}`, `upstream "${this.name}" sent a result of ${megabytes(size)}, over the ${megabytes(MAX_LINE_BYTES)} limit`, true);
    }
    const sdkMessage = transport.onmessage;
    transport.onmessage = (incoming, extra) => {
      if (isNotification(incoming) && this.gated(transport, incoming.method)) return;
      // The one way in from an upstream: values the rc passed to it (${VAR}) are written back here.
      const message = redactValue(incoming);
      const mixed = message as { id?: unknown; method?: unknown };
      if (typeof mixed.id === 'string' && this.pending.has(mixed.id) && mixed.method !== undefined && ('result' in message || 'error' in message)) {
        this.settle(mixed.id, new UpstreamError(this.name, `upstream "${this.name}" answered with a message that is both a request and a response`));
        return;
      }
      if (isResponse(message) && typeof message.id === 'string') {
        const pending = this.pending.get(message.id);
        if (pending) {
          if (message.error) {
            const text = typeof message.error.message === 'string' ? message.error.message : JSON.stringify(message.error);
            this.settle(message.id, new UpstreamError(this.name, `upstream "${this.name}" answered with an error: ${outsideText(text)}`, { ...message.error, message: outsideText(text) }));
          } else if (!isObject(message.result)) {
            this.settle(message.id, new UpstreamError(this.name, `upstream "${this.name}" answered with a result that is not an object`));
          } else {
            this.failures = 0;
            this.settle(message.id, undefined, message.result);
          }
          return;
        }
      } else if (isNotification(message) && (message.method === 'notifications/message' || message.method === 'notifications/resources/updated')) {
        // Passed on synchronously, so a log line sent during a relayed call reaches the client
        // before the call's (raw, immediate) answer.
        if (this.onNotification) {
          this.onNotification(this, message as Notification);
          return;
        }
      } else if (isNotification(message) && message.method === 'notifications/progress') {
        const token = message.params?.progressToken;
        const pending = typeof token === 'string' ? this.pending.get(token) : undefined;
        if (pending) {
          pending.onProgress?.(message.params ?? {});
          return;
        }
      }
      sdkMessage?.(message, extra);
    };
    addCloseListener(transport, () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.modern = undefined;
      this.transport = undefined;
      this.failAll(`upstream "${this.name}" exited while handling the call`);
      this.lastError = 'exited';
      this.markDown();
    });
  }

  /**
   * Passes a successful result line through to a caller that can write raw lines: parsed once to
   * check it is one well-formed response with an object result (never re-serialized), so a
   * broken or mixed line cannot reach the client under the client's id.
   */
  private rawLine(line: string): boolean {
    // A line that repeats a secret takes the parsed path, where it is redacted (onmessage).
    if (!line.endsWith('"}') || !line.startsWith('{"result":') || containsSecret(line)) return false;
    const at = line.lastIndexOf(RAW_TAIL);
    if (at < 0) return false;
    const idStart = at + RAW_TAIL.length - 3;
    const id = line.slice(idStart, line.length - 2);
    if (!/^lt-\d+$/.test(id)) return false;
    const pending = this.pending.get(id);
    if (!pending?.raw) return false;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.settle(id, new UpstreamError(this.name, `upstream "${this.name}" sent a line that is not a JSON-RPC message (invalid JSON)`));
      return true;
    }
    const message = value as { id?: unknown; result?: unknown };
    if (message.id !== id || !isObject(message.result) || Object.keys(value as object).length !== 3) return false;
    this.pending.delete(id);
    this.failures = 0;
    this.onSettled?.(this, pending.method, pending.tool, Date.now() - (pending.deadline - pending.timeoutMs), (message.result as { isError?: unknown }).isError === true);
    pending.raw(line.slice(0, at + ',"jsonrpc":"2.0"'.length));
    return true;
  }

  private listPrimitives(client: Client, timeout: number): Promise<UpstreamPrimitives> {
    return listPrimitives(client, timeout, (what, error) => this.logger.warn(`${this.name}: could not list ${what}: ${error.message}`));
  }

  /** Re-lists prompts or resources on the upstream's list_changed; passes other notifications on. */
  private async notified(client: Client, notification: Notification): Promise<void> {
    const kind: PrimitiveKind | undefined =
      notification.method === 'notifications/prompts/list_changed' ? 'prompts' : notification.method === 'notifications/resources/list_changed' ? 'resources' : undefined;
    if (!kind) {
      this.onNotification?.(this, notification);
      return;
    }
    // A burst (2,000 prompts/list_changed once caused 6,003 list requests) costs one re-list in
    // flight and one after it, as for tools.
    this.primitivesChanged.add(kind);
    if (this.primitivesRelist) return;
    this.primitivesRelist = (async () => {
      let started = -Infinity;
      while (this.primitivesChanged.size > 0 && this.client === client) {
        await paced(started);
        started = performance.now();
        const kinds = [...this.primitivesChanged];
        this.primitivesChanged.clear();
        try {
          const primitives = await this.listPrimitives(client, this.startTimeoutMs);
          if (this.client !== client) return;
          this.primitives = primitives;
          for (const changed of kinds) this.onPrimitivesChanged?.(this, changed);
        } catch (error) {
          this.logger.warn(`${this.name}: could not re-list ${kinds.join(' and ')}: ${(error as Error).message}`);
        }
      }
    })().finally(() => {
      this.primitivesRelist = undefined;
    });
    await this.primitivesRelist;
  }

  /**
   * True when a notification is left out (flood.ts): a list change already due, or one past the
   * budget of a transport that cannot be held; past the budget a stdio upstream is not read for a while.
   */
  private gated(transport: Transport, method: string): boolean {
    const now = performance.now();
    const hold = transport instanceof StdioUpstreamTransport ? transport : undefined;
    const verdict = this.flood.judge(method, hold !== undefined, now, (dropped) => this.logger.warn(`${this.name}: ${dropped} notifications dropped (over ${NOTIFICATION_BUDGET} a second)`));
    if (hold && this.flood.spent) hold.holdReading(this.flood.holdMs(now));
    return verdict !== 'pass';
  }

  /** Front requests in flight on this upstream, oldest first, with who caused them. */
  origins(): CallOrigin[] {
    const out: CallOrigin[] = [];
    for (const pending of this.pending.values()) if (pending.origin) out.push(pending.origin);
    return out;
  }

  /**
   * Fails the call an unreadable line was meant for: the pending id it quotes, or (for an
   * oversized line, surely an answer) the only call pending. A stray line quoting no id (a log
   * line on stdout) fails nothing.
   */
  private failFor(text: string, message: string, onlyPending = false): void {
    const quoted = [...text.matchAll(/"id"\s*:\s*"(lt-\d+)"/g)].map((match) => match[1] as string).find((id) => this.pending.has(id));
    const id = quoted ?? (onlyPending && this.pending.size === 1 ? [...this.pending.keys()][0] : undefined);
    if (id !== undefined) this.settle(id, new UpstreamError(this.name, message));
    else this.logger.warn(message);
  }

  /** True while a re-list after tools/list_changed is running. */
  get relisting(): boolean {
    return this.relist !== undefined;
  }

  /** A burst of list_changed costs one re-list in flight and at most one after it. */
  private toolsChanged(): void {
    if (this.relist) {
      this.relistAgain = true;
      return;
    }
    this.relist = (async () => {
      let started = -Infinity;
      do {
        // A burst's next re-list waits its turn (flood.ts): one rebuild now, one later.
        await paced(started);
        started = performance.now();
        this.relistAgain = false;
        await this.refresh();
      } while (this.relistAgain && this.client);
    })()
      .catch((error: unknown) => this.logger.warn(`${this.name}: could not re-list tools: ${outsideText((error as Error).message)}`))
      .finally(() => {
        this.relist = undefined;
      });
  }

  private async refresh(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.tools = await this.listAll(client, this.startTimeoutMs);
    this.onToolsChanged?.(this);
  }

  private async listAll(client: Client, timeout: number): Promise<ToolDefinition[]> {
    const tools: ToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1_000; page++) {
      const result = (await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, looseResult, { timeout })) as {
        tools?: unknown;
        nextCursor?: unknown;
      };
      tools.push(...usableTools(result.tools, (name, reason) => this.logger.warn(`${this.name}: tool "${name.slice(0, 80)}" skipped: ${reason}`)));
      cursor = typeof result.nextCursor === 'string' && result.nextCursor.length > 0 ? result.nextCursor : undefined;
      if (!cursor) break;
    }
    return admitTools(tools, (message) => this.logger.warn(`${this.name}: ${message}`));
  }

  private failAll(message: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new UpstreamError(this.name, message));
  }

  /** Ends one pending call exactly once. */
  private settle(id: string, error: UpstreamError | undefined, result?: Record<string, unknown>): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.onSettled?.(this, pending.method, pending.tool, Date.now() - (pending.deadline - pending.timeoutMs), error !== undefined || result?.isError === true);
    pending.done(error, result);
  }

  /** One timer per upstream, only while calls are pending, ends calls past their deadline. */
  private sweepSoon(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, pending] of this.pending) {
        if (pending.deadline > now) continue;
        this.settle(id, new UpstreamError(this.name, `"${pending.tool}" on upstream "${this.name}" timed out after ${pending.timeoutMs} ms`));
        void this.transport?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } }).catch(() => {});
      }
      if (this.pending.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, SWEEP_MS);
    this.sweeper.unref();
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
      if (this.status !== 'ready' || this.pending.size > 0 || Date.now() - this.lastUsed < idle || this.keepAlive?.()) return;
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

/** Why a start failed, for people: exit code and stderr tail of a child that died, bodies cut short. */
function describe(error: unknown, transport: Transport | undefined): string {
  const err = error as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return redact(`command not found (${err.path ?? 'spawn'})`);
  const base = outsideText(err?.message ?? String(error));
  if (transport instanceof StdioUpstreamTransport && transport.exit) {
    const { code, signal } = transport.exit;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const stderr = transport.stderrSummary;
    return `the process ${how} during start-up (${base})${stderr ? `; its stderr ended with:\n${outsideText(stderr, 1000)}` : ''}`;
  }
  return base;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
