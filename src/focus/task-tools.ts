import type { CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { SearchIndex } from '../search/engine.js';
import { modeNamed, offerFilter, type Boundary } from './policy.js';

/** Tools a focus_mode with an intent brings for the task it states: search's best few for the phrase. */
export const TASK_TOOLS = 3;

/**
 * The tools that fit the task an intent states, best first: search's top TASK_TOOLS for the
 * phrase among what `mode` may offer the caller (policy's offerFilter: the read-only rule, a
 * token's modes), and only those `keep` accepts. A mode is for a kind of work and holds what that
 * work needs most; the task at hand ("refund the duplicate charge") may need a tool the mode's
 * budget or placement left out, so a switch by intent shows these beside the mode's own.
 */
export function taskTools(
  index: Pick<SearchIndex, 'search'>,
  config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>,
  mode: string,
  boundary: Boundary | undefined,
  task: string,
  keep?: (tool: CatalogTool) => boolean,
): CatalogTool[] {
  const offer = offerFilter(config, modeNamed(config, mode), boundary);
  const filter = offer && keep ? (tool: CatalogTool) => offer(tool) && keep(tool) : (offer ?? keep);
  return index.search(task, { limit: TASK_TOOLS, filter }).map((hit) => hit.tool);
}
