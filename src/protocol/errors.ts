import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Every JSON-RPC error code lazytools answers with, in one table: the JSON-RPC codes are the
 * SDK's own (`ProtocolErrorCode`; a unit test holds them equal), written as numbers here so the
 * stdio line reader does not load the SDK's server package: a gateway answering its opening from
 * start answers (front/start-answers.ts) loads it only after. The rest say which failure they
 * name. No other module writes a code as a number.
 *
 * One code per failure in both eras. Where the specs of the eras differ, the SDK's choice is
 * taken and written here:
 * - Resource not found: 2025-11-25 says -32002, 2026-07-28 says -32602 (Invalid Params) with
 *   `data.uri`. The SDK emits -32602 with `{ uri }` on every revision (it rewrites a thrown
 *   -32002), and clients accept either, so both eras answer `InvalidParams` with `{ uri }`:
 *   {@link resourceNotFound}.
 * - Unknown group (`io.modelcontextprotocol/groups` draft): -32002 in both eras, as the draft
 *   says (front/groups-ext keeps the SDK from rewriting it).
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

/** A JSON-RPC error the SDK's Protocol sends as is: code, message and data unprefixed. */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/**
 * A resource no one serves, the same in both eras: Invalid Params with `data: { uri }`, what the
 * 2026-07-28 spec requires and the SDK emits on every revision (see {@link ErrorCode}).
 */
export function resourceNotFound(uri: string, message: string): Error {
  // The client's URI, echoed bounded: a 2 MB one came back whole (in `message` too, before it was cut there).
  return rpcError(ErrorCode.InvalidParams, message, { uri: uri.length > MAX_URI_ECHO ? `${uri.slice(0, MAX_URI_ECHO)}… [URI cut by lazytools at ${MAX_URI_ECHO} characters]` : uri });
}

/** Characters of a requested URI an error gives back in `data.uri` (URIs beyond it are not real addresses). */
export const MAX_URI_ECHO = 2_048;

/** The id an answer to this message carries: its own when it is a valid id, else null. */
export function answerId(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A JSON-RPC error response, for answers written outside an SDK server (id null when unknown). */
export function errorEnvelope(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}
