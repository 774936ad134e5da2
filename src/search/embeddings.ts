import { interpolate } from '../config/env.js';
import type { EmbeddingsSettings } from '../config/resolve.js';
import { sliceWhole } from '../util/bounds.js';
import { isObject, JsonValueCount } from '../util/json.js';
import { redact } from '../util/redact.js';
import { ConfigError } from '../util/errors.js';
import { decodeOrKeep } from '../util/uri.js';

/**
 * An OpenAI-compatible embeddings endpoint (`POST {url}/embeddings`, `{ model, input }` in,
 * `{ data: [{ index, embedding }] }` out): Ollama, llama.cpp, vLLM, LM Studio or a hosted API,
 * for users who run one (rc `discovery.embeddings`). Never required: search is lexical without
 * it, and falls back to lexical whenever the endpoint is slow, down or answers nonsense.
 */
/** The endpoint's settings: rc `discovery.embeddings` with defaults (config/resolve.ts). */
export type { EmbeddingsSettings } from '../config/resolve.js';

/** Texts per request when embedding a catalog. */
export const EMBED_BATCH = 64;
/** Characters of one text sent at most (a tool's name and description start say what it does), cut at a whole character: half an emoji (JSON's \ud83d) fails UTF-8 encoding on many endpoints, and a batch with it. */
export const MAX_EMBED_CHARS = 2_000;
/** Dimensions accepted at most (the largest common models have 4,096), from the endpoint and from the cache file. */
export const MAX_DIMS = 8_192;

/**
 * Bytes of one vector in an answer at most: MAX_DIMS numbers of up to 32 characters each (a
 * double printed in full, `-1.2345678901234567e-123,`, is 25; the rest is room for a
 * pretty-printed answer's indentation), and its item's other fields.
 */
const VECTOR_BYTES = MAX_DIMS * 32 + 1_024;
/** JSON values of one vector's item at most: its numbers, and room for the item's other fields (`index`, `object`). */
const VECTOR_VALUES = MAX_DIMS + 16;
/** Bytes and JSON values of an answer beside its vectors (`object`, `model`, `usage`). */
const ANSWER_BYTES = 64 * 1024;
const ANSWER_VALUES = 64;
/** Bytes of an error answer read, at most: its message is quoted cut to 200 characters. */
const ERROR_BYTES = 64 * 1024;

/**
 * What an answer of `count` vectors may take, read as it streams (readBounded): an endpoint that
 * answers more (a body that never ends, a hundred thousand vectors for one text) is cut off at
 * once, not read to a fixed 32 MiB and then parsed (a search's one query took that as a batch of
 * 64 texts did).
 */
export function answerBound(count: number): { bytes: number; values: number } {
  return { bytes: ANSWER_BYTES + count * VECTOR_BYTES, values: ANSWER_VALUES + count * VECTOR_VALUES };
}

/** A failure of the endpoint, with a message fit for a log line (never the key). */
class EmbeddingsError extends Error {}

/** The endpoint's client: one POST per batch, answers validated and bounded. */
export class EmbeddingsClient {
  /** The address POSTed to as printed: the query's values, and any part without a name, shown as `...` (one may be a key). Also names the cache file, so urls that differ only in query values share one. */
  readonly endpoint: string;
  /** The address POSTed to: `<url's path>/embeddings`, with the url's query (an `api-version`, a key some hosts take there). */
  private readonly target: string;
  private readonly headers: Record<string, string>;
  private readonly key: string | undefined;
  /** The url's query values, longest first, each with the name it is printed as. */
  private readonly queryValues: Array<[string, string]>;

