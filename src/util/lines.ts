import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorResponse, INVALID_REQUEST, isEnvelope, PARSE_ERROR } from './jsonrpc.js';

/** Most bytes one line may hold before the peer is considered broken (64 MiB). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Splits a byte stream into newline-delimited JSON-RPC messages. Only the envelope is checked:
 * payloads stay as the peer sent them. Lines that are not JSON-RPC produce the error response the
 * peer should get (`reply`), never an exception.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly onMessage: (message: JSONRPCMessage) => void,
    private readonly reply: (message: JSONRPCMessage) => void,
    /** Sees each line before it is parsed; returning true consumes it (the relay's raw path). */
    private readonly intercept?: (line: string) => boolean,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      const line = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece]);
      this.chunks = [];
      this.size = 0;
      this.line(line);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > MAX_LINE_BYTES) {
        this.chunks = [];
        this.size = 0;
        this.reply(errorResponse(null, INVALID_REQUEST, `Message larger than ${MAX_LINE_BYTES} bytes`));
        return;
      }
      this.chunks.push(chunk.subarray(start));
    }
  }

  private line(bytes: Buffer): void {
    const text = bytes.toString('utf8').trim();
    if (text.length === 0) return;
    if (this.intercept?.(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(errorResponse(null, PARSE_ERROR, 'Parse error: invalid JSON'));
      return;
    }
    if (!isEnvelope(value)) {
      const id = (value as { id?: unknown } | null)?.id;
      this.reply(errorResponse(typeof id === 'string' || typeof id === 'number' ? id : null, INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 object'));
      return;
    }
    this.onMessage(value);
  }
}

/** One message as a line. */
export function serialize(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
