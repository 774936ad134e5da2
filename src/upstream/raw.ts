import type { JSONRPCMessage, Notification, Transport } from '@modelcontextprotocol/client';
import { errorEnvelope, ErrorCode, isNotification, isRequest, isResponse, isUpstreamId, tooDeep, UPSTREAM_ID_PREFIX } from '../protocol/jsonrpc.js';
import { jsonOver, MAX_MESSAGE_DEPTH, megabytes, sliceWhole } from '../util/bounds.js';
import { isObject } from '../util/json.js';
import { MAX_LINE_BYTES } from '../protocol/lines.js';
import { RateLimit } from '../util/rate-limit.js';
import { mayHoldSecret, outsideText, redactValue } from '../util/redact.js';
import type { CallHandle, CallTable, Pending } from './calls.js';
import { UpstreamError } from './error.js';
import { StdioUpstreamTransport } from './stdio-transport.js';

// The raw byte contract, upstream side, in one place. A relayed request goes out on our own id
// (`lt-N`) with the caller's progress token swapped for that id. Its answer is taken off the
// transport before the SDK sees it: a successful result line over stdio is checked once and handed
// on unparsed, minus its closing `,"id":…}` (the front splices its client's id in with
// `withClientId`); anything else is parsed, redacted and settled. Progress on our ids goes to the
// caller; a line that cannot be read fails the call it quotes.

/**
 * The tail of a successful response on one of our ids, as the SDK writes it:
 * `{"result":…,"jsonrpc":"2.0","id":"lt-N"}`. Unescaped, this text can only be the envelope's own:
 * inside a string value its quotes would be escaped.
 */
const RAW_TAIL = `,"jsonrpc":"2.0","id":"${UPSTREAM_ID_PREFIX}`;
const KEPT_TAIL = ',"jsonrpc":"2.0"'.length;
/** The head of such a response: its result's value follows. */
const RAW_HEAD = '{"result":';
/** What parsedOrThrew returns for text that is not JSON. */
const THREW = Symbol('not JSON');

/** `text` parsed, or THREW (a distinct value: any JSON value, null too, is a parse's result). */
function parsedOrThrew(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return THREW;
  }
}

/** The front half of the contract: a raw prefix (see RawDone) with the client's own id closing it. */
export function withClientId(prefix: string, id: string | number): string {
  return `${prefix},"id":${JSON.stringify(id)}}`;
}

/** What the raw side reports to its upstream. */
export interface RawHandlers {
  /** A successful answer arrived (the upstream is healthy: backoff resets). */
  answered(): void;
  /** A log message or resource update, passed on synchronously; false leaves it to the SDK client. */
  notification(notification: Notification): boolean;
  warn(message: string): void;
  /**
   * True when a message the upstream sent unasked (a notification, a request, an answer to no
   * request of ours) is left out before any further work (the flood gate, flood.ts).
   */
  gated(method: string): boolean;
}

/**
 * Largest notification of an upstream passed on (a log line, progress, resources/updated, a list
 * change), as JSON of its params. A log line with no call in flight goes to every session: one of
 * 11 MiB went past the 10 MiB an SDK stdio client reads in one message, and each such client
 * closed its connection to the gateway, every server's tools with it.
 */
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/**
 * Takes our relayed responses and progress off the transport before the SDK sees them; every
 * message is redacted here, the one way in from an upstream.
 */
