import type { CatalogTool } from '../catalog/catalog.js';
import { DENSE_POOL, type DenseLookup, type DenseQuery } from './dense.js';
import { distinctQueries } from './clauses.js';
import { EmbeddingsClient, type EmbeddingsSettings } from './embeddings.js';
import { ToolVectors, type FillReport } from './tool-vectors.js';
import { MAX_SEARCHES, MAX_SEARCHES_PER_HOLDER, SearchSlots, type SlotHolder } from './passes.js';
import { userCacheFolder } from '../util/user-cache.js';
import { capText } from '../util/bounds.js';
import { redact } from '../util/redact.js';
import { ConfigError } from '../util/errors.js';

/**
 * The embeddings endpoint at search time: the catalog's tool vectors (filled once, from the user
 * cache and then the endpoint, in the background of the first search) and each search's query
 * vectors, as a `DenseLookup` for the engine. Every failure degrades to words alone: a search
 * never waits longer than the configured timeout for meaning, and never fails for it.
 */
export class EmbeddingSearch {
  private readonly client: EmbeddingsClient | undefined;
  private readonly vectors: ToolVectors | undefined;
  private ready = false;
  private readonly warned = new Set<string>();
  /**
   * Turns at the endpoint for query vectors, apart from the search slots (passes.ts) so that a
   * stalled endpoint holds none of those: as many at once, and per holder, as searches (one client's
   * hundred calls at once put at most 2 requests there, all clients' 8). One set per gateway.
   */
  private readonly turns = new SearchSlots(MAX_SEARCHES, MAX_SEARCHES_PER_HOLDER);
  /** Whether the tool vectors were embedded again for an endpoint answering another size (once: an endpoint that keeps changing must not cost a fill per search). */
  private refilled = false;
  /** Query vectors `prime` embedded, for the next lookup of the same queries only. */
  private primed = new Map<string, Float32Array>();

  constructor(
    tools: readonly CatalogTool[],
    readonly settings: EmbeddingsSettings,
    private readonly warn: (message: string) => void,
    options: { env?: NodeJS.ProcessEnv | undefined; cacheFolder?: string | undefined } = {},
  ) {
    try {
      this.client = new EmbeddingsClient(settings, options.env ?? process.env);
      this.vectors = new ToolVectors(tools, this.client, options.cacheFolder ?? userCacheFolder('embeddings', options.env ?? process.env));
    } catch (error) {
      // A ConfigError names the rc file and key path already.
      this.warnOnce('setup', `${error instanceof ConfigError ? '' : 'discovery.embeddings: '}${(error as Error).message}; search uses words only`);
    }
  }

  /** Fills the tool vectors (once): cached ones, then the endpoint for the rest. */
  async warm(): Promise<FillReport | undefined> {
    if (!this.vectors) return undefined;
    const report = await this.vectors.fill();
    this.ready = true;
    if (report.error) this.warnOnce('fill', `discovery.embeddings: ${this.client?.endpoint}: ${report.error}; ${this.vectors.count} of ${this.vectors.tools.length} tools have vectors, the others are found by words only`);
    return report;
  }

  /** The endpoint's address (never its key), for warnings; undefined when the settings were refused. */
  get endpoint(): string | undefined {
    return this.client?.endpoint;
  }

  /**
   * Embeds `queries` within `timeoutMs` (throws the endpoint's failure) and keeps their vectors
   * for the next `lookup` of the same queries: a one-shot search probes the endpoint with its own
   * queries before it waits for a fill, and must not pay for them twice. False when the settings
   * were refused (the constructor said why).
   */
  async prime(queries: readonly string[], timeoutMs: number): Promise<boolean> {
    if (!this.client) return false;
    const list = distinctQueries(queries);
    const embedded = await this.client.embed(list, timeoutMs);
    this.primed = new Map(list.flatMap((query, i) => (embedded[i] ? [[query, embedded[i]] as const] : [])));
    return true;
  }

