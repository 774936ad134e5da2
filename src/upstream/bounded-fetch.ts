import type { FetchLike } from '@modelcontextprotocol/client';
import { MAX_LINE_BYTES } from '../protocol/lines.js';
import { errorEnvelope, ErrorCode, MAX_MESSAGE_VALUES, requestIdOf, sseMessage, type RequestId } from '../protocol/jsonrpc.js';
import { JsonValueCount } from '../util/json.js';
import type { ReadHold } from './flood.js';

/**
 * The `fetch` of a remote server (and of its authorization server), with what one answer may
 * hold of the gateway bounded as a stdio line is (MAX_LINE_BYTES): the SDK reads a JSON body
 * whole and an SSE event whole before it looks at either, so a server that never ends one (or
 * sends gigabytes) would take the gateway's memory without end. A body over the bound fails
 * (the request that read it fails saying so); an SSE stream may last for ever, but one event
 * over the bound ends the stream, answering the POST's own request with an error first so its
 * call fails now instead of at its timeout. With `hold`, an SSE stream is not read while the
 * server's flood gate holds it (flood.ts ReadHold).
 */
export function boundedFetch(server: string, base: FetchLike = fetch, max = MAX_LINE_BYTES, hold?: ReadHold): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (response.body === null) return response;
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const what = sse ? 'an event' : 'an answer';
    const problems = {
      bytes: `upstream "${server}" sent ${what} over ${max / (1024 * 1024)} MiB, the most lazytools reads of one message`,
      values: `upstream "${server}" sent ${what} of more than ${MAX_MESSAGE_VALUES.toLocaleString('en-US')} JSON values, the most lazytools reads of one message`,
    };
    const body = response.body.pipeThrough(sse ? boundedEvents(max, problems, init?.method === 'POST' ? requestIdOf(init.body) : undefined, hold) : boundedBytes(max, problems));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A body over the bound: the upstream was reached, and said too much (raw.ts words the call's failure by it). */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';
}

/** What a body or event over a bound fails with: over `max` bytes, or over MAX_MESSAGE_VALUES JSON values (counted as it comes, before the SDK parses it). */
interface Problems {
  bytes: string;
  values: string;
}

/** Bytes passed on until `max` bytes or MAX_MESSAGE_VALUES values, then the stream fails saying which. */
function boundedBytes(max: number, problems: Problems): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  const values = new JsonValueCount(MAX_MESSAGE_VALUES);
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > max) controller.error(new AnswerTooLarge(problems.bytes));
      else if (values.add(chunk)) controller.error(new AnswerTooLarge(problems.values));
      else controller.enqueue(chunk);
    },
  });
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * SSE bytes passed on while each event (the bytes since the last blank line) stays within `max`.
 * Past it: a blank line ends what was sent of the event (its parser discards it as not JSON),
 * then, when the stream answers a request of ours, an error answer to it; and the stream ends.
 */
function boundedEvents(max: number, problems: Problems, id: RequestId | undefined, hold?: ReadHold): TransformStream<Uint8Array, Uint8Array> {
  let event = 0;
  const values = new JsonValueCount(MAX_MESSAGE_VALUES);
  // The last byte seen ended a line (LF or CR); after a CR, a LF belongs to the same line end.
  let lineEnd = false;
  let afterCr = false;
  let done = false;
  return new TransformStream({
    async transform(chunk, controller) {
      if (done) return;
      // Held: this chunk waits, so the body is not read on (backpressure reaches the server).
      const paused = hold?.paused();
      if (paused) await paused;
      let nextCr = -1;
      for (let at = 0; at < chunk.length; ) {
        const lf = chunk.indexOf(LF, at);
        if (nextCr < at) {
          const cr = chunk.indexOf(CR, at);
          nextCr = cr === -1 ? chunk.length : cr;
        }
        const end = Math.min(lf === -1 ? chunk.length : lf, nextCr);
        if (end > at) {
          lineEnd = false;
          afterCr = false;
          event += end - at;
          const over = event > max ? 'bytes' : values.add(chunk, at, end) ? 'values' : undefined;
          if (over !== undefined) {
            done = true;
            controller.enqueue(chunk.subarray(0, over === 'bytes' ? end - (event - max) : at));
            const answer = id === undefined ? '' : sseMessage(JSON.stringify(errorEnvelope(id, ErrorCode.InternalError, `lazytools cut the answer: ${problems[over]}`)));
            controller.enqueue(new TextEncoder().encode(`\n\n${answer}`));
            controller.terminate();
            return;
          }
        }
        if (end === chunk.length) break;
        const byte = chunk[end];
        if (byte === LF && afterCr) afterCr = false;
        else {
          // A line end right after another is a blank line: the event is over.
          if (lineEnd) {
            event = 0;
            values.reset();
          }
          lineEnd = true;
          afterCr = byte === CR;
        }
        at = end + 1;
      }
      controller.enqueue(chunk);
    },
  });
}
