import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpHandlerRequestOptions } from '@modelcontextprotocol/server';
import { ErrorCode, isRequest } from '../protocol/jsonrpc.js';

/** The SDK handler's web-standard face (`createMcpHandler(...).fetch`). */
export interface FetchFace {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
}

/** Headers the web Request must not carry: it has no body (the SDK is given the parsed one). */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);
const EMPTY = Buffer.alloc(0);

/**
 * The Node face of a 2026-07-28 handler, for a POST whose body the front already read and parsed:
 * what `toNodeHandler` (@modelcontextprotocol/node) does, minus the per-request costs the front
 * does not need. The SDK classifies, validates and dispatches from `parsedBody` and never reads
 * the web Request's body, so none is built (toNodeHandler serialized the parsed body again, with
 * a web stream around it); a JSON answer is written whole with its length (toNodeHandler pulled
 * it through a web stream and wrote it chunked, two writes); an SSE answer streams as before,
 * honouring backpressure. A client that goes away aborts the request's signal, as before; a
 * handler that throws is logged and answered 500 with the request's id.
 */
export function nodeFetchHandler(handler: FetchFace, onerror: (error: Error) => void): (req: IncomingMessage, res: ServerResponse, parsedBody: unknown) => Promise<void> {
  return async (req, res, parsedBody) => {
    let finished = false;
    const abort = new AbortController();
    // A response already ended (answered early: early-answer) is no client going away.
    res.on('close', () => {
      if (!finished && !res.writableEnded) abort.abort();
    });
    if (res.destroyed) abort.abort();
    let response: Response;
    try {
      const auth = (req as IncomingMessage & { auth?: AuthInfo }).auth;
      response = await handler.fetch(webRequest(req, abort.signal), { ...(auth !== undefined ? { authInfo: auth } : {}), parsedBody });
    } catch (error) {
      try {
        onerror(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // An observer's failure changes nothing.
      }
      response = Response.json({ jsonrpc: '2.0', error: { code: ErrorCode.InternalError, message: 'Internal server error' }, id: isRequest(parsedBody) ? parsedBody.id : null }, { status: 500 });
    }
    // Answered early (early-answer): the SDK's Response of the same answer is dropped unread.
    if (res.headersSent) {
      finished = true;
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (response.body === null) {
      finished = true;
      res.writeHead(response.status, headers).end();
      return;
    }
    if (!isEventStream(headers['content-type'])) {
      // The bytes as the SDK encoded them: no decode to a string, no count and encode again to write it.
      const bytes = await response.arrayBuffer().then((body) => Buffer.from(body), () => EMPTY);
      finished = true;
      if (res.destroyed) return;
      headers['content-length'] = String(bytes.length);
      res.writeHead(response.status, headers).end(bytes);
      return;
    }
    res.writeHead(response.status, headers);
    await streamBody(response.body, res, abort.signal);
    finished = true;
    res.end();
  };
}

/** Writes a streamed (SSE) body as it comes, waiting on `drain` when the socket is full; stops when the client left. */
async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  let drained: (() => void) | undefined;
  const release = () => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', release);
  const closed = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for await (const chunk of body) {
      if (signal.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
    }
  } catch {
    // The stream failed or was cancelled: the response ends here.
  } finally {
    res.off('drain', release);
  }
}

/**
 * The web Request the SDK reads: method, URL, headers and the abort signal; no body (see
 * nodeFetchHandler). Not undici's `Request`: building one cost more than the SDK's whole
 * per-request server (its headers converted one by one, its own signal made to follow ours), and
 * the SDK reads only `method`, `signal` and `headers.get` of it (the envelope's classification,
 * the standard headers, the abort); it reads no body, since it is given the parsed one (an
 * empty body, `null`, as a bodiless Request has, when none is given). The headers keep the Headers semantics the SDK relies on: names are looked up
 * case-insensitively, repeated values joined with ", ", and they iterate sorted as Headers do.
 */
function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = single(req.headers.host) ?? 'localhost';
  // Repeated values joined as Headers.append joins them.
  const headers: Record<string, string> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const request = { method: (req.method ?? 'POST').toUpperCase(), url: `http://${host}${req.url ?? '/'}`, headers: new RequestHeaders(headers), signal, body: null, bodyUsed: false, clone: () => ({ ...request }) };
  return request as unknown as Request;
}

/** The read side of web Headers over a Node request's (already lower-case) header record. */
class RequestHeaders {
  constructor(private readonly record: Readonly<Record<string, string>>) {}

  get(name: string): string | null {
    return this.record[name.toLowerCase()] ?? null;
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  forEach(callback: (value: string, name: string, headers: RequestHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.record).sort()) yield [name, this.record[name] as string];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function isEventStream(type: string | undefined): boolean {
  return type !== undefined && type.toLowerCase().startsWith('text/event-stream');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
