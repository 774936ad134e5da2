import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import { FOCUS_MODE, type ServedStrategy } from '../catalog/own-tools.js';
import type { FocusState } from '../focus/machine.js';
import { withinBoundary, type Boundary } from '../focus/policy.js';
import { listedTools, modeMembers, visibleTools } from '../focus/visible.js';
import type { HubView, ListEntry } from './context.js';
import type { ListSources } from './list-changes.js';

/** The visible set of one focus state, with what it was computed from. */
interface VisibleSet {
  catalog: object;
  config: object;
  focus: object;
  tools: CatalogTool[];
  ids: Set<string>;
  /** The mode's members (shown or held back by its budget), computed on first ask. */
  members?: Set<string>;
}

/**
 * The tool lists of one caller, written once for both eras: a 2025 session (hub/session, whose
 * focus state changes with its events) and a 2026-07-28 request's view (front/modern/view, one
 * focus state for the request). The visible set is kept until the catalog, the config or the
 * focus state (`focusKey`) changes; a token's boundary bounds it whatever the focus state says.
 */
export abstract class ToolLists {
  abstract readonly gateway: HubView;
  abstract readonly boundary: Boundary | undefined;
  /** Set when the caller is pinned to one mode: no focus_mode then. */
  abstract readonly fixedMode: string | undefined;
  abstract readonly focus: FocusState;
  abstract readonly strategy: ServedStrategy;
  private visible: VisibleSet | undefined;

  /** The focus state as a cache key: the same object means the same visible set. */
  protected abstract focusKey(): object;

  /**
   * What the caller's groups (groups-ext groupsOf) depend on besides the catalog and config: its
   * focus state (a session's changes with its events; its strategy and boundary never do).
   */
  groupsKey(): unknown {
    return this.focusKey();
  }

  /** lazytools' own tools for the caller's strategy as the list carries them (a session drops list_tool_groups for a groups client). */
  protected listedOwn(): ToolDefinition[] {
    return this.ownDefinitions();
  }

  /** Drops the kept visible set (a session after a catalog change or a list check). */
  protected forgetVisible(): void {
    this.visible = undefined;
  }

  /** Catalog tools of the current mode (with a session's overrides and discovered tools). */
  modeTools(): CatalogTool[] {
    return this.visibleSet().tools;
  }

  /** True when the tool is part of the caller's current mode (shown, or held back by its budget). */
  inMode(tool: CatalogTool): boolean {
    const set = this.visibleSet();
    if (set.ids.has(tool.id)) return true;
    set.members ??= new Set(modeMembers(this.gateway.catalog, this.gateway.config, this.focus).map((member) => member.id));
    return set.members.has(tool.id);
  }

  /** Catalog tools in the list the client sees: the mode's, or only `alwaysVisible` under proxy. */
  listedTools(): CatalogTool[] {
    return listedTools(this.gateway.catalog, this.gateway.config, this.focus, this.strategy, () => this.modeTools());
  }

  /** lazytools' own tools for the caller's strategy (no focus_mode where the mode is fixed). */
  ownDefinitions(): ToolDefinition[] {
    const tools = this.gateway.ownTools(this.strategy);
    return this.fixedMode === undefined ? tools : tools.filter((tool) => tool.name !== FOCUS_MODE);
  }

  /** The `tools/list` entries; a catalog tool's listed (compacted) definition is made per page (listPage). */
  listEntries(): ListEntry[] {
    return [...this.listedOwn(), ...this.listedTools()];
  }

  /** What the list is made of, for list_changed checks without making every listed definition. */
  listSources(): ListSources {
    return { definitions: this.gateway.config.definitions, tools: this.listEntries().map(entrySource) };
  }

  private visibleSet(): VisibleSet {
    const { catalog, config } = this.gateway;
    const focus = this.focusKey();
    const kept = this.visible;
    if (kept && kept.catalog === catalog && kept.config === config && kept.focus === focus) return kept;
    // Groups enabled and tools discovered never widen a token's boundary.
    const tools = visibleTools(catalog, config, this.focus).filter((tool) => withinBoundary(config, this.boundary, tool));
    this.visible = { catalog, config, focus, tools, ids: new Set(tools.map((tool) => tool.id)) };
    return this.visible;
  }
}

function isCatalogTool(entry: ListEntry): entry is CatalogTool {
  return 'exposedName' in entry && 'definition' in entry;
}

/** The name a `tools/list` entry is listed under. */
export function entryName(entry: ListEntry): string {
  return isCatalogTool(entry) ? entry.exposedName : entry.name;
}

/** The definition a `tools/list` entry sends: a catalog tool's listed form is made on first use. */
export function listEntry(entry: ListEntry): ToolDefinition {
  return isCatalogTool(entry) ? entry.listed : entry;
}

/**
 * What decides an entry's listed definition, for change checks without making it: a catalog
 * tool's listed form is a function of its definition (compaction is cached per definition
 * object) under the config's `definitions`, which sameSources compares too.
 */
function entrySource(entry: ListEntry): ToolDefinition {
  return isCatalogTool(entry) ? entry.definition : entry;
}
