import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type OAuthClientProvider,
  type Transport,
  type TransportSendOptions,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { isNeedsSignIn } from './auth/needs-sign-in.js';
import { requestIdOf, type RequestId } from '../protocol/jsonrpc.js';
import { pacedGets, pacedReconnection } from './reconnect.js';

/** The two HTTP transports of MCP: Streamable HTTP, and the deprecated HTTP+SSE (`GET /sse`). */
export type HttpTransportKind = 'streamable-http' | 'sse';

export interface HttpTransportOptions {
  headers: Record<string, string>;
  fetch: FetchLike;
  /** `lazytools auth` only: the SDK then runs the sign-in on a 401 (the gateway's fetch does not). */
  authProvider?: OAuthClientProvider | undefined;
}

/**
 * The transport to a `url` server: the one the rc forces, the one this server answered on before
 * (`remembered`), or Streamable HTTP falling back to HTTP+SSE as the SDK's client guidance says
 * (a POST the server refuses with a 4xx that is not JSON-RPC, then a GET expecting the SSE
 * stream's `endpoint` event). `remembered` hears the verdict so later connections go straight there.
 */
export function httpTransport(url: URL, kind: HttpTransportKind | undefined, options: HttpTransportOptions, remembered?: { kind?: HttpTransportKind | undefined }): Transport {
  const forced = kind ?? remembered?.kind;
  if (forced === 'sse') return sseTransport(url, options);
  if (forced === 'streamable-http') return streamable(url, options);
  return new FallbackTransport(url, options, (verdict) => {
    if (remembered) remembered.kind = verdict;
  });
}

function streamable(url: URL, options: HttpTransportOptions): StreamableHTTPClientTransport {
  // A 404 to a request of the session means the server ended it (restarted, expired it): the
  // transport closes, so the upstream starts afresh with the next call (a new initialize, as the
  // spec says a client must). The SDK does not: every call failed with the 404 until the gateway
  // restarted.
  const fetch: FetchLike = async (input, init) => {
    const response = await ownSignal(options.fetch)(input, init);
    if (response.status === 404 && new Headers(init?.headers).has('mcp-session-id')) queueMicrotask(() => void transport.close().catch(() => {}));
    // A request answered in the POST's own body (JSON, or a refusal) has no stream left to end.
    if (posts.size > 0 && init?.method === 'POST' && !(response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream'))) {
      const id = requestIdOf(init.body);
      if (id !== undefined) posts.delete(id);
    }
    return response;
  };
  // A server's SSE `retry:` is obeyed within bounds (reconnect.ts): no reopening storm.
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: options.headers }, fetch, authProvider: options.authProvider, reconnectionScheduler: pacedReconnection });
  const posts = endsCancelledPosts(transport);
  return transport;
}

/** Requests of the SDK's own whose POST endsCancelledPosts can end (more are sent untracked, as before). */
const MAX_TRACKED_POSTS = 1024;

/**
 * Ends the POST of a request the SDK client gave up on (its timeout, its signal) once it has told
 * the server so: on a 2025-era connection the SDK sends notifications/cancelled and leaves the
 * request open, so a server that never answered a relist (tools/list after list_changed) held
 * one request, its socket and stream, per timed-out relist for as long as the gateway ran (raw.ts
 * ends the POSTs of calls itself, with their own requestSignal; a 2026-07-28 request brings the
 * SDK's). Each request sent without a requestSignal gets one, forgotten when its answer stream
 * ends, its POST is answered in its body (see `fetch` above) or fails. Returns the open ones.
 */
function endsCancelledPosts(transport: StreamableHTTPClientTransport): Map<RequestId, AbortController> {
  const posts = new Map<RequestId, AbortController>();
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> => {
    if (Array.isArray(message) || !('method' in message)) return send(message, options);
    if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const post = id === undefined ? undefined : posts.get(id);
      if (!post) return send(message, options);
      posts.delete(id as RequestId);
      // After the cancel is sent (or failed): the server hears it first, as the spec asks.
      return send(message, options).finally(() => post.abort());
    }
    if (!('id' in message) || message.method === 'initialize' || options?.requestSignal !== undefined || posts.size >= MAX_TRACKED_POSTS) return send(message, options);
    const { id } = message;
    const post = new AbortController();
    posts.set(id, post);
    const forget = () => {
      if (posts.get(id) === post) posts.delete(id);
    };
    const ended = options?.onRequestStreamEnd;
    return send(message, { ...options, requestSignal: post.signal, onRequestStreamEnd: () => (forget(), ended?.()) }).catch((error: unknown) => {
      forget();
      throw error;
    });
  };
  return posts;
}

function sseTransport(url: URL, options: HttpTransportOptions): SSEClientTransport {
  return new SSEClientTransport(url, { requestInit: { headers: options.headers }, fetch: pacedGets(ownSignal(options.fetch)), authProvider: options.authProvider });
}

