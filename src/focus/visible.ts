import { idMatcher, type Catalog, type CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { FocusState } from './machine.js';

/**
 * The catalog tools a session sees: the mode's groups plus the session's enabled groups, minus
 * its disabled groups, plus `alwaysVisible` and search-discovered tools. A read-only mode drops
 * every tool not annotated `readOnlyHint: true`. Pure, in catalog order.
 */
export function visibleTools(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, focus: FocusState): CatalogTool[] {
  const mode = config.modes[focus.mode];
  if (!mode) return [];
  const groups = new Set([...mode.groups, ...focus.enabled]);
  for (const group of focus.disabled) groups.delete(group);
  const always = idMatcher(config.alwaysVisible);
  const discovered = new Set(focus.discovered);
  return catalog.tools.filter((tool) => {
    if (mode.readOnly && !tool.readOnly) return false;
    return tool.groups.some((group) => groups.has(group)) || discovered.has(tool.id) || always(tool.id);
  });
}

/** The groups in effect for a focus state (mode groups, enabled added, disabled removed). */
export function activeGroups(config: Pick<ResolvedConfig, 'modes'>, focus: FocusState): string[] {
  const mode = config.modes[focus.mode];
  const groups = [...(mode?.groups ?? []), ...focus.enabled.filter((g) => !mode?.groups.includes(g))];
  return groups.filter((group) => !focus.disabled.includes(group));
}
