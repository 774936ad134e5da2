import type { Catalog, CatalogTool } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig, ResolvedMode } from '../config/resolve.js';
import type { FocusState } from './state.js';
import { globMatcher, modeAllows, modeNamed, usedInMode } from './policy.js';
import { modeFit, type FitConfig } from './fit.js';

/** What visibility reads from the configuration. */
type VisibleConfig = FitConfig;

/**
 * The catalog tools a session sees: what the mode shows within its budget (focus/fit.ts: the
 * highest-priority tools of its groups, pinned and `alwaysVisible` ones always), minus the
 * session's disabled groups, plus every tool of the session's enabled groups and its
 * search-discovered tools. Tools the session asked for (enable_group, search) are shown even
 * past the budget: the user asked. A read-only mode drops every tool that may write. Pure, in
 * catalog order; the fitting is cached per catalog, config and mode.
 */
export function visibleTools(catalog: Catalog, config: VisibleConfig, focus: FocusState): CatalogTool[] {
  const mode = modeNamed(config, focus.mode);
  if (!mode) return [];
  const fitted = modeFit(catalog, config, focus.mode)?.shownIds;
  const { groups, disabled } = sessionGroups(mode, focus);
  const enabled = new Set(focus.enabled.filter((group) => groups.has(group)));
  const always = globMatcher(config.alwaysVisible);
  const discovered = new Set(focus.discovered);
  return catalog.tools.filter((tool) => {
    if (!modeAllows(mode, tool)) return false;
    if (discovered.has(tool.id) || always(tool.id)) return true;
    if (enabled.size > 0 && tool.groups.some((group) => enabled.has(group))) return true;
    if (!fitted?.has(tool.id)) return false;
    // A fitted tool goes with its groups: hidden when the session disabled them (a mode pin outside them stays).
    return tool.groups.some((group) => groups.has(group)) || !tool.groups.some((group) => disabled.has(group));
  });
}

/**
 * Every tool of the session's mode, shown or held back by the budget (plus enabled groups,
 * discovered tools, tools called in the mode lately, see usedInMode, and tools its `fill` ranks
 * with its own): what the mode's rules let the session reach (policy's `inMode`).
 */
export function modeMembers(catalog: Catalog, config: VisibleConfig, focus: FocusState): CatalogTool[] {
  const mode = modeNamed(config, focus.mode);
  if (!mode) return [];
  const { groups, disabled } = sessionGroups(mode, focus);
  const always = globMatcher(config.alwaysVisible);
  const pinned = globMatcher(mode.pin);
  const discovered = new Set(focus.discovered);
  // A filler goes with its groups, as in visibleTools: out when the session disabled one of them.
  const filled = modeFit(catalog, config, focus.mode)?.filledIds;
  const isFiller = (tool: CatalogTool) => filled?.has(tool.id) === true && !tool.groups.some((group) => disabled.has(group));
  return catalog.tools.filter((tool) => {
    if (!modeAllows(mode, tool)) return false;
    return tool.groups.some((group) => groups.has(group)) || discovered.has(tool.id) || always(tool.id) || pinned(tool.id) || usedInMode(config, mode, tool) || isFiller(tool);
  });
}

/** The session's groups (the mode's and its enabled ones, less its disabled ones) and the disabled ones. */
function sessionGroups(mode: Pick<ResolvedMode, 'groups'>, focus: FocusState): { groups: Set<string>; disabled: Set<string> } {
  const groups = new Set([...mode.groups, ...focus.enabled]);
  const disabled = new Set(focus.disabled);
  for (const group of disabled) groups.delete(group);
  return { groups, disabled };
}

/**
 * The catalog tools a `proxy`-strategy list carries in a mode: only `alwaysVisible` ones (read-only
 * ones in a read-only mode); everything else is reached through execute_tool.
 */
function proxyListedTools(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'alwaysVisible'>, mode: string): CatalogTool[] {
  if (config.alwaysVisible.length === 0) return [];
  const always = globMatcher(config.alwaysVisible);
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
  config: VisibleConfig,
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
