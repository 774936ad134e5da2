import type { CatalogTool } from '../catalog/catalog.js';
import { toolTitle } from '../catalog/text.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { SearchIndex } from '../search/engine.js';
import { expandQuery, terms } from '../search/text.js';
import { modeNamed, offerFilter, type Boundary } from './policy.js';

/** Tools a focus_mode with an intent brings for the task it states: search's best few for the phrase. */
const TASK_TOOLS = 3;

/**
 * The tools that fit the task an intent states, best first: of search's first CANDIDATES for the
 * phrase among what `mode` may offer the caller (policy's offerFilter: the read-only rule, a
 * token's modes) and `keep` accepts, the TASK_TOOLS first that say one of the task's telling
 * words. A mode is for a kind of work and holds what that
 * work needs most; the task at hand ("refund the duplicate charge") may need a tool the mode's
 * budget or placement left out, so a switch by intent shows these beside the mode's own.
 */
export function taskTools(
  index: Pick<SearchIndex, 'search' | 'termCount' | 'tools' | 'correction'>,
  config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>,
  mode: string,
  boundary: Boundary | undefined,
  task: string,
  keep?: (tool: CatalogTool) => boolean,
): CatalogTool[] {
  const offer = offerFilter(config, modeNamed(config, mode), boundary);
  const filter = offer && keep ? (tool: CatalogTool) => offer(tool) && keep(tool) : (offer ?? keep);
  // A hit must say one of the task's telling words (or a synonym) in its own name or description:
  // a task no tool does ("take a screenshot of the pricing page" on a catalog without a browser)
  // otherwise brings tools that matched a generic word or one most tools have ("page" of paging).
  const common = Math.max(FEW_TOOLS, COMMON_SHARE * index.tools.length);
  const said = new Set(
    expandQuery(task, (word) => index.correction(word))
      .filter((entry) => entry.weight >= SAID_WEIGHT && index.termCount(entry.term) <= common)
      .map((entry) => entry.term),
  );
  const saysIt = (tool: CatalogTool) => terms(`${tool.name} ${toolTitle(tool.definition) ?? ''} ${(tool.definition.description ?? '').slice(0, SAID_CHARS)}`).some((term) => said.has(term));
  return index
    .search(task, { limit: CANDIDATES, filter, steps: false })
    .map((hit) => hit.tool)
    .filter(saysIt)
    .slice(0, TASK_TOOLS);
}

/**
 * Characters of a hit's description read for the task's words: its title (or annotations' title)
 * and name count whole, and a description of a megabyte was split into words for each of the
 * CANDIDATES on every focus_mode intent.
 */
const SAID_CHARS = 4_000;

/** Search hits read to find TASK_TOOLS that say the task's words. */
const CANDIDATES = 10;
/** The least weight of a query term that counts as the task's word: its own words and synonyms, not generic ones ("get", "all"). */
const SAID_WEIGHT = 0.7;
/**
 * A word more than this share of the catalog's tools have tells nothing about a task. Measured on
 * the tuning sets: 0.2 costs no task but lets paging's "page" (19% of the reference servers' tools)
 * through; 0.15 costs 3 of 426 tasks; 0.05 costs 13.
 */
const COMMON_SHARE = 0.15;
/** In a small catalog a word a few tools share still tells (four tools: "refund" in one is 25%). */
const FEW_TOOLS = 3;
