import { idMatcher, type Catalog, type CatalogTool } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { FocusState } from './machine.js';
import { modeAllows, modeNamed } from './policy.js';

/**
 * The catalog tools a session sees: the mode's groups plus the session's enabled groups, minus
 * its disabled groups, plus `alwaysVisible` and search-discovered tools. A read-only mode drops
 * every tool not annotated `readOnlyHint: true`. Pure, in catalog order.
 */
export function visibleTools(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, focus: FocusState): CatalogTool[] {
  const mode = modeNamed(config, focus.mode);
  if (!mode) return [];
  const groups = new Set([...mode.groups, ...focus.enabled]);
  for (const group of focus.disabled) groups.delete(group);
  const always = idMatcher(config.alwaysVisible);
  const discovered = new Set(focus.discovered);
  return catalog.tools.filter((tool) => {
    if (!modeAllows(mode, tool)) return false;
    return tool.groups.some((group) => groups.has(group)) || discovered.has(tool.id) || always(tool.id);
  });
}

/**
 * The catalog tools a `proxy`-strategy list carries in a mode: only `alwaysVisible` ones (read-only
 * ones in a read-only mode); everything else is reached through execute_tool.
 */
function proxyListedTools(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, mode: string): CatalogTool[] {
  if (config.alwaysVisible.length === 0) return [];
  const always = idMatcher(config.alwaysVisible);
  const rules = modeNamed(config, mode);
  if (!rules) return [];
  return catalog.tools.filter((tool) => always(tool.id) && modeAllows(rules, tool));
}

/**
 * The catalog tools a client's `tools/list` carries under `strategy`: the visible tools, or under
 * `proxy` only the `alwaysVisible` ones. `visible` gives a visible set the caller already keeps
 * (a session's cache); it is asked only when needed.
 */
export function listedTools(
  catalog: Catalog,
  config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>,
  focus: FocusState,
  strategy: ServedStrategy,
  visible: () => CatalogTool[] = () => visibleTools(catalog, config, focus),
): CatalogTool[] {
  if (strategy === 'proxy') return proxyListedTools(catalog, config, focus.mode);
  return visible();
}

/** The groups in effect for a focus state (mode groups, enabled added, disabled removed). */
export function activeGroups(config: Pick<ResolvedConfig, 'modes'>, focus: FocusState): string[] {
  const mode = modeNamed(config, focus.mode);
  const groups = [...(mode?.groups ?? []), ...focus.enabled.filter((g) => !mode?.groups.includes(g))];
  return groups.filter((group) => !focus.disabled.includes(group));
}
