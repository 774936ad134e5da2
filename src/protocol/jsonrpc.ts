import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { MAX_MESSAGE_DEPTH, nestedDeeperThan, valueTooBig } from '../util/bounds.js';
import { isObject } from '../util/json.js';

/**
 * JSON-RPC as lazytools reads and writes it outside an SDK server: loose shapes for the hot path
 * (payloads are relayed without parsing them into SDK types, so these guards look at the envelope
 * only), the table of error codes, and the error envelope for answers written by hand. Loaded
 * without the SDK's server package (types only), so the stdio line reader stays light for a
 * gateway that answers its opening from start answers (transports/start-answers.ts).
 */
export type RequestId = string | number;

export interface RawRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface RawNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface RawResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * lazytools' own request ids toward an upstream are `lt-N`: strings, so one never equals a number
 * id the SDK client chose, and an answer on one is an answer to us (upstream/calls.ts mints them,
 * upstream/raw.ts reads them off answers it relays unparsed).
 */
export const UPSTREAM_ID_PREFIX = 'lt-';
const UPSTREAM_ID = new RegExp(`^${UPSTREAM_ID_PREFIX}\\d+$`);
/** One of our ids quoted as a line's `"id"` (the capture is the id), for finding whose call a broken line was. */
export const QUOTED_UPSTREAM_ID = new RegExp(`"id"\\s*:\\s*"(${UPSTREAM_ID_PREFIX}\\d+)"`, 'g');

/** True for an id of ours (`lt-N`). */
export function isUpstreamId(id: string): boolean {
  return UPSTREAM_ID.test(id);
}

