import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, tooLargeRequest } from '../protocol/jsonrpc.js';
import { megabytes } from '../util/bounds.js';
import type { Logger } from '../util/log.js';
import { counted } from '../util/plural.js';
import { RateLimit, WARNINGS_PER_SECOND } from '../util/rate-limit.js';

/**
 * Request bodies of the HTTP front: read whole, bounded one by one (`--max-body`) and all
 * together (BodyBudget), then parsed and checked for depth and size (protocol/jsonrpc.ts).
 */

/** Bodies up to this size never count against the budget: every request of a usual client, so one client's big bodies cannot keep out another's small ones. */
const FREE_BODY_BYTES = 64 * 1024;
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
export function readBody(req: IncomingMessage, res: ServerResponse, max: number, budget: BodyBudget): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  // A body whose declared length passes neither bound can be refused by neither (Node's parser
  // ends it at that length): the usual request, read without the refusal checks.
  if (req.headers['transfer-encoding'] === undefined && Number.isInteger(declared) && declared >= 0 && declared <= Math.min(max, FREE_BODY_BYTES)) return readSmallBody(req);
  return readAnyBody(req, res, max, budget);
}

/**
 * readBody for a body of known small length, with `data` events rather than `for await`: the
 * async iterator (a generator, a promise per read) cost about as much as the rest of the read.
 * As that loop did, a stream error, or a close before the end, rejects.
 */
function readSmallBody(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(parsedBody(chunks, size, () => {}));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    // Gone before its body was read (its client left while the request waited): nothing will come.
    if (req.destroyed) return onClose();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** readBody for any body: bounded as it comes in (see readBody). */
async function readAnyBody(req: IncomingMessage, res: ServerResponse, max: number, budget: BodyBudget): Promise<BodyRead> {
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
  return parsedBody(chunks, size, release);
}

/** A body read whole, parsed and checked for depth and size; `release` gives back its budget when it is refused. */
function parsedBody(chunks: Buffer[], size: number, release: () => void): BodyRead {
  try {
    const value: unknown = JSON.parse((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString('utf8'));
    const deep = tooLargeRequest(value);
    if (deep === undefined) return { ok: true, value, bytes: size };
    release();
    return { ok: false, status: 400, code: ErrorCode.InvalidRequest, message: deep };
  } catch {
    release();
    return { ok: false, status: 400, code: ErrorCode.ParseError, message: 'Parse error: invalid JSON' };
  }
}

/** Node's words for a request whose client left before its body arrived. */
const CLIENT_LEFT = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * What the front logs of a request it could not serve. A client that left before its body
 * arrived (an upload cut off, a dropped connection) is no fault of the gateway: it was an error
 * line each, so a client opening and dropping requests wrote lines as fast as it sent them. Those
 * are counted, one info line a second at most; other failures are errors, WARNINGS_PER_SECOND
 * lines a second, then counted too.
 */
export function requestFailureLog(logger: Logger): (req: IncomingMessage, error: unknown) => void {
  const left = new RateLimit(0, 1_000, (count) => logger.info(`HTTP: ${counted(count, 'request')} ended by ${count === 1 ? 'its client' : 'their clients'} before the body arrived`));
  const failed = new RateLimit(WARNINGS_PER_SECOND, 1_000, (count) => logger.error(`HTTP: ${count} more failed requests left out (over ${WARNINGS_PER_SECOND} a second)`));
  return (req, error) => {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (!req.complete && (req.destroyed || (code !== undefined && CLIENT_LEFT.has(code)))) return void left.allow();
    if (failed.allow()) logger.error(`HTTP ${req.method} ${req.url}: ${(error as Error).message}`);
  };
}