export function attachRaw(server: string, transport: Transport, calls: CallTable, handlers: RawHandlers): void {
  const failFor = (text: string, message: string, onlyPending = false) => {
    if (!calls.failFor(text, message, onlyPending)) handlers.warn(message);
  };
  if (transport instanceof StdioUpstreamTransport) {
    transport.onLine = (line) => rawLine(server, line, calls, handlers);
    // A line naming no call is a log line: the transport reports those (once).
    transport.onUnreadable = (line, problem) => calls.failFor(line, `upstream "${server}" sent a line that is not a JSON-RPC message (${problem})`);
    transport.onOversize = (size, head, tail, tooMany) =>
      failFor(`${head}\n${tail}`, tooMany ? `upstream "${server}" sent a message of ${tooMany}, more than lazytools reads of one` : `upstream "${server}" sent a result of ${megabytes(size)}, over the ${megabytes(MAX_LINE_BYTES)} limit`, true);
    const dropped = new RateLimit(0, 1_000, (count) => handlers.warn(`upstream "${server}" does not read its input: ${count} answers to its requests dropped`));
    transport.onAnswerDropped = () => dropped.allow();
  }
  const asked = sdkAsked(transport);
  // A message the transport could not read (an SSE event that is no JSON) is unasked too: a
  // server pouring them held /healthz for 15 s, each one parsed, logged and never gated.
  const sdkError = transport.onerror;
  transport.onerror = (error) => {
    if (!handlers.gated('error')) sdkError?.(error);
  };
  const sdkMessage = transport.onmessage;
  transport.onmessage = (incoming, extra) => {
    const unasked = unaskedMethod(incoming, calls, asked);
    if (unasked !== undefined && handlers.gated(unasked)) return;
    // What is passed on is serialized again; answers to the SDK's own requests (lists, on numeric
    // ids) are not, and the lists' too-deep entries are left out one by one (catalog/admit.ts).
    if (!sdkAnswer(incoming) && tooDeep(incoming) !== undefined) return refuseDeep(server, incoming, calls, handlers, transport);
    if (isNotification(incoming) && jsonOver(incoming.params, MAX_NOTIFICATION_BYTES))
      return handlers.warn(`upstream "${server}" sent a ${sliceWhole(incoming.method, 80)} over ${megabytes(MAX_NOTIFICATION_BYTES)}: dropped`);
    // The one way in from an upstream: values the rc passed to it (${VAR}) are written back here.
    const message = redactValue(incoming, server);
    const mixed = message as { id?: unknown; method?: unknown };
    if (typeof mixed.id === 'string' && calls.has(mixed.id) && mixed.method !== undefined && ('result' in message || 'error' in message)) {
      calls.settle(mixed.id, new UpstreamError(server, `upstream "${server}" answered with a message that is both a request and a response`));
      return;
    }
    // No JSON-RPC message at all: the SDK client would drop it, and the call wait for its timeout.
    if (typeof mixed.id === 'string' && calls.has(mixed.id) && mixed.method === undefined && !('result' in message || 'error' in message)) {
      calls.settle(mixed.id, new UpstreamError(server, `upstream "${server}" answered with neither a result nor an error`));
      return;
    }
    if (isResponse(message) && typeof message.id === 'string') {
      if (calls.has(message.id)) {
        if (message.error) {
          const error: unknown = message.error;
          const text = isObject(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
          // Passed on verbatim only when it is a JSON-RPC error (an integer code): a client's SDK
          // refuses any other, and the request then waits for the client's own timeout.
          const rpcError = isObject(error) && Number.isInteger(error.code) ? { ...(error as { code: number }), message: outsideText(text) } : undefined;
          calls.settle(message.id, new UpstreamError(server, `upstream "${server}" answered with an error: ${outsideText(text)}`, rpcError));
        } else if (!isObject(message.result)) {
          calls.settle(message.id, new UpstreamError(server, `upstream "${server}" answered with a result that is not an object`));
        } else {
          handlers.answered();
          calls.settle(message.id, undefined, message.result);
        }
        return;
      }
    } else if (isNotification(message) && (message.method === 'notifications/message' || message.method === 'notifications/resources/updated')) {
      // Passed on synchronously, so a log line sent during a relayed call reaches the client
      // before the call's (raw, immediate) answer.
      if (handlers.notification(message as Notification)) return;
    } else if (isNotification(message) && message.method === 'notifications/progress') {
      const token = message.params?.progressToken;
      const pending = typeof token === 'string' ? calls.get(token) : undefined;
      if (pending) {
        pending.onProgress?.(message.params ?? {});
        return;
      }
    }
    sdkMessage?.(message, extra);
  };
}

/** An answer to a request of the SDK client's own (numeric ids; ours are `lt-N`). */
function sdkAnswer(message: JSONRPCMessage): boolean {
  return isResponse(message) && typeof message.id === 'number';
}

/**
 * A message nested too deep to pass on (protocol/jsonrpc tooDeep): an answer to one of our calls
 * fails it, a request is answered with an error, anything else is dropped with a warning.
 */
function refuseDeep(server: string, message: JSONRPCMessage, calls: CallTable, handlers: RawHandlers, transport: Transport): void {
  const problem = `upstream "${server}" sent a message nested more than ${MAX_MESSAGE_DEPTH} levels deep`;
  const id = (message as { id?: unknown }).id;
  if (isResponse(message) && typeof id === 'string' && calls.has(id)) calls.settle(id, new UpstreamError(server, problem));
  else if (isRequest(message)) void transport.send(errorEnvelope(message.id, ErrorCode.InvalidRequest, problem)).catch(() => {});
  else handlers.warn(`${problem}: dropped`);
}

/**
 * The method to judge a message by when the upstream sent it unasked, else undefined: a
 * notification's or a request's own, `response` for an answer on a string id that is not one of
 * our calls in flight, or on a numeric id the SDK client is not awaiting (`asked`, sdkAsked).
 */
function unaskedMethod(message: JSONRPCMessage, calls: CallTable, asked: Set<number>): string | undefined {
  if (isNotification(message) || isRequest(message)) return message.method;
  const id = (message as { id?: unknown }).id;
  if (typeof id === 'number') return asked.delete(id) ? undefined : 'response';
  return typeof id === 'string' && !calls.has(id) ? 'response' : undefined;
}

/** The SDK client's own requests (lists, pings) awaiting an answer that sdkAsked keeps track of; the oldest are forgotten past it. */
const MAX_SDK_ASKED = 1_024;

/**
 * The numeric ids of the SDK client's requests on `transport` not yet answered (kept up to date
 * as it sends): an answer on any other numeric id is unasked, judged by the flood gate like a
 * stray answer on a string id. Such answers went straight to the SDK, which logs each one: a
 * server pouring them held every client's calls ~50x longer, with the gate never told.
 */
function sdkAsked(transport: Transport): Set<number> {
  const asked = new Set<number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (isRequest(message) && typeof message.id === 'number') {
      if (asked.size >= MAX_SDK_ASKED) asked.delete(asked.values().next().value as number);
      asked.add(message.id);
    }
    return send(message, options);
  };
  return asked;
}

