import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CatalogTool } from '../catalog/catalog.js';
import { sliceWhole } from '../util/bounds.js';
import { writeCacheFile } from '../util/user-cache.js';
import { EMBED_BATCH, MAX_DIMS, MAX_EMBED_CHARS, type EmbeddingsClient } from './embeddings.js';
import { unicodeWords } from './tokenize.js';

/** Cache files kept (one per endpoint and model). */
const CACHE_FILES = 8;
/** Vectors one cache file keeps at most (the current catalog's first). */
const CACHE_ENTRIES = 50_000;
/** About the most one cache file holds: 50,000 vectors of 512 dimensions, fewer of wider ones. */
export const CACHE_BYTES = 40 * 1024 * 1024;

/**
 * How many vectors of `dims` dimensions one cache file keeps: 50,000 of 8,192 dimensions were a
 * 546 MB JSON string, past what V8 can make (the write threw, and search with it).
 */
export function cacheEntries(dims: number): number {
  return Math.min(CACHE_ENTRIES, Math.floor(CACHE_BYTES / cacheEntryBytes(dims)));
}

/** What one vector costs in the cache file: its base64 row and scale, its digest key and JSON punctuation. */
export function cacheEntryBytes(dims: number): number {
  return Math.ceil((dims + 4) / 3) * 4 + 30;
}
/** How long one batch of tool texts may take. */
const BATCH_TIMEOUT_MS = 120_000;

/** After a fill that failed, the next one (a later search) asks the endpoint again, at most this often. */
const FILL_RETRY_MS = 60_000;

/** What filling the vectors did: embedded now, read from the cache, and the endpoint's failure if any. */
export interface FillReport {
  embedded: number;
  cached: number;
  error?: string | undefined;
}

/**
 * One vector per catalog tool from an embeddings endpoint, kept quantized (int8 and a scale per
 * row: a quarter of float32) and cached in the user cache by the digest of the text embedded, so a
 * catalog read again, or a re-lock, only pays for tools whose definition changed.
 */
export class ToolVectors {
  private dims = 0;
  private rows = new Int8Array(0);
  private readonly scales: Float32Array;
  private readonly have: Uint8Array;
  private readonly digests: string[];
  private readonly texts: string[];
  private filling: Promise<FillReport> | undefined;
  /** When the last fill failed (0: it did not): one outage must not leave search on words until a restart. */
  private failedAt = 0;

  constructor(
    readonly tools: readonly CatalogTool[],
    private readonly client: EmbeddingsClient,
    private readonly cacheFolder: string | undefined,
    private readonly retryMs = FILL_RETRY_MS,
  ) {
    this.scales = new Float32Array(tools.length);
    this.have = new Uint8Array(tools.length);
    this.texts = tools.map(toolText);
    this.digests = this.texts.map((text) => createHash('sha256').update(text).digest('base64url').slice(0, 22));
  }

  /** The size of the vectors held (0: none yet): a query vector of another size matches none. */
  get dimensions(): number {
    return this.dims;
  }

  /** How many tools have a vector. */
  get count(): number {
    let n = 0;
    for (const flag of this.have) n += flag;
    return n;
  }

  /**
   * Reads cached vectors and embeds the rest (once; later calls share the first). After a fill
   * that failed, a call `retryMs` later fills what is still missing.
   */
  fill(): Promise<FillReport> {
    if (this.failedAt > 0 && Date.now() - this.failedAt >= this.retryMs) {
      this.failedAt = 0;
      this.filling = undefined;
    }
    this.filling ??= this.settle(this.load(true));
    return this.filling;
  }

  /**
   * Drops every vector held and embeds every tool anew, the cache unread: the endpoint now answers
   * vectors of another size than those held (another model behind the same name), and vectors of
   * two sizes cannot be compared.
   */
  refill(): Promise<FillReport> {
    // After the fill in flight, if any: two loads at once would write the same rows.
    const previous = this.filling?.catch(() => undefined) ?? Promise.resolve(undefined);
    this.failedAt = 0;
    this.filling = this.settle(
      previous.then(() => {
        this.reset();
        return this.load(false);
      }),
    );
    return this.filling;
  }

