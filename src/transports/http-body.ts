import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, tooLargeRequest } from '../protocol/jsonrpc.js';
import { megabytes } from '../util/bounds.js';

/**
 * Request bodies of the HTTP front: read whole, bounded one by one (`--max-body`) and all
 * together (BodyBudget), then parsed and checked for depth and size (protocol/jsonrpc.ts).
 */

/** Bodies up to this size never count against the budget: every request of a usual client, so one client's big bodies cannot keep out another's small ones. */
export const FREE_BODY_BYTES = 64 * 1024;
/** The least budget of big bodies held at once (a front's budget is at least twice its largest body). */
export const BODIES_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/**
 * What the front holds of big request bodies at once, from their first byte until their answer
 * ends: a body is parsed and kept while its call runs (about ten times its size once parsed), so
 * 256 connections each holding a 4 MiB body for a slow call took about 2 GB of heap, towards the
 * limit where Node ends the process and every session with it. Past the budget a big body is
 * refused as it comes in (503, send it again); bodies up to FREE_BODY_BYTES always pass.
 */
export class BodyBudget {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` more, or nothing and false when that would pass the limit. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }
}

/** A body read and parsed, or why not, with the HTTP status and JSON-RPC code of the refusal. */
export type BodyRead = { ok: true; value: unknown; bytes: number } | { ok: false; status: number; code: number; message: string; retry?: boolean };

/**
 * Reads and parses one request body of at most `max` bytes. A body past FREE_BODY_BYTES counts
 * against `budget` until `res` closes (an answer streamed for a slow call keeps it); one that
 * would pass the budget is refused as it comes in, with nothing kept.
 */
export async function readBody(req: IncomingMessage, res: ServerResponse, max: number, budget: BodyBudget): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  let charged = 0;
  const release = () => {
    budget.give(charged);
    charged = 0;
  };
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      release();
      return { ok: false, status: 413, code: ErrorCode.InvalidRequest, message: `Request body larger than ${max} bytes` };
    }
    if (size > FREE_BODY_BYTES) {
      if (!budget.take(size - charged)) {
        release();
        return { ok: false, status: 503, code: ErrorCode.Refused, message: `Busy: the gateway holds ${megabytes(budget.limit)} of large request bodies already; send the request again shortly`, retry: true };
      }
      if (charged === 0) res.once('close', release);
      charged = size;
    }
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    const deep = tooLargeRequest(value);
    if (deep === undefined) return { ok: true, value, bytes: size };
    release();
    return { ok: false, status: 400, code: ErrorCode.InvalidRequest, message: deep };
  } catch {
    release();
    return { ok: false, status: 400, code: ErrorCode.ParseError, message: 'Parse error: invalid JSON' };
  }
}