/**
 * Relays a request on the raw path: sent, tracked in the call table, cancellable (telling the
 * upstream). Over stdio the line is written first and tracked right after, in the same turn: its
 * answer can only be read on a later one, and the table's bookkeeping stays off the path between
 * reading a request and writing it on. A failure to write settles the call.
 */
export function relayRaw(
  server: string,
  transport: Transport,
  calls: CallTable,
  id: string,
  request: { method: string; params: Record<string, unknown>; timeoutMs: number },
  entry: Pick<Pending, 'raw' | 'done' | 'onProgress' | 'origin'>,
): CallHandle {
  const message = requestLine(id, request.method, request.params, entry.onProgress !== undefined);
  if (transport instanceof StdioUpstreamTransport) {
    const problem = transport.sendNow(message);
    calls.add(id, request.method, request.params, request.timeoutMs, entry);
    if (problem !== undefined) unreachable(server, calls, id, problem);
  } else {
    // A call that fails (timed out, cancelled, the upstream gone) ends its POST too, after the
    // cancel the upstream is told of: the SDK leaves a 2025 request open, so a server that never
    // answered kept one request (its socket, its stream) per timed-out call for as long as the
    // gateway ran. An answer, an error answer included, has ended it already.
    const post = new AbortController();
    const done = entry.done;
    calls.add(id, request.method, request.params, request.timeoutMs, {
      raw: entry.raw,
      onProgress: entry.onProgress,
      origin: entry.origin,
      done: (error, result) => {
        done(error, result);
        if (error) queueMicrotask(() => post.abort());
      },
    });
    // Streamable HTTP: the POST's answer stream ended (closed, dropped, resumption given up) and
    // no valid answer came on it. Nothing else will come: the call fails now, not at its timeout.
    const ended = () => {
      if (calls.has(id)) calls.settle(id, new UpstreamError(server, `upstream "${server}" ended its answer stream without a valid answer`));
    };
    transport.send(message, { onRequestStreamEnd: ended, requestSignal: post.signal }).catch((error: unknown) => {
      // A body the transport could not read as JSON-RPC (its JSON or its schema check threw) was
      // reached, and so was one over the bound (bounded-fetch: it says so itself).
      const name = (error as Error | undefined)?.name;
      if (name === 'SyntaxError' || name === 'ZodError') calls.settle(id, new UpstreamError(server, `upstream "${server}" answered with a message that is not JSON-RPC`));
      else if (name === 'AnswerTooLarge') calls.settle(id, new UpstreamError(server, (error as Error).message));
      else unreachable(server, calls, id, (error as Error).message);
    });
  }
  return {
    cancel: (reason) => {
      if (!calls.has(id)) return;
      calls.settle(id, new UpstreamError(server, 'cancelled'));
      sendCancel(transport, id, reason);
    },
  };
}