  private settle(loading: Promise<FillReport>): Promise<FillReport> {
    return loading.then((report) => {
      if (report.error !== undefined) this.failedAt = Date.now();
      return report;
    });
  }

  private reset(): void {
    this.dims = 0;
    this.rows = new Int8Array(0);
    this.scales.fill(0);
    this.have.fill(0);
  }

  /** Cosine of tool `doc` with a normalized query vector, or undefined when the tool has none. */
  similarity(doc: number, query: Float32Array): number | undefined {
    if (this.have[doc] !== 1 || query.length !== this.dims) return undefined;
    let dot = 0;
    const base = doc * this.dims;
    for (let i = 0; i < this.dims; i++) dot += (query[i] ?? 0) * (this.rows[base + i] ?? 0);
    return dot * (this.scales[doc] ?? 0);
  }

  /** The `limit` tools closest to a normalized query vector, best first. */
  nearest(query: Float32Array, limit: number): Array<{ doc: number; similarity: number }> {
    const out: Array<{ doc: number; similarity: number }> = [];
    for (let doc = 0; doc < this.tools.length; doc++) {
      const similarity = this.similarity(doc, query);
      if (similarity === undefined) continue;
      if (out.length >= limit && similarity <= (out[out.length - 1]?.similarity ?? -Infinity)) continue;
      let i = out.length;
      while (i > 0 && similarity > (out[i - 1]?.similarity ?? Infinity)) i--;
      out.splice(i, 0, { doc, similarity });
      if (out.length > limit) out.pop();
    }
    return out;
  }

  private async load(useCache: boolean): Promise<FillReport> {
    const cache = useCache ? this.readCache() : { dims: 0, vectors: new Map<string, { row: Int8Array; scale: number }>() };
    let cached = 0;
    const missing: number[] = [];
    this.tools.forEach((_, doc) => {
      if (this.have[doc] === 1) return;
      const entry = cache.vectors.get(this.digests[doc] ?? '');
      if (entry && this.set(doc, entry, cache.dims)) cached++;
      else missing.push(doc);
    });
    let embedded = 0;
    let error: string | undefined;
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      const batch = missing.slice(i, i + EMBED_BATCH);
      try {
        const vectors = await this.client.embed(batch.map((doc) => this.texts[doc] ?? ''), BATCH_TIMEOUT_MS);
        // The vectors held (the cache's, or an earlier fill's) are of another size than the endpoint's now: another model's.
        if (useCache && this.dims !== 0 && vectors.some((vector) => vector.length !== this.dims)) {
          this.reset();
          return this.load(false);
        }
        batch.forEach((doc, k) => {
          const vector = vectors[k];
          if (vector && this.set(doc, quantize(vector), vector.length)) embedded++;
        });
      } catch (failure) {
        error = (failure as Error).message;
        break;
      }
    }
    if (embedded > 0) this.writeCache(cache.vectors);
    return { embedded, cached, error };
  }

  /** Stores a quantized row; false when its length differs from the vectors already held. */
  private set(doc: number, entry: { row: Int8Array; scale: number }, dims: number): boolean {
    if (this.dims === 0) {
      this.dims = dims;
      this.rows = new Int8Array(this.tools.length * dims);
    }
    if (dims !== this.dims || entry.row.length !== dims) return false;
    this.rows.set(entry.row, doc * dims);
    this.scales[doc] = entry.scale;
    this.have[doc] = 1;
    return true;
  }

  private cacheName(): string {
    return `${createHash('sha256').update(`${this.client.endpoint}\u0000${this.client.settings.model}`).digest('base64url').slice(0, 22)}.json`;
  }

  /**
   * The cache file's vectors (none when it is missing, unreadable, larger than writeCache makes, or of
   * other dimensions or over MAX_DIMS). An entry that is no quantized unit vector (a NaN, infinite,
   * negative or absurd scale: a corrupt or forged file) is left out, so its tool is embedded again:
   * it would score NaN, or above every other tool.
   */
  private readCache(): { dims: number; vectors: Map<string, { row: Int8Array; scale: number }> } {
    const vectors = new Map<string, { row: Int8Array; scale: number }>();
    if (!this.cacheFolder) return { dims: 0, vectors };
    try {
      const file = path.join(this.cacheFolder, this.cacheName());
      // Past what writeCache makes: not ours (a string that long costs memory, or fails to be made).
      if (statSync(file).size > CACHE_BYTES + 1024 * 1024) return { dims: 0, vectors };
      const json = JSON.parse(readFileSync(file, 'utf8')) as { dims?: unknown; vectors?: Record<string, unknown> };
      const dims = typeof json.dims === 'number' && Number.isInteger(json.dims) && json.dims > 0 && json.dims <= MAX_DIMS ? json.dims : 0;
      for (const [digest, value] of Object.entries(json.vectors ?? {})) {
        if (typeof value !== 'string') continue;
        const bytes = Buffer.from(value, 'base64');
        if (bytes.length !== dims + 4) continue;
        const entry = { row: new Int8Array(bytes.buffer, bytes.byteOffset, dims).slice(), scale: bytes.readFloatLE(dims) };
        if (unitRow(entry)) vectors.set(digest, entry);
      }
      return { dims, vectors };
    } catch {
      return { dims: 0, vectors };
    }
  }

  /** Writes this catalog's vectors, then older cached ones up to CACHE_ENTRIES. Best effort. */
  private writeCache(old: ReadonlyMap<string, { row: Int8Array; scale: number }>): void {
    if (!this.cacheFolder) return;
    const out: Record<string, string> = {};
    const limit = cacheEntries(this.dims);
    let count = 0;
    this.tools.forEach((_, doc) => {
      if (this.have[doc] !== 1 || count >= limit) return;
      out[this.digests[doc] ?? ''] = encodeRow(this.rows.subarray(doc * this.dims, (doc + 1) * this.dims), this.scales[doc] ?? 0);
      count++;
    });
    for (const [digest, entry] of old) {
      if (count >= limit) break;
      if (out[digest] !== undefined || entry.row.length !== this.dims) continue;
      out[digest] = encodeRow(entry.row, entry.scale);
      count++;
    }
    writeCacheFile(this.cacheFolder, this.cacheName(), JSON.stringify({ model: this.client.settings.model, dims: this.dims, vectors: out }), CACHE_FILES);
  }
}