  /**
   * The dense side of a search over `queries`, or undefined (words only) when the endpoint is not
   * set up, the tool vectors are not ready within the timeout, or the queries cannot be embedded.
   */
  async lookup(queries: readonly string[], holder: SlotHolder = {}, party: SlotHolder = holder): Promise<DenseLookup | undefined> {
    const { client, vectors } = this;
    const list = distinctQueries(queries);
    const primed = this.primed;
    this.primed = new Map();
    if (!client || !vectors || list.length === 0) return undefined;
    const deadline = Date.now() + this.settings.timeoutMs;
    const warming = this.warm();
    if (!this.ready) await Promise.race([warming, delay(Math.min(this.settings.timeoutMs, READY_WAIT_MS))]);
    if (vectors.count === 0) return undefined;
    const known = list.map((query) => primed.get(query));
    let embedded: Float32Array[];
    if (known.every((vector) => vector !== undefined)) embedded = known;
    else {
      const release = await turnWithin(this.turns, holder, party, Math.min(READY_WAIT_MS, deadline - Date.now()));
      if (!release) {
        this.warnOnce('busy', `discovery.embeddings: ${client.endpoint}: its requests in flight took every turn for over ${READY_WAIT_MS} ms; searches use words only while it is slow`);
        return undefined;
      }
      try {
        embedded = await client.embed(list, Math.max(1, deadline - Date.now()));
      } catch (error) {
        this.warnOnce('query', `discovery.embeddings: ${client.endpoint}: ${(error as Error).message}; searches use words only while it fails`);
        return undefined;
      } finally {
        release();
      }
    }
    if (embedded.some((vector) => vector.length !== vectors.dimensions)) {
      this.warnOnce('dims', `discovery.embeddings: ${client.endpoint} answers vectors of ${embedded[0]?.length} dimensions where the tools' have ${vectors.dimensions} (another model behind "${this.settings.model}"?): embedding every tool again; searches use words only until then`);
      if (!this.refilled) {
        this.refilled = true;
        this.ready = false;
        void vectors.refill();
      }
      return undefined;
    }
    const byQuery = new Map<string, DenseQuery>();
    list.forEach((query, i) => {
      const vector = embedded[i];
      if (!vector) return;
      byQuery.set(query, { similarity: (doc) => vectors.similarity(doc, vector), nearest: vectors.nearest(vector, DENSE_POOL), weight: this.settings.weight });
    });
    return (query) => byQuery.get(query.trim());
  }

  /**
   * One warning per kind of failure (setup, filling the tool vectors, embedding queries): a failing
   * endpoint must not flood the log. At most `WARNING_CHARS`, secrets taken out before the cut
   * (half a key must not survive it): a warning quotes the rc's url and model, of any length.
   */
  private warnOnce(kind: string, message: string): void {
    if (this.warned.has(kind)) return;
    this.warned.add(kind);
    const text = capText(redact(message), WARNING_CHARS, 'warning');
    // The gateway sets meaning up again for every new catalog (a server's tools arrived): what was
    // said for these settings (one resolved rc's) is not said again; a reload brings new settings.
    let said = SAID.get(this.settings);
    if (!said) SAID.set(this.settings, (said = new Set()));
    if (said.has(text)) return;
    if (said.size < MAX_SAID) said.add(text);
    this.warn(text);
  }
}

/** Warnings said per settings object (see warnOnce): a catalog rebuilt does not repeat them. */
const SAID = new WeakMap<EmbeddingsSettings, Set<string>>();
/** Distinct warnings remembered per settings at most (a fill's counts differ per catalog). */
const MAX_SAID = 64;

/** Characters of one warning at most: an endpoint's address, the model's name and the endpoint's answer (200) fit well. */
export const WARNING_CHARS = 1_000;

/**
 * Milliseconds a search waits, at most (and within timeoutMs), for the tool vectors while they are
 * being filled, and for a turn at the endpoint while others' requests take them all; past it, the
 * search answers by words alone. A fill from the user cache (`lock` embedded the tools) reads one
 * file, well within it, and a turn comes as soon as a request in flight answers (tens of ms on a
 * local endpoint). A fill from the endpoint takes a request per 64 tools, seconds for a large
 * catalog, and a stalled endpoint holds its turns for timeoutMs each: waiting on either, every
 * search of every client answered only after timeoutMs.
 */
export const READY_WAIT_MS = 250;

/** A turn at the endpoint (its release), or undefined when none came within `ms` (the wait leaves the queue). */
async function turnWithin(turns: SearchSlots, holder: SlotHolder, party: SlotHolder, ms: number): Promise<(() => void) | undefined> {
  if (ms <= 0) return undefined;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), ms);
  try {
    return await turns.acquire(holder, timeout.signal, party);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
