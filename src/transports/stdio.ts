import type { Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { answerId, errorEnvelope, ErrorCode, tooDeep, unanswerable } from '../protocol/jsonrpc.js';
import { LineReader, MAX_UNREAD_BYTES, overClientLine, serialize, tooLargeForClient } from '../protocol/lines.js';
import { HeldUpdates, whenBehind } from './behind.js';

/**
 * Server transport over a readable and a writable (stdin/stdout by default), newline-delimited
 * JSON-RPC. Only the envelope is checked here; malformed lines get a JSON-RPC error reply and the
 * transport keeps serving. stdout carries nothing but protocol messages.
 */
export class StdioFrontTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  private started = false;
  /**
   * Sends waiting for the output to drain: one `drain` listener for all of them (one per send
   * passed Node's listener warning at 11 while a client read slowly), all settled on close (an
   * output that errored or went away never drains).
   */
  private draining: Array<() => void> = [];
  private readonly onDrain = () => this.release();
  private readonly onData = (chunk: Buffer) => this.reader.push(chunk);
  private readonly onEnd = () => void this.close();
  /** The client went away (EPIPE on stdout): end the session instead of crashing. */
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };
  /**
   * Sees each message read before the handler does, and each message sent before it is written
   * (returning true keeps it off the output): how the start answers (start-answers.ts) learn the
   * opening exchange and check their early answers against the gateway's own.
   */
  tap: { inbound(message: JSONRPCMessage): void; outbound(message: JSONRPCMessage): boolean } | undefined;
  /** Hears the one warning of each stall during which notifications were dropped (serve: the logger). */
  warn: ((message: string) => void) | undefined;
  /** True while notifications are dropped for want of reading (one warning per stall). */
  private dropping = false;
  /** resources/updated met while notifications are dropped, sent once the output drains (behind.ts). */
  private readonly heldUpdates = new HeldUpdates();
  private readonly onCaughtUp = () => {
    for (const message of this.heldUpdates.take()) void this.write(message);
  };
  private readonly reader = new LineReader(
    (message, textLength) => {
      // Passed on, a message is serialized again: too deep, that overflows the stack.
      const deep = tooDeep(message, textLength);
      if (deep !== undefined) {
        const id = answerId(message);
        if (id !== null) void this.write(errorEnvelope(id, ErrorCode.InvalidRequest, deep));
        return;
      }
      // The SDK drops what its schemas refuse, answering nothing: the client waited for ever.
      const unfit = unanswerable(message as Record<string, unknown>);
      if (unfit !== undefined) {
        void this.write(errorEnvelope(answerId(message), ErrorCode.InvalidRequest, `Invalid Request: ${unfit}`));
        return;
      }
      this.tap?.inbound(message);
      this.onmessage?.(message);
    },
    (reply) => void this.write(reply),
  );

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  /** Starts reading; idempotent, so the era decision can read the opening message first. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.listen('on');
  }

  /** Adds or removes the stream listeners (start and close). */
  private listen(how: 'on' | 'off'): void {
    this.input[how]('data', this.onData);
    this.input[how]('end', this.onEnd);
    this.input[how]('close', this.onEnd);
    this.output[how]('error', this.onOutputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.closed || this.tap?.outbound(message) ? Promise.resolve() : this.write(message);
  }

  /**
   * Writes a message, past the tap: the transport's own replies (a line it could not hand over)
   * answer no request of the opening, whatever id they carry (start-answers.ts took one reusing
   * the tools/list's id for the gateway's answer).
   */
  private write(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.dropsNotification(message)) return Promise.resolve();
    const line = this.fitting(serialize(message), () => message);
    if (line === undefined || this.output.write(line)) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.draining.push(resolve) === 1) this.output.once('drain', this.onDrain);
    });
  }

  /**
   * True for a notification dropped (or held, behind.ts) while more than MAX_UNREAD_BYTES wait
   * unread on the output, as the HTTP front does (http-unread.ts): a write is queued in memory
   * whatever the client reads, and the other servers' answers waited seconds behind the queue.
   */
  private dropsNotification(message: JSONRPCMessage): boolean {
    const behind = whenBehind(message);
    if (behind === 'send') return false;
    if (((this.output as Partial<Writable>).writableLength ?? 0) <= MAX_UNREAD_BYTES) {
      this.dropping = false;
      return false;
    }
    if (!this.dropping) this.warn?.(`the stdio client left more than ${MAX_UNREAD_BYTES} bytes unread: notifications to it are dropped until it reads`);
    this.dropping = true;
    if (behind === 'hold') {
      const first = this.heldUpdates.size === 0;
      if (this.heldUpdates.hold(message) && first) this.output.once('drain', this.onCaughtUp);
    }
    return true;
  }

  /** Settles the sends waiting for a drain. */
  private release(): void {
    this.output.off('drain', this.onDrain);
    for (const resolve of this.draining.splice(0)) resolve();
  }

  /** `line`, or what the client gets in its place when it is too large for a stdio client (see tooLargeForClient). */
  private fitting(line: string, message: () => unknown): string | undefined {
    if (!overClientLine(line)) return line;
    const instead = tooLargeForClient(message(), Buffer.byteLength(line));
    return instead === undefined ? undefined : serialize(instead);
  }

  /** Hands messages read earlier (and held) to the handler, in order, as if they arrived now. */
  deliver(messages: readonly JSONRPCMessage[]): void {
    for (const message of messages) this.onmessage?.(message);
  }

  /** Writes one already-serialized message (the relay's raw path). */
  sendRawLine(line: string): void {
    if (this.closed) return;
    const fitted = this.fitting(`${line}\n`, () => parsedOrUndefined(line));
    if (fitted !== undefined) this.output.write(fitted);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listen('off');
    this.release();
    this.output.off('drain', this.onCaughtUp);
    this.heldUpdates.take();
    // A paused stdin no longer holds the event loop open, so the process can exit.
    this.input.pause();
    this.onclose?.();
  }
}


/** A relayed line as a value, or undefined when it is not JSON (then nothing can answer in its place). */
function parsedOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
