import type { ServerResponse } from 'node:http';
import { isJSONRPCResultResponse } from '@modelcontextprotocol/server';
import type { SendTap } from '../callers/modern-server.js';
import { isRequest } from '../protocol/jsonrpc.js';

/**
 * Writes a 2026-07-28 request's plain JSON answer as soon as the server hands it to its transport,
 * before the SDK builds a web Response of it, closes the per-request server and returns through
 * its entry (all that then runs while the client reads the answer). Only the answer the SDK
 * would send as `200 application/json` is written here: the result (by the SDK's own predicate)
 * of this request's id, when nothing related to the request went before it (a notification turns
 * the answer into an event stream) and nothing was written yet. Error answers (their status
 * depends on where they came from) and streamed answers are left to the SDK. The bytes are the
 * SDK's: the same message serialized by JSON.stringify, as Response.json does, with its length.
 * Undefined for a body that is no single request (nothing to answer early).
 */
export function earlyAnswer(res: ServerResponse, body: unknown): SendTap | undefined {
  if (!isRequest(body)) return undefined;
  const id = body.id;
  let streamed = false;
  return (message, options) => {
    if (streamed || res.headersSent || res.destroyed) return;
    if (!('result' in message) || message.id !== id) {
      // A message related to the request before its answer: the SDK answers with an event stream.
      if (options?.relatedRequestId === id) streamed = true;
      return;
    }
    if (!isJSONRPCResultResponse(message)) return;
    const text = JSON.stringify(message);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  };
}
