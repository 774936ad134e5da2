import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition } from '../catalog/catalog.js';
import { isNotification, isResponse } from '../util/jsonrpc.js';
import { silentLogger, type Logger } from '../util/log.js';
import { VERSION } from '../version.js';

/** idle: not started (lazy); ready: connected; down: failed or exited (restarted on the next call). */
export type UpstreamStatus = 'idle' | 'starting' | 'ready' | 'down';

/** What a relayed call may carry back while it runs. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Receives `notifications/progress` params (the token is the caller's to set). */
  onProgress?: ((params: Record<string, unknown>) => void) | undefined;
  timeoutMs?: number | undefined;
}

/** A failure reaching or running a tool on an upstream; becomes an `isError` result. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly server: string,
    message: string,
  ) {
    super(message);
  }
}

export interface UpstreamOptions {
  /** Creates a fresh transport for each (re)start. */
  connect: () => Transport;
  /** Per-call timeout (default 120 s). */
  timeoutMs?: number | undefined;
  /** Timeout for start-up: spawn, initialize and tools/list (default 30 s). */
  startTimeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  onProgress: ((params: Record<string, unknown>) => void) | undefined;
}

const looseResult = z.looseObject({});
const DEFAULT_TIMEOUT = 120_000;

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

  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private readonly logger: Logger;

  constructor(
    readonly name: string,
    private readonly options: UpstreamOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  /** The transport of the current connection (its `pid` for stdio upstreams). */
  get currentTransport(): Transport | undefined {
    return this.transport;
  }

  /** Connects and lists tools; concurrent callers share one attempt. */
  start(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Calls a tool by its upstream name, starting the upstream first when needed. */
  async call(params: Record<string, unknown> & { name: string }, options: CallOptions = {}): Promise<Record<string, unknown>> {
    if (this.status !== 'ready') await this.start();
    const transport = this.transport;
    if (!transport || this.status !== 'ready') throw new UpstreamError(this.name, `upstream "${this.name}" is not connected`);
    const id = `lt-${++this.seq}`;
    const meta = (params._meta ?? undefined) as Record<string, unknown> | undefined;
    let outgoing: Record<string, unknown> = params;
    if (options.onProgress) outgoing = { ...params, _meta: { ...meta, progressToken: id } };
    else if (meta && 'progressToken' in meta) {
      const { progressToken: _dropped, ...rest } = meta;
      outgoing = { ...params, _meta: rest };
    }
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const cancel = (reason: string) => {
        void transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(() => {});
      };
      const timer = setTimeout(() => {
        cleanup();
        cancel('timeout');
        reject(new UpstreamError(this.name, `"${params.name}" on upstream "${this.name}" timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => {
        cleanup();
        cancel(String(options.signal?.reason ?? 'cancelled by client'));
        reject(new UpstreamError(this.name, 'cancelled'));
      };
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
        onProgress: options.onProgress,
      });
      transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: outgoing } as JSONRPCMessage).catch((error: unknown) => {
        this.pending.get(id)?.reject(new UpstreamError(this.name, `could not reach upstream "${this.name}": ${(error as Error).message}`));
      });
    });
  }

  /** Disconnects (and ends a stdio child). */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.failAll(`upstream "${this.name}" was stopped`);
    if (client) await client.close().catch(() => {});
    this.setStatus('idle');
  }

  private async doStart(): Promise<void> {
    this.setStatus('starting');
    const transport = this.options.connect();
    const client = new Client({ name: 'lazytools', version: VERSION }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refresh().catch((error: unknown) => this.logger.warn(`${this.name}: could not re-list tools: ${(error as Error).message}`));
    });
    client.onerror = (error) => this.logger.warn(`${this.name}: ${error.message}`);
    const timeout = this.options.startTimeoutMs ?? 30_000;
    try {
      await client.connect(transport, { timeout });
      this.client = client;
      this.transport = transport;
      this.hook(transport, client);
      this.tools = await this.listAll(client, timeout);
      this.lastError = undefined;
      this.setStatus('ready');
    } catch (error) {
      const message = describe(error);
      this.lastError = message;
      this.client = undefined;
      this.transport = undefined;
      await client.close().catch(() => {});
      this.setStatus('down');
      throw new UpstreamError(this.name, `could not start upstream "${this.name}": ${message}`);
    }
  }

  /** Takes our relayed responses and progress off the transport before the SDK sees them. */
  private hook(transport: Transport, client: Client): void {
    const sdkMessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (isResponse(message) && typeof message.id === 'string') {
        const pending = this.pending.get(message.id);
        if (pending) {
          if (message.error) pending.reject(new UpstreamError(this.name, `upstream "${this.name}" answered with an error: ${message.error.message}`));
          else pending.resolve(message.result ?? {});
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
    const sdkClose = transport.onclose;
    transport.onclose = () => {
      sdkClose?.();
      if (this.client !== client) return;
      this.client = undefined;
      this.transport = undefined;
      this.failAll(`upstream "${this.name}" exited while handling the call`);
      this.lastError = 'exited';
      this.setStatus('down');
    };
  }

  private async refresh(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.tools = await this.listAll(client, this.options.startTimeoutMs ?? 30_000);
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
      if (Array.isArray(result.tools))
        for (const tool of result.tools as ToolDefinition[]) if (tool && typeof tool.name === 'string' && typeof tool.inputSchema === 'object') tools.push(tool);
      cursor = typeof result.nextCursor === 'string' && result.nextCursor.length > 0 ? result.nextCursor : undefined;
      if (!cursor) break;
    }
    return tools;
  }

  private failAll(message: string): void {
    for (const pending of [...this.pending.values()]) pending.reject(new UpstreamError(this.name, message));
    this.pending.clear();
  }

  private setStatus(status: UpstreamStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.onStatus?.(this);
  }
}

function describe(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return `command not found (${err.path ?? 'spawn'})`;
  return err?.message ?? String(error);
}
