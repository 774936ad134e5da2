import type { FetchLike } from '@modelcontextprotocol/client';
import { isRequestId, requestIdOf, type RequestId } from '../protocol/jsonrpc.js';

/** At most this many unanswered attributions are kept (an upstream that never asks keeps none). */
const MAX_CAUSES = 1024;

/**
 * Which of our requests caused a server-to-client request from a Streamable HTTP upstream.
 *
 * Over HTTP an upstream sends the sampling, elicitation or roots request a call causes on that
 * call's POST response stream, so the stream says which call (and so which client session) it
 * belongs to, even while calls of several sessions are in flight on the one shared upstream
 * session. The SDK's client transport does not report the stream a message came on, so this
 * watches the POST response streams through the transport's `fetch` hook: bytes pass unchanged,
 * and each request found in an event is recorded against the id of the POST's own request.
 */
export interface StreamCauses {
  /** The `fetch` to give the transport. */
  readonly fetch: FetchLike;
  /** The id of our request whose stream carried the upstream's request `id` (read once). */
  take(id: RequestId): RequestId | undefined;
}

/** The cause-watching `fetch` of one remote server and the lookup it fills (see StreamCauses). */
export function streamCauses(base: FetchLike = fetch): StreamCauses {
  const causes = new Map<string, RequestId>();
  const key = (id: RequestId) => `${typeof id}:${String(id)}`;
  const record = (id: RequestId, cause: RequestId) => {
    if (causes.size >= MAX_CAUSES) causes.delete(causes.keys().next().value as string);
    causes.set(key(id), cause);
  };
  return {
    fetch: async (url, init) => {
      const response = await base(url, init);
      const cause = init?.method === 'POST' ? requestIdOf(init.body) : undefined;
      if (cause === undefined || response.body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
      const body = response.body.pipeThrough(watchEvents((message) => {
        if (typeof message.method === 'string' && isRequestId(message.id)) record(message.id, cause);
      }));
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    take: (id) => {
      const found = causes.get(key(id));
      causes.delete(key(id));
      return found;
    },
  };
}

/** A blank line: the end of an SSE event. */
const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

/** Passes an SSE byte stream through unchanged, calling `seen` with each event's JSON object. */
function watchEvents(seen: (message: Record<string, unknown>) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  // The text of the event not yet ended, in pieces: joined only once a blank line ends it (a
  // string grown piece by piece and read each time cost a long event its length times its pieces).
  let pieces: string[] = [];
  let tail = '';
  const scan = (final: boolean) => {
    const events = pieces.join('').split(EVENT_END);
    const rest = final ? '' : (events.pop() ?? '');
    pieces = rest ? [rest] : [];
    for (const event of events) {
      const data = event
        .split(/\r\n|\n|\r/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (!data.startsWith('{')) continue;
      try {
        const message: unknown = JSON.parse(data);
        if (message !== null && typeof message === 'object' && !Array.isArray(message)) seen(message as Record<string, unknown>);
      } catch {
        // Not JSON: the transport reports it; nothing to attribute.
      }
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      const seam = tail + text;
      tail = seam.slice(-3);
      pieces.push(text);
      if (EVENT_END.test(seam)) scan(false);
      controller.enqueue(chunk);
    },
    flush() {
      pieces.push(decoder.decode());
      scan(true);
    },
  });
}

/** A transport that can say which of our requests caused an upstream's request (see streamCauses). */
export interface CausedBy {
  requestCause(id: RequestId): RequestId | undefined;
}
