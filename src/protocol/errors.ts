import { MissingRequiredClientCapabilityError, ProtocolError, type CallToolResult, type Server } from '@modelcontextprotocol/server';
import { capText, clipText } from '../util/bounds.js';
import { echoName } from '../util/errors.js';
import { redact } from '../util/redact.js';
import { ErrorCode, type RequestId } from './jsonrpc.js';

/*
 * Every failure lazytools answers, built here and nowhere else: a named factory per failure, so
 * the same failure reads the same in both eras and on every path (the SDK handlers, the raw
 * relay, the 2026-07-28 rounds). Names a client gave are echoed through `echoName` (cut at 200
 * characters; group names at 80, their wire names having at most 64), the one echo cut. Two kinds:
 * - protocol errors, thrown from a request handler: the SDK's `ProtocolError` (its Protocol sends
 *   code, message and data unprefixed), one code per failure (protocol/jsonrpc.ts ErrorCode);
 * - tool errors, `isError` results a model reads and acts on (`toolError`), never a protocol
 *   failure, redacted like every text lazytools writes.
 * A message refused before any handler sees it (a malformed line, a body or event past its bound,
 * a duplicate id, a listen stream past its share) is answered with a plain JSON-RPC envelope
 * (protocol/jsonrpc.ts `errorEnvelope`) where it is refused.
 */

/** Characters of a group name an unknown-group answer repeats (wire names have at most 64). */
const GROUP_ECHO_MAX = 80;

function protocolError(code: number, message: string, data?: unknown): ProtocolError {
  return ProtocolError.fromError(code, message, data);
}

/** An upstream's error as the client receives it: the upstream's own JSON-RPC error, verbatim. */
export interface RelayedError {
  readonly message: string;
  /** The upstream's own JSON-RPC error, when it answered with one. */
  readonly rpcError?: { code: number; message: string; data?: unknown } | undefined;
}

/**
 * A request an upstream failed, thrown to the client: its own error verbatim, else an internal
 * error; a protocol error lazytools raised on the way (an unknown resource) stays what it is.
 */
export function upstreamFailure(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const relayed = error as Partial<RelayedError> | undefined;
  if (relayed?.rpcError) return protocolError(relayed.rpcError.code, relayed.rpcError.message, relayed.rpcError.data);
  return protocolError(ErrorCode.InternalError, (error as Error).message);
}

/** The same failure as an error member of a relayed answer (the raw path writes it itself). */
export function relayedError(error: RelayedError): { error: { code: number; message: string; data?: unknown } } {
  return { error: error.rpcError ?? { code: ErrorCode.InternalError, message: error.message } };
}

/** A prompt name no server offers (2025 and 2026-07-28 alike). */
export function unknownPrompt(name: unknown): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `Unknown prompt "${echoName(String(name))}"`);
}

/**
 * A resource no one serves, the same in both eras: Invalid Params with `data: { uri }`, what the
 * 2026-07-28 spec requires and the SDK emits on every revision (see ErrorCode). `hint` says where
 * to look instead (lazytools' own resources name their index).
 */
export function resourceNotFound(uri: string, hint?: string): ProtocolError {
  const message = hint === undefined ? `Resource not found: no server lists "${echoName(uri)}" or a template that matches it` : `Unknown resource "${echoName(uri)}". ${hint}`;
  // The client's URI, echoed bounded: a 2 MB one came back whole (in `message` too, before it was cut there).
  return protocolError(ErrorCode.InvalidParams, message, { uri: capText(uri, MAX_URI_ECHO, 'URI') });
}

/** Characters of a requested URI an error gives back in `data.uri` (URIs beyond it are not real addresses). */
export const MAX_URI_ECHO = 2_048;

/** A completion reference no server offers completions for. */
export function noCompletionSource(ref: unknown): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `No server offers completions for ${clipText(JSON.stringify(ref) ?? String(ref), 200)}`);
}

/**
 * An unknown group (`groups/get`, groups draft): -32002 in both eras, the name echoed bounded.
 * The SDK rewrites -32002 to -32602 on the way out, so the answer to `request` gets the draft's
 * code back at its server's transport (keepCode).
 */
export function unknownGroup(name: string, request?: { server: Server; id: RequestId; signal: AbortSignal }): ProtocolError {
  if (request) keepCode(request.server, request.id, request.signal, ErrorCode.GroupNotFound);
  // Cut at a whole character (clipText): half an emoji is no character.
  const shown = clipText(name, GROUP_ECHO_MAX + 1);
  return protocolError(ErrorCode.GroupNotFound, `Unknown group ${JSON.stringify(shown)}: groups/list names the groups (a group's own groups/get names its children).`, { name: shown });
}

/** Request ids whose error must leave with a code of lazytools' choosing, per transport. */
const keptCodes = new WeakMap<object, Map<RequestId, number>>();

/**
 * Gives the error answer to one request `code` at the transport, where the SDK cannot rewrite it
 * (it turns -32002 into -32602 in both eras, 2026-07-28 having moved `resources/read`'s not-found
 * there); every other message passes untouched. A cancelled request gets no answer: its id is
 * dropped, since a later request may reuse it.
 */