/**
 * `fetch` giving each request a signal of its own that follows the one it was handed: both SDK
 * transports hand their one close signal to every POST sent without a signal of its own (each
 * HTTP+SSE message; a Streamable HTTP notification or answer to the server), and undici adds an
 * abort listener per fetch to that signal that only garbage collection removes: the one
 * long-lived signal per upstream gained a listener per message (Node warns past the 1,500
 * undici allows). AbortSignal.any follows it without a listener.
 */
function ownSignal(fetch: FetchLike): FetchLike {
  return (input, init) => fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
}

/**
 * Streamable HTTP until the server refuses the first request the way an HTTP+SSE-only server
 * does, then HTTP+SSE: the SSE stream is opened and the request sent again there. Everything a
 * client sets on this transport (handlers, protocol version) reaches the one in use.
 */
class FallbackTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  private inner: Transport;
  /** The HTTP+SSE transport being tried (its stream opened, no `endpoint` event yet), and how to give up on it. */
  private trying: { transport: Transport; abandon: () => void } | undefined;
  private closed = false;
  private decided = false;
  private protocolVersion: string | undefined;

  constructor(
    private readonly url: URL,
    private readonly options: HttpTransportOptions,
    private readonly decide: (kind: HttpTransportKind) => void,
  ) {
    this.inner = this.wire(streamable(url, options));
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean {
    return (this.inner as { hasPerRequestStream?: boolean }).hasPerRequestStream === true;
  }

  /** The transport in use (`lazytools auth` finishes a sign-in on it). */
  get current(): Transport {
    return this.inner;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.decided) return this.inner.send(message, options);
    try {
      await this.inner.send(message, options);
      this.settle('streamable-http');
    } catch (error) {
      if (!('method' in message) || !refusedAsSseServer(error)) throw error;
      const sse: Transport = this.wire(sseTransport(this.url, this.options));
      try {
        // Closing this one (the start timed out) ends the wait: the SSE stream is closed with it.
        await Promise.race([sse.start(), new Promise<never>((_, reject) => (this.trying = { transport: sse, abandon: () => reject(error) }))]);
      } catch (refused) {
        if (this.closed) throw error;
        // An HTTP+SSE server that wants a sign-in: it is one (a sign-in finishes on it).
        if (!wantsSignIn(refused)) {
          // Not an HTTP+SSE server either: the Streamable HTTP answer says more.
          await sse.close().catch(() => {});
          throw error;
        }
        await this.switchTo(sse);
        throw refused;
      } finally {
        this.trying = undefined;
      }
      if (this.closed) {
        await sse.close().catch(() => {});
        throw error;
      }
      await this.switchTo(sse);
      await sse.send(message, options);
    }
  }

  /** Uses the HTTP+SSE transport from now on (the verdict is remembered). */
  private async switchTo(sse: Transport): Promise<void> {
    const old = this.inner;
    this.inner = sse;
    old.onclose = undefined;
    await old.close().catch(() => {});
    if (this.protocolVersion) sse.setProtocolVersion?.(this.protocolVersion);
    this.settle('sse');
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  /**
   * Closes the transport in use, and an HTTP+SSE one still being tried: a server whose SSE stream
   * never sends its `endpoint` event held that stream open after the start gave up, one more at
   * each restart, for as long as the gateway ran.
   */
  async close(): Promise<void> {
    this.closed = true;
    const trying = this.trying;
    trying?.abandon();
    await Promise.all([this.inner.close(), trying?.transport.close().catch(() => {})]);
  }

  private settle(kind: HttpTransportKind): void {
    this.decided = true;
    this.decide(kind);
  }

  /** Passes the transport's events on to whoever listens on this one (read when they happen). */
  private wire<T extends Transport>(transport: T): T {
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (transport === this.inner) this.onmessage?.(message, extra);
    };
    transport.onerror = (error) => {
      // Before the first answer the failing send says it all (and a fallback makes it moot).
      if (transport === this.inner && this.decided) this.onerror?.(error);
    };
    transport.onclose = () => {
      if (transport === this.inner) this.onclose?.();
    };
    return transport;
  }
}

/** True when opening the SSE stream failed for want of a sign-in (the SDK's, or the gateway's). */
function wantsSignIn(error: unknown): boolean {
  return UnauthorizedError.isInstance(error) || isNeedsSignIn(error);
}

/**
 * True for the answer an HTTP+SSE-only server gives a Streamable HTTP POST: a 4xx other than
 * 401/403 whose body is not a JSON-RPC error (a Streamable HTTP server that refuses a request
 * says why in JSON-RPC).
 */
function refusedAsSseServer(error: unknown): boolean {
  const data = (error as { data?: { status?: unknown; text?: unknown } } | undefined)?.data;
  const status = data?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500 || status === 401 || status === 403) return false;
  const text = typeof data?.text === 'string' ? data.text : '';
  try {
    return typeof (JSON.parse(text) as { error?: { code?: unknown } }).error?.code !== 'number';
  } catch {
    return true;
  }
}
