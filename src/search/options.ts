import type { CatalogTool } from '../catalog/catalog.js';
import type { DenseLookup } from './dense.js';

/** How a search is narrowed and how many hits it returns (5 unless `limit` says). */
export interface SearchOptions {
  limit?: number | undefined;
  /** Only tools of this group. */
  group?: string | undefined;
  /** Only tools this predicate keeps (e.g. a read-only mode's). */
  filter?: ((tool: CatalogTool) => boolean) | undefined;
  /** Meaning next to words, per query (an embeddings endpoint; see dense.ts). */
  dense?: DenseLookup | undefined;
  /**
   * Whether a task of several steps is ranked per step too (see `search`; default true). A mode's
   * typical tasks, read to fit it, are one thing each, and fitting is measured as it ranks them.
   * `false` also leaves a synonym's idf uncapped (see synonymIdf) and reads no related words
   * (related.ts) for words the catalog lacks: the ranking fitting and a task's tools were tuned
   * with. Intent's evidence reads a phrase as search_tools does (focus/intent-catalog.ts).
   */
  steps?: boolean | undefined;
  /**
   * Whether the query is a person's words, whose typos are corrected against the catalog's
   * (spelling.ts; default true). A mode's fitting reads the rc's reviewed task texts: false.
   */
  typed?: boolean | undefined;
  /**
   * Whether the tools of servers whose tools as a whole match the query are lifted (server-lift.ts;
   * default false). Intent's evidence reads a phrase's first few hits this way; search_tools does
   * not (measured there: flat, and a few held-out queries lost their first hit).
   */
  servers?: boolean | undefined;
}
