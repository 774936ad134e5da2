import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { isRequest } from '../protocol/jsonrpc.js';

/** Said in the cancellation a dropped POST stands for. */
const REASON = 'the client closed the HTTP request before its answer';

/**
 * A 2025 session's POST whose client goes away before the answer (an aborted fetch, a dropped
 * socket) is as good as cancelled: nothing can carry the answer any more. The SDK transport only
 * drops the stream, and the handlers behind it ran on: 100 costly search_tools POSTs aborted
 * within 60 ms still took 10 s of the gateway's CPU, and held the search slots (search/passes.ts)
 * a later search of the session waited for. So each request of such a POST (a JSON-RPC batch
 * holds several) gets a notifications/cancelled through `deliver`, as if the client had sent
 * it: its handler's signal aborts (a search stops at its next pass, an upstream call is
 * cancelled there). A request already answered ignores it.
 */
export function cancelWhenDropped(res: ServerResponse, body: unknown, deliver: (message: JSONRPCMessage) => void): void {
  const ids = requestIds(body);
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids) deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: REASON } });
  });
}

/** The ids of the requests a POST body carries (one message or a batch); notifications and responses have none. */
function requestIds(body: unknown): RequestId[] {
  const out: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) if (isRequest(message)) out.push(message.id);
  return out;
}