function keepCode(server: Server, id: RequestId, signal: AbortSignal, code: number): void {
  const transport = server.transport;
  if (!transport || signal.aborted) return;
  let ids = keptCodes.get(transport);
  if (!ids) {
    const pending = (ids = new Map());
    keptCodes.set(transport, pending);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const error = (message as { id?: RequestId; error?: { code: number } }).error;
      const answered = (message as { id?: RequestId }).id;
      const kept = error && answered !== undefined ? pending.get(answered) : undefined;
      if (kept === undefined || !error || answered === undefined) return send(message, options);
      pending.delete(answered);
      return send({ ...message, error: { ...error, code: kept } } as never, options);
    };
  }
  ids.set(id, code);
  const pending = ids;
  signal.addEventListener('abort', () => pending.delete(id), { once: true });
}

/** A method this server does not serve to this client (an extension it did not declare). */
export function methodNotFound(): ProtocolError {
  return protocolError(ErrorCode.MethodNotFound, 'Method not found');
}

/** A list cursor this server did not hand out, or one from before the list changed. */
export function invalidCursor(reason: string): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `Invalid cursor: ${reason}. List again from the start (without a cursor).`);
}

/** A 2026-07-28 request whose mode may not be served (endpoint, token, variant; resolved by focus/scope.ts). */
export function modeRefused(refusal: string): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, refusal);
}

/**
 * A 2026-07-28 request lacks a client capability an upstream's question needs (-32021, with the
 * capability in `data.requiredCapabilities`): the request's answer, and the upstream's answer too.
 */
export function missingClientCapability(capability: string, detail?: { method: string; server: string }): ProtocolError {
  const message = detail && `lazytools: "${detail.server}" needs the client capability ${capability} (${detail.method}), which this request did not declare`;
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { [capability]: {} } }, message);
}

/** A session past its share of resource subscriptions. */
export function tooManySubscriptions(max: number): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `Too many subscriptions: a session may hold ${max}; unsubscribe from some first`);
}

/** A retry whose requestState names no open input round of this caller. */
export function invalidRequestState(): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
}

/** A retry of another request than the one its input round answers. */
export function requestStateMismatch(continues: string, retried: string): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `Invalid requestState: it continues ${continues}, not ${retried}; retry with the same request`);
}

/** An input round's question the client's retry left unanswered (the upstream hears it). */
export function unansweredInput(key: string, method: string): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `the client gave no answer for ${key} (${method})`);
}

/** An upstream's question (sampling, elicitation, roots) that several clients could have caused. */
export function ambiguousClientRequest(method: string, server: string, among: 'clients' | 'client sessions'): ProtocolError {
  return protocolError(ErrorCode.InternalError, `lazytools: ${method} from "${server}" is ambiguous: requests of several ${among} are in flight on this server`);
}

/** An upstream's question with no client session to go to. */
export function noClientSession(method: string, server: string): ProtocolError {
  return protocolError(ErrorCode.InternalError, `lazytools: ${method} from "${server}" has no client session to go to (no request of a session reached this server yet)`);
}

/** An upstream's question the causing session's client did not declare it can answer. */
export function clientLacksCapability(capability: string, method: string, server: string): ProtocolError {
  return protocolError(ErrorCode.MethodNotFound, `lazytools: the client of this session does not support ${capability} (${method} from "${server}")`);
}

/** An upstream's question outside any request that can carry it to a client. */
export function noAskingRequest(method: string, server: string): ProtocolError {
  return protocolError(ErrorCode.InternalError, `lazytools: ${method} from "${server}" came outside a request that can ask its client`);
}

/** An upstream's question past its share of unanswered ones (a flood of requests to clients). */
export function tooManyAsking(method: string, max: number): ProtocolError {
  return protocolError(ErrorCode.InternalError, `lazytools refused ${method}: ${max} requests of this server to its client are unanswered`);
}

/** An upstream's question too large to hold and pass on (upstream/client.ts MAX_ASK_BYTES). */
export function tooLargeAsking(method: string, max: number): ProtocolError {
  return protocolError(ErrorCode.InvalidParams, `lazytools refused ${method}: its params are over ${max} bytes of JSON, more than a client is sent in one request`);
}

/** An upstream's question to a client (or a token's clients) already holding its share of the unanswered ones. */
export function tooManyAskingOne(method: string, max: number): ProtocolError {
  return protocolError(ErrorCode.InternalError, `lazytools refused ${method}: ${max} requests of this server to this client are unanswered`);
}

/** An upstream's request lazytools has no route for. */
export function cannotAnswer(method: string): ProtocolError {
  return protocolError(ErrorCode.MethodNotFound, `lazytools cannot answer ${method}`);
}

/** A tool error the model can read and act on: an `isError` result, never a protocol failure. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: redact(message) }], isError: true };
}

/** A tool name no server offers (to this caller); `hint` is the "did you mean" part. */
export function unknownTool(name: string, hint: string): CallToolResult {
  return toolError(`Unknown tool "${echoName(name)}".${hint} Use search_tools to find tools.`);
}

/** A call of a tool that failed on its way (the upstream went away, timed out, could not start). */
export function toolFailed(name: string, error: { message: string }): CallToolResult {
  return toolError(`Tool "${name}" failed: ${error.message}`);
}

/** A call lazytools itself could not handle (never expected; the model reads why). */
export function notHandled(name: string, error: { message: string }): CallToolResult {
  return toolError(`lazytools could not handle "${echoName(name)}": ${error.message}`);
}