/** A quantized row as the cache keeps it (readCache reads it back): its int8 bytes, then its scale as float32 LE, base64. */
function encodeRow(row: Int8Array, scale: number): string {
  const bytes = Buffer.alloc(row.length + 4);
  bytes.set(new Uint8Array(row.buffer, row.byteOffset, row.length));
  bytes.writeFloatLE(scale, row.length);
  return bytes.toString('base64');
}

/** The text a tool is embedded by: its name as words, its title, its description (bounded). */
function toolText(tool: CatalogTool): string {
  const definition = tool.definition;
  const title = definition.title ?? definition.annotations?.title;
  const head = `${unicodeWords(tool.name).join(' ')}${title ? ` (${title})` : ''}`;
  return sliceWhole(`${head}: ${definition.description ?? tool.summary}`, MAX_EMBED_CHARS);
}

/** A normalized vector as int8 with its scale (the largest component maps to 127). */
function quantize(vector: Float32Array): { row: Int8Array; scale: number } {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max > 0 ? max / 127 : 0;
  const row = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) row[i] = scale > 0 ? Math.round((vector[i] ?? 0) / scale) : 0;
  return { row, scale };
}

/**
 * Whether a cached row and scale can be what `quantize` made of a unit vector (or of the zero vector
 * an endpoint may answer): a finite scale of at least 0, and a length near 1. Rounding each component
 * to int8 moves the length by at most sqrt(dims) * scale / 2, about 0.36 at 8,192 dimensions, so
 * [0.5, 1.5] keeps every real row.
 */
function unitRow(entry: { row: Int8Array; scale: number }): boolean {
  if (!Number.isFinite(entry.scale) || entry.scale < 0) return false;
  let sum = 0;
  for (const x of entry.row) sum += x * x;
  const length = Math.sqrt(sum) * entry.scale;
  return length === 0 || (length >= 0.5 && length <= 1.5);
}
