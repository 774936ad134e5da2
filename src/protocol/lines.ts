import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { answerId, errorEnvelope, ErrorCode, isEnvelope } from './jsonrpc.js';

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
    private readonly onMessage: (message: JSONRPCMessage) => void,
    /** The error response the peer should get for an unreadable line, and the line's text. */
    private readonly reply: (message: JSONRPCMessage, line?: string) => void,
    /** Sees each line before it is parsed; returning true consumes it (the relay's raw path). */
    private readonly intercept?: (line: string) => boolean,
    /** Hears a line that was past the limit once it ended: its size, first and last bytes. */
    private readonly oversize?: (size: number, head: string, tail: string) => void,
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
    this.onMessage(value);
  }
}

/** One message as a line. */
export function serialize(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