/** One message's JSON as an SSE event, framed as the SDK frames it on a Streamable HTTP stream. */
export function sseMessage(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

/** What sseMessage adds around a message's JSON (23 bytes). */
export const SSE_FRAME_BYTES = sseMessage('').length;

/** True for a JSON-RPC request: any JSON value may arrive (`null` too), so nothing is read off a non-object. */
export function isRequest(message: unknown): message is RawRequest {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as RawRequest;
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');
}

export function isNotification(message: unknown): message is RawNotification {
  const m = message as RawNotification & { id?: unknown };
  return typeof m.method === 'string' && m.id === undefined;
}

export function isResponse(message: unknown): message is RawResponse {
  const m = message as RawResponse & { method?: unknown };
  return m.method === undefined && (typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m);
}

/** A JSON-RPC envelope check: an object with `jsonrpc: "2.0"`. */
export function isEnvelope(value: unknown): value is JSONRPCMessage {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/**
 * Every JSON-RPC error code lazytools answers with, in one table: the JSON-RPC codes are the
 * SDK's own (`ProtocolErrorCode`; a unit test holds them equal), written as numbers here so this
 * module does not load the SDK's server package. The rest say which failure they name. The
 * factories of protocol/errors.ts pick among them; no other module writes a code as a number.
 *
 * One code per failure in both eras. Where the specs of the eras differ, the SDK's choice is
 * taken and written here:
 * - Resource not found: 2025-11-25 says -32002, 2026-07-28 says -32602 (Invalid Params) with
 *   `data.uri`. The SDK emits -32602 with `{ uri }` on every revision (it rewrites a thrown
 *   -32002), and clients accept either, so both eras answer `InvalidParams` with `{ uri }`.
 * - Unknown group (`io.modelcontextprotocol/groups` draft): -32002 in both eras, as the draft
 *   says (handlers/groups keeps the SDK from rewriting it).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A 2026-07-28 request lacks a client capability the answer needs (an upstream asked for it). */
  MissingClientCapability: -32021,
  /**
   * The HTTP front refused the request before any MCP server saw it (shutdown, Host/Origin,
   * token, route, session or stream caps): the implementation-defined server error the SDK's
   * transports answer such refusals with too. The HTTP status says which.
   */
  Refused: -32000,
  /** A `Mcp-Session-Id` the 2025 HTTP front does not hold (expired, closed, other path or token). */
  SessionNotFound: -32001,
  /** An unknown group (`groups/get`, groups draft), in both eras. */
  GroupNotFound: -32002,
} as const;

/** The id an answer to this message carries: its own when it is a valid id, else null. */
export function answerId(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A request id as JSON-RPC allows it: a string or a finite number. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Longest progress token (in characters) lazytools reports progress on. Every progress
 * notification repeats the token: a client's 1 MB token on a tool reporting progress 3,000
 * times made 579 MB of output from one request, seconds of the gateway's time (another client's
 * call waited 6.4 s). Real tokens are numbers or short strings.
 */
export const MAX_PROGRESS_TOKEN_CHARS = 1_024;

/** The request's progress token when progress can be reported on it, else undefined (none, or over MAX_PROGRESS_TOKEN_CHARS). */
export function usableProgressToken(token: unknown): RequestId | undefined {
  if (typeof token === 'number') return token;
  return typeof token === 'string' && token.length <= MAX_PROGRESS_TOKEN_CHARS ? token : undefined;
}

/** The id of the one JSON-RPC request a POST body carries (undefined for batches, notifications, responses). */
export function requestIdOf(body: unknown): RequestId | undefined {
  if (typeof body !== 'string' || !body.startsWith('{')) return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && isRequestId(message.id) ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** The members of a JSON-RPC request the SDK's (strict) request schema takes. */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

const isIntegerOrString = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * Why a client's message that carries an id is one the SDK's schemas refuse without a word (it
 * answers nothing, so its sender waits for ever): a request whose `params` or `params._meta` is
 * not an object, whose progress token or id is neither a string nor an integer, whose method is
 * not a string or that has members a request lacks; or an id with neither a method, a result nor
 * an error. Undefined for everything else (a message without an id cannot be answered).
 */
export function unanswerable(message: Record<string, unknown>): string | undefined {
  if (answerId(message) === null) return undefined;
  if (!('method' in message)) return 'result' in message || 'error' in message ? undefined : 'a message with an id needs a method (a request), or a result or an error (a response)';
  if (typeof message.method !== 'string') return 'method must be a string';
  if (!isIntegerOrString(message.id)) return 'id must be a string or an integer';
  for (const key in message) if (!REQUEST_MEMBERS.has(key)) return `a request has no member ${JSON.stringify(key.slice(0, 64))}`;
  const params = message.params;
  if (params === undefined) return undefined;
  if (!isObject(params)) return 'params must be an object';
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isObject(meta)) return 'params._meta must be an object';
  const token = meta.progressToken;
  return token === undefined || isIntegerOrString(token) ? undefined : 'params._meta.progressToken must be a string or an integer';
}

/** A JSON-RPC error response, for answers written outside an SDK server (id null when unknown). */
export function errorEnvelope(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

/**
 * Why a message from outside (a client's or an upstream's) is refused for its nesting, or
 * undefined: passed on, it is serialized again, which past MAX_MESSAGE_DEPTH overflows the stack.
 * `textLength`, the length of the JSON text it was parsed from, skips the walk when the text is too
 * short to nest that deep (SHALLOW_TEXT): the usual request, read on every message over stdio.
 */
export function tooDeep(message: unknown, textLength = Number.POSITIVE_INFINITY): string | undefined {
  if (textLength < SHALLOW_TEXT) return undefined;
  return nestedDeeperThan(message, MAX_MESSAGE_DEPTH) ? `Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep` : undefined;
}

/**
 * JSON texts shorter than this cannot nest deeper than MAX_MESSAGE_DEPTH: each level of objects or
 * arrays takes an opening and a closing bracket, so MAX_MESSAGE_DEPTH + 1 levels take twice that.
 */
export const SHALLOW_TEXT = 2 * (MAX_MESSAGE_DEPTH + 1);

/**
 * Most JSON values (objects, arrays, scalars) one HTTP request body may hold. Within the 4 MiB body
 * bound, 1.3 million empty objects held about 36 MB of the gateway for as long as their call ran
 * and blocked its event loop 1-3 s (parsed, walked, serialized again, read for its id): 160 such
 * calls at once took it past 3 GB, towards the heap limit where Node ends the process and every
 * session with it. Arguments a model writes hold hundreds of values; a big text or base64 is one.
 */
export const MAX_REQUEST_VALUES = 200_000;

/**
 * Most JSON values one line of a stdio peer (an upstream's message, a stdio client's) may hold,
 * counted before it is parsed (util/json moreJsonValuesThan). Within the 64 MiB line bound, an
 * upstream's answer of 20 million empty objects took the gateway to 2.8 GB for 2.5 minutes
 * (two at once pass the heap's limit, which ends the process and every session with it); a
 * tools/list of 10,000 generated tools holds about 400,000, a long text or base64 is one value.
 */
export const MAX_MESSAGE_VALUES = 2_000_000;

/** tooDeep for an HTTP request body, which also may hold at most MAX_REQUEST_VALUES values (one walk, stopping there). */
export function tooLargeRequest(message: unknown): string | undefined {
  const problem = valueTooBig(message, MAX_MESSAGE_DEPTH, MAX_REQUEST_VALUES);
  return problem === undefined ? undefined : `Invalid Request: ${problem}`;
}