/** Fails call `id`: its request could not be written to the upstream (a function, not a closure made per relayed call). */
function unreachable(server: string, calls: CallTable, id: string, problem: string): void {
  calls.settle(id, new UpstreamError(server, `could not reach upstream "${server}": ${outsideText(problem)}`));
}

/**
 * A request on our id `id`: the caller's progress token is replaced by our id when it wants
 * progress, dropped otherwise.
 */
function requestLine(id: string, method: string, params: Record<string, unknown>, progress: boolean): JSONRPCMessage {
  const meta = (params._meta ?? undefined) as Record<string, unknown> | undefined;
  let outgoing: Record<string, unknown> = params;
  if (progress) outgoing = { ...params, _meta: { ...meta, progressToken: id } };
  else if (meta && 'progressToken' in meta) {
    const { progressToken: _dropped, ...rest } = meta;
    outgoing = { ...params, _meta: rest };
  }
  return { jsonrpc: '2.0', id, method, params: outgoing } as JSONRPCMessage;
}

/** Tells the upstream a request of ours is no longer wanted (cancel or timeout). */
export function sendCancel(transport: Transport | undefined, id: string, reason: string): void {
  void transport?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(() => {});
}

/**
 * Passes a successful result line through to a caller that can write raw lines: parsed once to
 * check it is one well-formed response with an object result (never re-serialized), so a
 * broken or mixed line cannot reach the client under the client's id. Its result's value is
 * parsed alone when it can be; a line it cannot be read from is parsed whole, as before. A call
 * that takes the parsed result (a 2026-07-28 request's, execute_tool's) is settled with it here
 * too: the line holds no secret (checked on the text, as for a raw line), so the parsed path's
 * redaction, which serialized the whole message again to look for one, would change nothing; a
 * result nested too deep still takes that path, which refuses it.
 */
function rawLine(server: string, line: string, calls: CallTable, handlers: RawHandlers): boolean {
  // A line that repeats a secret (escaped or not) takes the parsed path, where it is redacted (onmessage).
  if (!line.endsWith('"}') || !line.startsWith(RAW_HEAD) || mayHoldSecret(line, server)) return false;
  const at = line.lastIndexOf(RAW_TAIL);
  if (at < 0) return false;
  const idStart = at + RAW_TAIL.length - UPSTREAM_ID_PREFIX.length;
  const id = line.slice(idStart, line.length - 2);
  if (!isUpstreamId(id)) return false;
  const pending = calls.get(id);
  if (!pending) return false;
  // The line is RAW_HEAD, a value, and the tail read above (its id has no quote or escape): when
  // that value alone parses, the line is one well-formed response with our id and nothing else,
  // and the envelope need not be built too (JSON.parse's object building is most of its cost on a
  // small answer). A value that does not parse alone takes the whole-line check.
  let result: Record<string, unknown>;
  const inner = parsedOrThrew(line.slice(RAW_HEAD.length, at));
  if (inner !== THREW) {
    if (!isObject(inner)) return false;
    result = inner;
  } else {
    const value = parsedOrThrew(line);
    if (value === THREW) {
      // A call that takes the parsed result hears the parsed path's verdict, as before.
      if (!pending.raw) return false;
      calls.settle(id, new UpstreamError(server, `upstream "${server}" sent a line that is not a JSON-RPC message (invalid JSON)`));
      return true;
    }
    const message = value as { id?: unknown; result?: unknown };
    if (message.id !== id || !isObject(message.result) || Object.keys(value as object).length !== 3) return false;
    result = message.result;
  }
  if (!pending.raw) {
    if (tooDeep({ result, jsonrpc: '2.0', id }, line.length) !== undefined) return false;
    handlers.answered();
    calls.settle(id, undefined, result);
    return true;
  }
  // The line goes on first; the table's bookkeeping (metrics, backoff) follows, off the path
  // between reading the answer and writing it.
  pending.raw(line.slice(0, at + KEPT_TAIL));
  calls.take(id, result.isError === true);
  handlers.answered();
  return true;
}