  /**
   * @throws ConfigError (naming the rc file) when `url` or `apiKey` names an unset variable, or `url`
   * is no http(s) URL or holds a user name or password (fetch refuses one, quoting the URL);
   * EmbeddingSearch turns each into a warning.
   */
  constructor(
    readonly settings: EmbeddingsSettings,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const written = interpolate(settings.url, env, 'discovery.embeddings.url', settings.file);
    // Not quoted: a URL may hold a key.
    if (!URL.canParse(written)) throw new ConfigError('discovery.embeddings.url: expected an http or https URL, got something that is no URL', settings.file);
    const url = new URL(written);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`discovery.embeddings.url: expected an http or https URL, got ${url.protocol}`, settings.file);
    if (url.username !== '' || url.password !== '') throw new ConfigError('discovery.embeddings.url: a user name or password in the URL is not sent; put the key in discovery.embeddings.apiKey', settings.file);
    url.hash = '';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/embeddings`;
    this.target = url.href;
    this.queryValues = queryValues(url);
    const shown = new URL(url.href);
    shown.search = shownQuery(url);
    this.endpoint = url.search === '' ? url.href : shown.href;
    this.headers = { 'content-type': 'application/json' };
    if (settings.apiKey !== undefined) this.key = interpolate(settings.apiKey, env, 'discovery.embeddings.apiKey', settings.file);
    if (this.key) this.headers.authorization = `Bearer ${this.key}`;
  }

  /** `text` with the API key, the url's query values (and every other registered secret) replaced by their names. */
  private withoutKey(text: string): string {
    let out = this.key ? text.split(this.key).join('${apiKey}') : text;
    for (const [value, name] of this.queryValues) out = out.split(value).join(name);
    return redact(out);
  }

  /**
   * One vector per input, in order, each normalized to length 1.
   *
   * @throws EmbeddingsError when the endpoint fails, times out or answers something else.
   */
  async embed(inputs: readonly string[], timeoutMs: number): Promise<Float32Array[]> {
    if (inputs.length === 0) return [];
    // One deadline for the answer and its body, on a timer of lazytools' own: nothing held
    // AbortSignal.timeout's signal once the headers came, and a body that stopped coming then
    // waited past it (a whole unit run's test of such a body hung for 30 s; alone it passed).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    try {
      return await this.embedWithin(inputs, timeoutMs, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  private async embedWithin(inputs: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetch(this.target, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify({ model: this.settings.model, input: inputs.map((text) => sliceWhole(text, MAX_EMBED_CHARS)) }),
        signal,
        redirect: 'error',
      });
    } catch (error) {
      const name = (error as Error).name;
      throw new EmbeddingsError(name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `cannot reach it (${this.withoutKey((error as Error).message).slice(0, 200)})`);
    }
    if (!response.ok) {
      const text = await this.body(response, { bytes: ERROR_BYTES }, inputs.length, timeoutMs, signal);
      // The key is taken out before the cut: an endpoint echoing it must not leave half of it in the message.
      throw new EmbeddingsError(`HTTP ${response.status}${text ? `: ${this.withoutKey(text).slice(0, 200)}` : ''}`);
    }
    // Counted as it is read (util/json.ts), never parsed past the bound: a small answer of millions of empty values would cost a parse of them.
    const text = await this.body(response, answerBound(inputs.length), inputs.length, timeoutMs, signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EmbeddingsError('the answer is not JSON');
    }
    return vectorsOf(json, inputs.length);
  }

  /**
   * The body (readBounded), its failures as EmbeddingsError: the fetch's timeout also ends a body
   * that stopped coming, which failed with the abort's own words ("The operation was aborted due
   * to timeout") where one that never began says how long it waited.
   */
  private async body(response: Response, bound: { bytes: number; values?: number }, count: number, timeoutMs: number, signal: AbortSignal): Promise<string> {
    try {
      return await readBounded(response, bound, count, signal);
    } catch (error) {
      if (error instanceof EmbeddingsError) throw error;
      const name = (error as Error).name;
      throw new EmbeddingsError(name === 'TimeoutError' ? `no whole answer within ${timeoutMs} ms` : `the answer broke off (${this.withoutKey((error as Error).message).slice(0, 200)})`);
    }
  }
}

/**
 * The query of `url` as printed: each `name=value` part as `name=...`, and a part without a name or
 * a value (`?sk-...`, a key some hosts take as the whole query) as `...`, as it may be the secret.
 */
function shownQuery(url: URL): string {
  return url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const split = part.indexOf('=');
      return split > 0 ? `${part.slice(0, split)}=...` : '...';
    })
    .join('&');
}

/**
 * Each query value of `url` (as written, percent-decoded, and `+` as a space: an endpoint may echo
 * any), with the name it is printed as (`${url api-key}`; `${url query}` for a part without a name
 * or a value, see shownQuery), longest first so that one inside another is replaced whole. Values
 * under 4 characters are left: they would blank out ordinary text.
 */
function queryValues(url: URL): Array<[string, string]> {
  const out = new Map<string, string>();
  for (const part of url.search.slice(1).split('&')) {
    const split = part.indexOf('=');
    const named = split > 0;
    const name = named ? `\${url ${sliceWhole(decodeOrKeep(part.slice(0, split)), 40)}}` : '${url query}';
    const raw = part.slice(split + 1);
    for (const value of [raw, decodeOrKeep(raw), decodeOrKeep(raw.replace(/\+/g, ' '))]) if (value.length >= 4 && !out.has(value)) out.set(value, name);
  }
  return [...out].sort(([a], [b]) => b.length - a.length);
}

/**
 * The answer's body as text, read until `bound.bytes` (an error answer: what came by then) or
 * refused past it, or past `bound.values` JSON values, at once: the rest is never read.
 */
async function readBounded(response: Response, bound: { bytes: number; values?: number }, count: number, signal: AbortSignal): Promise<string> {
  const what = () => `${count} ${count === 1 ? 'vector' : 'vectors'} of at most ${MAX_DIMS.toLocaleString('en-US')} numbers`;
  const overBytes = () => new EmbeddingsError(`the answer is over ${bound.bytes.toLocaleString('en-US')} bytes (${what()} take fewer)`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (bound.values !== undefined && length > bound.bytes) {
    await response.body?.cancel().catch(() => {});
    throw overBytes();
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const values = bound.values === undefined ? undefined : new JsonValueCount(bound.values);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // The deadline ends a read that waits, whether or not the fetch passes its abort to the body.
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      const room = bound.bytes - size;
      size += value.byteLength;
      const over = size > bound.bytes;
      if (over && !values) {
        chunks.push(value.subarray(0, room));
        await reader.cancel().catch(() => {});
        break;
      }
      if (over || values?.add(value)) {
        await reader.cancel().catch(() => {});
        throw over ? overBytes() : new EmbeddingsError(`the answer holds more than ${(bound.values ?? 0).toLocaleString('en-US')} JSON values (${what()} hold fewer)`);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `data[].embedding` ordered by `index`, checked (one per input, same length, finite) and normalized. */
function vectorsOf(json: unknown, count: number): Float32Array[] {
  const data = isObject(json) && Array.isArray(json.data) ? json.data : undefined;
  if (!data || data.length !== count) throw new EmbeddingsError(`expected ${count} embeddings in "data", got ${data ? data.length : 'none'}`);
  const out: Float32Array[] = new Array<Float32Array>(count);
  let dims = -1;
  data.forEach((item: unknown, position: number) => {
    const embedding = isObject(item) ? item.embedding : undefined;
    const index = isObject(item) && typeof item.index === 'number' ? item.index : position;
    if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_DIMS) throw new EmbeddingsError('an embedding is not an array of numbers');
    if (dims === -1) dims = embedding.length;
    if (embedding.length !== dims || !Number.isInteger(index) || index < 0 || index >= count || out[index]) throw new EmbeddingsError('embeddings of different lengths or indexes');
    // Normalized in doubles, scaled by the largest component first: a finite double beyond float32
    // (1e39) or whose square overflows (1e200) still gives a unit vector, never Infinity or NaN.
    let largest = 0;
    for (let i = 0; i < dims; i++) {
      const x = embedding[i] as unknown;
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new EmbeddingsError('an embedding holds something other than finite numbers');
      largest = Math.max(largest, Math.abs(x));
    }
    const scale = largest || 1;
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += ((embedding[i] as number) / scale) ** 2;
    norm = Math.sqrt(norm) || 1;
    const vector = new Float32Array(dims);
    for (let i = 0; i < dims; i++) vector[i] = (embedding[i] as number) / scale / norm;
    out[index] = vector;
  });
  return out;
}
