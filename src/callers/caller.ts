import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import { FOCUS_MODE, type ServedStrategy } from '../catalog/own-tools.js';
import { callRefusal, withinBoundary, type Boundary } from '../focus/policy.js';
import type { Route, Scope } from '../focus/scope.js';
import type { FocusEvent, FocusState } from '../focus/state.js';
import { listedTools, modeMembers, visibleTools } from '../focus/visible.js';
import type { Caller, CallVia, ListEntry, RoutingContext } from '../handlers/caller.js';
import type { ListSources } from '../handlers/list-changes.js';
import { entrySource } from '../handlers/tools.js';
import type { Era } from '../protocol/era.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { CallOrigin } from '../upstream/primitives.js';
import type { Hub } from './hub.js';
import { scopedRouting } from './routing.js';

/** The visible set of one focus state, with what it was computed from. */
export interface VisibleSet {
  catalog: object;
  config: object;
  /** The focus key (focusKey) it was computed for. */
  focus: unknown;
  tools: CatalogTool[];
  ids: Set<string>;
  /** The mode's members (shown or held back by its budget), computed on first ask. */
  members?: Set<string>;
}

/**
 * What both callers share, written once: a 2025 session (callers/session.ts, whose focus changes
 * with its events) and a 2026-07-28 request (callers/request.ts, one focus state for the
 * request). Its scope comes from focus/scope.ts; its lists and their cache, its permit (the mode
 * rules of focus/policy), its routing (a token's servers only) and its usage record are here.
 * The visible set is kept until the catalog, the config or the focus state changes.
 */
export abstract class CallerBase implements Caller {
  abstract readonly era: Era;
  abstract readonly focus: FocusState;
  abstract readonly strategy: ServedStrategy;
  readonly fixedMode: string | undefined;
  readonly boundary: Boundary;
  private visible: VisibleSet | undefined;

  constructor(
    readonly hub: Hub,
    readonly route: Route,
    scope: Pick<Scope, 'fixedMode' | 'boundary'>,
  ) {
    this.fixedMode = scope.fixedMode;
    this.boundary = scope.boundary;
  }

  /** The current mode's name. */
  get mode(): string {
    return this.focus.mode;
  }

  get stateless(): boolean {
    return this.era === 'modern';
  }

  /** The upstreams, prompts and resources this caller may reach (a token's servers only). */
  get routing(): RoutingContext {
    return scopedRouting(this.hub, this.boundary);
  }

  abstract clientCapabilities(): ClientCapabilities | undefined;

  /** Why this caller may not call the tool now, or undefined when it may (focus/policy). */
  refusal(tool: CatalogTool): string | undefined {
    return callRefusal(this.hub.config, this, tool);
  }

  /** Catalog tools of the current mode (with a session's overrides and discovered tools). */
  modeTools(): CatalogTool[] {
    return this.visibleSet().tools;
  }

  /** True when the tool is part of the caller's current mode (shown, or held back by its budget). */
  inMode(tool: CatalogTool): boolean {
    const set = this.visibleSet();
    if (set.ids.has(tool.id)) return true;
    set.members ??= new Set(modeMembers(this.hub.catalog, this.hub.config, this.focus).map((member) => member.id));
    return set.members.has(tool.id);
  }

  /** Catalog tools in the list the client sees: the mode's, or only `alwaysVisible` under proxy. */
  listedTools(): CatalogTool[] {
    return listedTools(this.hub.catalog, this.hub.config, this.focus, this.strategy, () => this.modeTools());
  }

  /**
   * lazytools' own tools for the caller's strategy (no focus_mode where the mode is fixed); under a
   * bearer token focus_mode names only the token's modes, as its refusals do.
   */
  ownDefinitions(): ToolDefinition[] {
    const tools = this.hub.ownTools(this.strategy, this.boundary?.token ? (this.boundary.modes ?? []) : undefined);
    return this.fixedMode === undefined ? tools : tools.filter((tool) => tool.name !== FOCUS_MODE);
  }

  /** The `tools/list` entries; a catalog tool's listed (compacted) definition is made per page. */
  listEntries(): ListEntry[] {
    return [...this.listedOwn(), ...this.listedTools()];
  }

  /** What the list is made of, for list_changed checks without making every listed definition. */
  listSources(): ListSources {
    return { definitions: this.hub.config.definitions, tools: this.listEntries().map(entrySource) };
  }

  /** The origin upstream requests carry for a request of this caller. */
  origin(requestId: RequestId | undefined): CallOrigin {
    return { session: this, requestId };
  }

  /** Counts a call for the usage record (rc `usage: true`) under the mode it ran in (the caller's unless named). */
  recordUsage(tool: CatalogTool, via: CallVia, mode: string = this.mode): void {
    this.hub.usage?.record(mode, tool.id, via);
  }

  /** A request runs the handler; a session relates its focus changes to the request. */
  whileHandling<T>(_requestId: RequestId | undefined, handler: () => T): T {
    return handler();
  }

  /** A request has no focus to change (its list may not vary with a call). */
  focusEvent(_event: FocusEvent): void {}

  /** A request has no list change to announce. */
  flushListCheck(): void {}

  /** A request remembers nothing between requests. */
  noteSearched(_tools: readonly CatalogTool[]): void {}

  /** lazytools' own tools as the list carries them (a session drops list_tool_groups for a groups client). */
  protected listedOwn(): ToolDefinition[] {
    return this.ownDefinitions();
  }

  /** A session's groups change with its focus state only (its strategy and boundary never do). */
  groupsKey(): unknown {
    return this.focusKey();
  }

  /** The focus state as a cache key: the same key (`===`) means the same visible set. */
  protected focusKey(): unknown {
    return this.focus;
  }

  /** The visible set kept for this caller, if any (checked against catalog, config and focus key before use). */
  protected keptVisible(): VisibleSet | undefined {
    return this.visible;
  }

  /** Keeps a visible set computed for this caller. */
  protected keepVisible(set: VisibleSet): void {
    this.visible = set;
  }

  /** Drops the kept visible set (a session after a catalog change or a list check). */
  protected forgetVisible(): void {
    this.visible = undefined;
  }

  private visibleSet(): VisibleSet {
    const { catalog, config } = this.hub;
    const focus = this.focusKey();
    const kept = this.keptVisible();
    if (kept && kept.catalog === catalog && kept.config === config && kept.focus === focus) return kept;
    // Groups enabled and tools discovered never widen a token's boundary.
    const tools = visibleTools(catalog, config, this.focus).filter((tool) => withinBoundary(config, this.boundary, tool));
    const set = { catalog, config, focus, tools, ids: new Set(tools.map((tool) => tool.id)) };
    this.keepVisible(set);
    return set;
  }
}
