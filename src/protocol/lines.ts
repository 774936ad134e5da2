import { megabytes } from '../util/bounds.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { moreJsonValuesThan } from '../util/json.js';
import { answerId, errorEnvelope, ErrorCode, isEnvelope, MAX_MESSAGE_VALUES } from './jsonrpc.js';

/** Most bytes one line may hold before the peer is considered broken (64 MiB). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Bytes kept from each end of an oversized line (where the id usually is). */
const TAIL_BYTES = 256;

/**
 * Splits a byte stream into newline-delimited JSON-RPC messages. Only the envelope is checked:
 * payloads stay as the peer sent them. Lines that are not JSON-RPC produce the error response the
 * peer should get (`reply`), never an exception.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a line past the limit: its bytes are counted and dropped up to the next newline. */
  private skipping: { size: number; head: string; tail: Buffer } | undefined;

  constructor(
    /** Each message read, with the length of the text it was parsed from (see tooDeep). */
    private readonly onMessage: (message: JSONRPCMessage, textLength: number) => void,
    /** The error response the peer should get for an unreadable line, and the line's text. */
    private readonly reply: (message: JSONRPCMessage, line?: string) => void,
    /** Sees each line before it is parsed; returning true consumes it (the relay's raw path). */
    private readonly intercept?: (line: string) => boolean,
    /**
     * Hears a line that was past a limit once it ended: its size, first and last bytes, and what
     * it held too much of (undefined: bytes, MAX_LINE_BYTES; else its JSON values).
     */
    private readonly oversize?: (size: number, head: string, tail: string, tooMany?: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      if (this.skipping) this.endSkip(chunk.subarray(start, newline));
      // A whole line in one chunk (the usual case) is decoded in place, without a view or a copy.
      else if (this.chunks.length === 0) this.line(chunk.toString('utf8', start, newline));
      else {
        const line = Buffer.concat([...this.chunks, chunk.subarray(start, newline)]);
        this.chunks = [];
        this.size = 0;
        this.line(line.toString('utf8'));
      }
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.skipping) {
        this.skipping.size += rest.length;
        this.skipping.tail = Buffer.concat([this.skipping.tail, rest]).subarray(-TAIL_BYTES);
        return;
      }
      this.size += rest.length;
      if (this.size > MAX_LINE_BYTES) {
        const head = Buffer.concat(this.chunks.length > 0 ? [this.chunks[0] as Buffer] : [rest]).subarray(0, TAIL_BYTES).toString('utf8');
        this.skipping = { size: this.size, head, tail: rest.subarray(-TAIL_BYTES) };
        this.chunks = [];
        this.size = 0;
        this.reply(errorEnvelope(null, ErrorCode.InvalidRequest, `Message larger than ${MAX_LINE_BYTES} bytes`));
        return;
      }
      this.chunks.push(rest);
    }
  }

  private endSkip(piece: Buffer): void {
    const skipped = this.skipping;
    this.skipping = undefined;
    if (!skipped) return;
    const tail = Buffer.concat([skipped.tail, piece]).subarray(-TAIL_BYTES).toString('utf8');
    this.oversize?.(skipped.size + piece.length, skipped.head, tail);
  }

  private line(decoded: string): void {
    const text = decoded.trim();
    if (text.length === 0) return;
    // Counted before it is parsed (the raw relay parses too): a few bytes a value build gigabytes of objects.
    if (text.length > MAX_MESSAGE_VALUES && moreJsonValuesThan(text, MAX_MESSAGE_VALUES)) {
      const tooMany = `more than ${MAX_MESSAGE_VALUES.toLocaleString('en-US')} JSON values`;
      if (this.oversize) this.oversize(text.length, text.slice(0, TAIL_BYTES), text.slice(-TAIL_BYTES), tooMany);
      else this.reply(errorEnvelope(null, ErrorCode.InvalidRequest, `Invalid Request: a message of ${tooMany}`));
      return;
    }
    if (this.intercept?.(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(errorEnvelope(null, ErrorCode.ParseError, 'Parse error: invalid JSON'), text);
      return;
    }
    if (!isEnvelope(value)) {
      this.reply(errorEnvelope(answerId(value), ErrorCode.InvalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 object'), text);
      return;
    }
    this.onMessage(value, text.length);
  }
}

/** One message as a line. */
export function serialize(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Most bytes of one message lazytools writes to a stdio client. The SDK's stdio clients (v1 and
 * v2) hold at most 10 MiB of unread input and close the whole connection past it: one 11 MiB tool
 * result took every server's tools from the client. Kept under that with room for what is read
 * beside it.
 */
export const MAX_CLIENT_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Bytes a client may leave unread (a stdio client's stdout, an HTTP session's streams) before
 * notifications to it are dropped, or held (resources/updated), by transports/behind.ts's rule:
 * answers, requests (their number is bounded by the calls in flight) and list changes always go.
 */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/** True when `line` holds more than MAX_CLIENT_LINE_BYTES bytes (counted only where it may). */
export function overClientLine(line: string): boolean {
  return line.length * 3 > MAX_CLIENT_LINE_BYTES && (line.length > MAX_CLIENT_LINE_BYTES || Buffer.byteLength(line) > MAX_CLIENT_LINE_BYTES);
}

/**
 * What a stdio client gets in place of an answer too large for it (see MAX_CLIENT_LINE_BYTES): a
 * tool's result becomes an `isError` result, any other answer a JSON-RPC error, both saying why;
 * undefined for a request or notification (left out: a request to the client is refused earlier,
 * upstream/client.ts, and notifications are bounded, upstream/raw.ts).
 */
export function tooLargeForClient(message: unknown, bytes: number): JSONRPCMessage | undefined {
  const id = answerId(message);
  if (id === null || typeof message !== 'object' || message === null || 'method' in message) return undefined;
  const text = `The answer is ${megabytes(bytes)}, more than a stdio client reads in one message (${MAX_CLIENT_LINE_BYTES / 1024 / 1024} MiB here; SDK clients close the connection past 10 MiB): lazytools did not send it, so the connection and every server's tools stay. Ask for less: a page, a range, a smaller file or image.`;
  const result = (message as { result?: { content?: unknown } }).result;
  if (Array.isArray(result?.content)) return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } } as JSONRPCMessage;
  return errorEnvelope(id, ErrorCode.InternalError, text);
}
