import type { ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { SSE_FRAME_BYTES } from '../protocol/jsonrpc.js';
import { MAX_UNREAD_BYTES } from '../protocol/lines.js';
import { HeldUpdates, whenBehind } from './behind.js';

/** Bytes a session's client may leave unread on its streams before notifications to it are dropped. */
export { MAX_UNREAD_BYTES };
/** Bytes all sessions of one HTTP front may leave unread together: the per-session bound shrinks as sessions open. */
export const MAX_UNREAD_TOTAL = 64 * 1024 * 1024;
/** The least a session may leave unread, however many are open (a few log lines). */
export const MIN_UNREAD_BYTES = 64 * 1024;

/**
 * What one session may leave unread while `sessions` are open: MAX_UNREAD_BYTES, or its share of
 * MAX_UNREAD_TOTAL when many sessions are open (1,000 stalled sessions at 8 MiB each held 8 GiB),
 * never under MIN_UNREAD_BYTES.
 */
export function unreadBound(sessions: number): number {
  return Math.max(MIN_UNREAD_BYTES, Math.min(MAX_UNREAD_BYTES, Math.floor(MAX_UNREAD_TOTAL / Math.max(1, sessions))));
}

/**
 * A session's Streamable HTTP transport that bounds what its client leaves unread. The SDK queues
 * each message for a stream in memory and writes it as the socket takes it, so a client that
 * never reads its GET stream (or reads slower than its servers log) grew the gateway's memory
 * without bound: 55 MB a second under one logging upstream, until the process died. While one of
 * the session's streams is stalled (its socket buffer full), what is sent and what gets written
 * are counted; past `maxUnread` notifications are dropped (said once per stall through `warn`)
 * until the client reads again, as the flood gate drops an upstream's excess; list changes still
 * go, and resources/updated wait until no stream is stalled (behind.ts, the stdio front's rule).
 */
export class BoundedHttpTransport extends NodeStreamableHTTPServerTransport {
  /** The session's open responses (its GET stream, POSTs being answered). */
  private readonly streams = new Set<ServerResponse>();
  private written = 0;
  /** Bytes sent since a stream stalled, less those written since: about what the queues hold. */
  private unread = 0;
  private writtenMark = 0;
  private dropping = false;
  /** resources/updated met while dropping, sent once no stream waits on its socket (behind.ts). */
  private readonly heldUpdates = new HeldUpdates();

  constructor(
    options: ConstructorParameters<typeof NodeStreamableHTTPServerTransport>[0],
    private readonly warn: (message: string) => void = () => {},
    /** The current bound (unreadBound of the front's open sessions). */
    private readonly maxUnread: () => number = () => MAX_UNREAD_BYTES,
  ) {
    super(options);
  }

  override handleRequest(...args: Parameters<NodeStreamableHTTPServerTransport['handleRequest']>): Promise<void> {
    this.watch(args[1]);
    return super.handleRequest(...args);
  }

  override send(message: JSONRPCMessage, options?: Parameters<NodeStreamableHTTPServerTransport['send']>[1]): Promise<void> {
    return this.admits(message) ? super.send(message, options) : Promise.resolve();
  }

  private watch(res: ServerResponse): void {
    const write = res.write;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      this.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Uint8Array | undefined)?.byteLength ?? 0);
      return (write as (...all: unknown[]) => boolean).call(res, chunk, ...rest);
    }) as typeof res.write;
    this.streams.add(res);
    res.on('drain', this.caughtUp);
    res.once('close', () => {
      this.streams.delete(res);
      this.caughtUp();
    });
  }

  /** Sends the held updates once no stream of the session waits on its socket. */
  private readonly caughtUp = (): void => {
    if (this.heldUpdates.size === 0 || [...this.streams].some((res) => res.writableNeedDrain)) return;
    for (const message of this.heldUpdates.take()) void super.send(message).catch(() => {});
  };

  /** False for a notification while more than maxUnread bytes wait on stalled streams; counts what it lets through. */
  private admits(message: JSONRPCMessage): boolean {
    if (![...this.streams].some((res) => res.writableNeedDrain)) {
      // Nothing waits on a socket: the queues are (about) empty.
      this.unread = 0;
      this.writtenMark = this.written;
      this.dropping = false;
      return true;
    }
    this.unread -= this.written - this.writtenMark;
    this.writtenMark = this.written;
    const bound = this.maxUnread();
    const behind = whenBehind(message);
    if (this.unread > bound && behind !== 'send') {
      if (!this.dropping) this.warn(`an HTTP session's client left more than ${bound} bytes unread: notifications to it are dropped until it reads`);
      this.dropping = true;
      if (behind === 'hold') this.heldUpdates.hold(message);
      return false;
    }
    this.unread += Buffer.byteLength(JSON.stringify(message)) + SSE_FRAME_BYTES;
    return true;
  }
}

/**
 * Bytes of notifications (progress) one 2026-07-28 request's answer stream may queue while its
 * client does not read, before the rest are dropped until it reads again. Small: each request in
 * flight has its own (256 connections of one address hold at most 256 MiB).
 */
export const MAX_STALLED_REQUEST_BYTES = 1024 * 1024;

/**
 * Whether a notification for a 2026-07-28 request may still go on its answer stream `res`. The
 * SDK queues each one in memory while the socket is full (its Node adapter waits for `drain`),
 * and nothing bounded that queue: a client that sent a tool call with a 1 MB progress token and
 * never read its answer took the gateway past 2 GB in 17 s on a tool reporting progress (each
 * notification repeats the token), towards the heap limit where Node ends the process and every
 * client with it. Once the stream stalls, notifications pass until about `max` bytes of them
 * wait, then are dropped until it drains; the answer itself always goes.
 */
export function stalledStreamGate(res: ServerResponse, max = MAX_STALLED_REQUEST_BYTES): (message: () => unknown) => boolean {
  let waiting = 0;
  res.on('drain', () => (waiting = 0));
  return (message) => {
    if (!res.writableNeedDrain) {
      waiting = 0;
      return true;
    }
    if (waiting > max) return false;
    waiting += Buffer.byteLength(JSON.stringify(message())) + SSE_FRAME_BYTES;
    return waiting <= max;
  };
}
