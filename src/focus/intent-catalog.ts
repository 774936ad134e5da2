import type { Catalog } from '../catalog/catalog.js';
import type { ResolvedMode } from '../config/resolve.js';
import { modeFit, type FitConfig } from './fit.js';
import type { SearchIndex } from '../search/engine.js';
import { catalogEvidence, resolveIntent, type IntentMatch, type ModeTools } from '../search/intent.js';

/** How many of search's hits for the phrase are read as evidence. */
const EVIDENCE_HITS = 3;

/**
 * `resolveIntent` with the catalog's word on it: the phrase is searched like a task, and a mode
 * that shows the tools it finds (or holds them back, half as much) gains on one that only shares
 * words with it. "get the accessibility tree of the checkout page" finds browser snapshots, so a
 * mode showing the browser beats a read-only research mode whose description says "page". Modes
 * of a catch-all group (`all`) get no evidence: they show everything. Used by `focus_mode
 * { intent }` and `lazytools mode` when a catalog is at hand; without one, the words alone decide.
 */
export function resolveIntentIn(phrase: string, modes: readonly ResolvedMode[], catalog: Catalog, config: FitConfig, index: Pick<SearchIndex, 'search'>, threshold?: number): IntentMatch {
  const tools = new Map<string, ModeTools>();
  for (const mode of modes) {
    if (mode.groups.some((name) => catalog.groups.get(name)?.catchAll === true)) continue;
    const fitted = modeFit(catalog, config, mode.name);
    if (fitted) tools.set(mode.name, fitted);
  }
  // Ranked as search_tools ranks a person's words (typos corrected, related words for words the
  // catalog lacks, a task's steps), not as fitting reads the rc's tasks: tuning stacks' tasks whose
  // intent-picked mode shows a gold tool 490 -> 493 of 609 (with the task's tools 560 -> 561).
  return resolveIntent(phrase, modes, threshold, catalogEvidence(index.search(phrase, { limit: EVIDENCE_HITS }), tools));
}
