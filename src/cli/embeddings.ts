import { buildCatalog, type Catalog } from '../catalog/catalog.js';
import type { ServerTools } from '../catalog/types.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { DenseLookup } from '../search/dense.js';
import { EmbeddingSearch, WARNING_CHARS } from '../search/embedding-search.js';
import { capText } from '../util/bounds.js';
import { redact } from '../util/redact.js';
import type { CliIO } from './io.js';

/**
 * `lock` with rc `discovery.embeddings`: embeds the locked tools now (cached by definition, so a
 * re-lock pays only for changed tools) so that a gateway's first search has them. A failure is a
 * warning: the lock is written either way and search falls back to words.
 */
export async function warmEmbeddings(sources: ServerTools[], config: ResolvedConfig, io: Pick<CliIO, 'err' | 'env'>): Promise<void> {
  if (!config.embeddings) return;
  const { catalog } = buildCatalog(sources, config);
  const report = await new EmbeddingSearch(catalog.tools, config.embeddings, (message) => io.err(message), { env: io.env }).warm();
  if (report) io.err(`embeddings for search: ${report.embedded} tools embedded, ${report.cached} cached${report.error ? ' (the rest by words only until the endpoint answers)' : ''}`);
}

/**
 * `search` with rc `discovery.embeddings`: the dense side of the queries (undefined: words only).
 * A one-shot search waits for the tool vectors it lacks (a whole fill, batch by batch) only once
 * the endpoint has embedded its queries within `timeoutMs`: one that is down, hangs or answers
 * nonsense costs that long and one warning, as it does the gateway, not a fill's batch timeout.
 */
export async function denseFor(catalog: Catalog, config: ResolvedConfig, queries: readonly string[], io: Pick<CliIO, 'err' | 'env'>): Promise<DenseLookup | undefined> {
  if (!config.embeddings) return undefined;
  // A warning quotes the rc's url, of any length: bounded as EmbeddingSearch bounds its own (secrets out before the cut).
  const warn = (message: string) => io.err(capText(redact(message), WARNING_CHARS, 'warning'));
  const search = new EmbeddingSearch(catalog.tools, config.embeddings, warn, { env: io.env });
  try {
    if (!(await search.prime(queries, config.embeddings.timeoutMs))) return undefined; // EmbeddingSearch said why
  } catch (error) {
    warn(`discovery.embeddings: ${search.endpoint}: ${(error as Error).message}; search uses words only`);
    return undefined;
  }
  await search.warm();
  return search.lookup(queries);
}
