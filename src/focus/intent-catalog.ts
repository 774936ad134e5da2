import type { Catalog } from '../catalog/catalog.js';
import type { ResolvedMode } from '../config/resolve.js';
import { mayHold, modeFit, type FitConfig } from './fit.js';
import type { SearchIndex } from '../search/engine.js';
import { modeEvidence, resolveIntent, type IntentMatch } from '../search/intent.js';

/** How many of search's hits for the phrase are read as evidence. */
const EVIDENCE_HITS = 3;

/**
 * `resolveIntent` with the catalog's word on it: the phrase is searched like a task, and a mode
 * that shows the tools it finds (or holds them back, half as much) gains on one that only shares
 * words with it. "get the accessibility tree of the checkout page" finds browser snapshots, so a
 * mode showing the browser beats a read-only research mode whose description says "page". Modes
 * of a catch-all group (`all`) get no evidence: they show everything. Used by `focus_mode
 * { intent }` and `lazytools mode` when a catalog is at hand; without one, the words alone decide.
 * A mode is fitted only where its evidence could change the answer (search/intent.ts
 * LazyEvidence): one that cannot hold a hit (fit.ts mayHold) gets none without a fit.
 */
export function resolveIntentIn(phrase: string, modes: readonly ResolvedMode[], catalog: Catalog, config: FitConfig, index: Pick<SearchIndex, 'search'>, threshold?: number): IntentMatch {
  // Ranked as search_tools ranks a person's words (typos corrected, related words for words the
  // catalog lacks, a task's steps), not as fitting reads the rc's tasks: tuning stacks' tasks whose
  // intent-picked mode shows a gold tool 490 -> 493 of 609 (with the task's tools 560 -> 561).
  const hits = index.search(phrase, { limit: EVIDENCE_HITS });
  const byName = new Map(modes.map((mode) => [mode.name, mode]));
  const weighed = (name: string): ResolvedMode | undefined => {
    const mode = byName.get(name);
    return mode && !mode.groups.some((group) => catalog.groups.get(group)?.catchAll === true) ? mode : undefined;
  };
  const none = new Set<string>();
  return resolveIntent(phrase, modes, threshold, {
    // As if the mode showed every hit it may hold: at least what its fit gives.
    bound: (name) => {
      const mode = weighed(name);
      if (!mode) return 0;
      const may = new Set(hits.filter((hit) => mayHold(catalog, config, mode, hit.tool)).map((hit) => hit.tool.id));
      return may.size === 0 ? 0 : modeEvidence(hits, { shownIds: may, heldBackIds: none });
    },
    of: (name) => {
      const fitted = weighed(name) && modeFit(catalog, config, name);
      return fitted ? modeEvidence(hits, fitted) : 0;
    },
  });
}
