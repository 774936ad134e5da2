import type { FetchLike } from '@modelcontextprotocol/client';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { outsideText } from '../../util/redact.js';

/**
 * The requests of one sign-in step still waiting for their answer, and the one a deadline ended:
 * a failure for lack of an answer then names who did not answer (stalledWho), the MCP server or
 * its authorization server, instead of guessing.
 */
export class RequestWatch {
  private readonly waiting = new Set<{ url: URL }>();
  private ended: URL | undefined;
  private failed: URL | undefined;
  /**
   * An event stream the deadline ended before its first event (HTTP+SSE's `endpoint` never came).
   * The SDK reports that as an `SseError` naming no timeout, so callers ask this instead.
   */
  silent: URL | undefined;

  /**
   * The request a deadline ended, else the oldest one still waiting for its answer, else the last
   * one that failed before it (the SDK client's own timeout aborts the request it gave up on).
   */
  get culprit(): URL | undefined {
    return this.ended ?? this.waiting.values().next().value?.url ?? this.failed;
  }

  /** A request starts; the returned function says its answer came (`failed`: it never did). */
  start(url: URL): (failed: boolean) => void {
    const entry = { url };
    this.waiting.add(entry);
    return (failed) => {
      this.waiting.delete(entry);
      if (failed) this.failed = url;
    };
  }

  /** A deadline ended the request to `url` (`stream`: an event stream, before its first event). */
  stalled(url: URL, stream: boolean): void {
    this.ended = url;
    if (stream) this.silent = url;
  }
}

/**
 * `base` with every request (and the reading of its answer) ended when `deadline` fires: the SDK's
 * auth() makes several round trips to an authorization server and sets no time limit of its own.
 */
export function fetchBefore(deadline: AbortSignal, base: FetchLike, watch?: RequestWatch): FetchLike {
  return (input, init) => timed(base, input, init, deadline, watch, () => {}, false);
}

/**
 * `base` with each request (and the reading of its answer) ended `ms` after it starts: for a
 * transport whose requests include the SDK's own sign-in round trips (discovery, registration,
 * the code exchange of finishAuth, a step-up's), which no caller's deadline reaches. A GET
 * answered with an event stream (HTTP+SSE's, the listening stream) is the exception: it lasts as
 * long as the session, so only its first event (HTTP+SSE's `endpoint`) must come within `ms`.
 */
export function fetchWithin(ms: number, base: FetchLike, watch?: RequestWatch): FetchLike {
  return (input, init) => {
    const timer = new AbortController();
    const clock = setTimeout(() => timer.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
    clock.unref();
    return timed(base, input, init, timer.signal, watch, () => clearTimeout(clock), true);
  };
}

/**
 * One request ended by `stop` until its answer is read (`release` then, the stop no longer
 * needed); `watch` sees it wait, and hears if `stop` ends it first. With `openEnded`, an event
 * stream a GET opened is released at its first event.
 */
async function timed(base: FetchLike, input: string | URL, init: RequestInit | undefined, stop: AbortSignal, watch: RequestWatch | undefined, release: () => void, openEnded: boolean): Promise<Response> {
  let pending = true;
  let stream = false;
  const url = URL.canParse(String(input)) ? new URL(input) : undefined;
  const answered = url && watch?.start(url);
  const heard = () => {
    if (pending && url) watch?.stalled(url, stream);
  };
  const settle = (failed = false) => {
    if (!pending) return;
    pending = false;
    stop.removeEventListener('abort', heard);
    answered?.(failed);
    release();
  };
  stop.addEventListener('abort', heard, { once: true });
  let response: Response;
  try {
    response = await base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, stop]) : stop });
  } catch (error) {
    // A stop that fired now: `heard` ran first (abort listeners run before the fetch rejects).
    settle(true);
    throw error;
  }
  if (response.body === null) {
    settle();
    return response;
  }
  stream = openEnded && (init?.method ?? 'GET').toUpperCase() === 'GET' && (response.headers.get('content-type') ?? '').includes('text/event-stream');
  return new Response(readUntil(response.body, settle, stream), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * `body` as it is read, `settle` called once it ends (read whole, failed or cancelled), or with
 * `firstEvent` at the first blank line (the end of an SSE event). Nothing is read ahead
 * (highWaterMark 0): an answer nobody reads does not count as one still coming.
 */
function readUntil(body: ReadableStream<Uint8Array>, settle: (failed?: boolean) => void, firstEvent: boolean): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let tail = '';
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            settle();
            controller.close();
            return;
          }
          if (firstEvent) {
            const seen = tail + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
            if (/\r\r|\n\n|\r\n\r\n/.test(seen)) settle();
            tail = seen.slice(-3);
          }
          controller.enqueue(value);
        } catch (error) {
          settle(true);
          controller.error(error);
        }
      },
      async cancel(reason) {
        settle();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Runs `work` (one auth() and its round trips) with a fetch ended after `ms`; past it, the failure
 * says who did not answer (`who` of the request the deadline ended, if it heard one), whatever the
 * SDK made of the aborted request (it takes an aborted exchange for a refused one).
 */
export async function answeredWithin<T>(ms: number, base: FetchLike, who: (url: URL | undefined) => string, work: (fetchFn: FetchLike) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  const watch = new RequestWatch();
  try {
    return await work(fetchBefore(deadline, base, watch));
  } catch (error) {
    throw deadline.aborted ? notAnswered(ms, who(watch.culprit)) : error;
  }
}

/** The failure of a server (`who`: stalledWho's words) that did not answer in time. */
export function notAnswered(ms: number, who: string): Error {
  return new Error(`${who} did not answer within ${Math.ceil(ms / 1000)} s`);
}

/** Paths an authorization server's metadata is read at (RFC 8414, OpenID Connect Discovery), on whatever origin. */
const METADATA_PATHS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

/**
 * Who a request that timed out went to, in words for notAnswered: the MCP server `server` (at
 * `url`) or its authorization server, by origin; on a shared origin, by the authorization
 * server's metadata paths and the endpoints its discovery named. Only the origin is shown (a path
 * or query may hold a key), bounded. Undefined `stalled` (none heard): both are named.
 */
export function stalledWho(stalled: URL | undefined, server: { name: string; url: URL }, discovery: OAuthDiscoveryState | undefined): string {
  if (stalled === undefined) return `server "${outsideText(server.name, 100)}" or its authorization server`;
  const shown = outsideText(stalled.origin, 200);
  const endpoints = Object.values(discovery?.authorizationServerMetadata ?? {}).filter((value): value is string => typeof value === 'string' && URL.canParse(value));
  const where = `${stalled.origin}${stalled.pathname}`;
  const authorization =
    stalled.origin !== server.url.origin ||
    METADATA_PATHS.some((path) => stalled.pathname.startsWith(path)) ||
    endpoints.some((endpoint) => `${new URL(endpoint).origin}${new URL(endpoint).pathname}` === where);
  return authorization ? `the authorization server (${shown})` : `server "${outsideText(server.name, 100)}" (${shown})`;
}

/**
 * True when `error` (or an error it was caused by) is a fetch ended by a timeout signal, or the
 * SDK client's own request timeout (SdkErrorCode.RequestTimeout: its answer never came).
 */
export function timedOut(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) if (at.name === 'TimeoutError' || (at as { code?: unknown }).code === 'REQUEST_TIMEOUT') return true;
  return false;
}
