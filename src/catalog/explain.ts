import type { ResolvedConfig } from '../config/resolve.js';
import type { Catalog, CatalogTool, GroupPlacement } from './catalog.js';
import { PLACEMENT_THRESHOLD } from './placement.js';

/** Why one tool shows where it shows: its groups with reasons, its modes, its write status. */
export interface ToolPlacement {
  id: string;
  name: string;
  /** Groups other than catch-all ones (like `all`), with the reason each matched. */
  groups: GroupPlacement[];
  /** Modes that show the tool (read-only modes only when the tool only reads). */
  modes: string[];
  readOnly: boolean;
  /** `read`, `write` or `unknown`, and why. */
  write: { kind: string; reason: string };
  /** For a tool in no group: the groups it came closest to, `group score` (threshold in `threshold`). */
  closest: string[];
}

export interface PlacementReport {
  threshold: number;
  tools: ToolPlacement[];
  /** Ids of tools in no group but catch-all ones: they show only in modes like `all`. */
  unplaced: string[];
}

/**
 * Explains placement for every tool (or those `filter` keeps): what `lazytools groups` prints,
 * so a user can see why a tool is or is not in a mode and fix it with rc `groups`.
 */
export function placementReport(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'groups'>, filter: (tool: CatalogTool) => boolean = () => true): PlacementReport {
  const byTopic = new Map<string, string[]>();
  for (const [name, group] of Object.entries(config.groups)) for (const topic of group.topics ?? []) byTopic.set(topic, [...(byTopic.get(topic) ?? []), name]);
  const tools = catalog.tools.filter(filter).map((tool): ToolPlacement => {
    const groups = tool.placements.filter((placement) => !catalog.groups.get(placement.group)?.catchAll);
    const modes = Object.values(config.modes)
      .filter((mode) => (!mode.readOnly || tool.readOnly) && mode.groups.some((group) => groups.some((g) => g.group === group)))
      .map((mode) => mode.name);
    const closest: string[] = [];
    if (groups.length === 0)
      for (const score of tool.topics)
        for (const group of byTopic.get(score.topic) ?? []) if (closest.length < 3 && !closest.some((c) => c.startsWith(`${group} `))) closest.push(`${group} ${score.score} (${score.reason})`);
    return { id: tool.id, name: tool.exposedName, groups, modes, readOnly: tool.readOnly, write: { kind: tool.write.kind, reason: tool.write.reason }, closest };
  });
  return { threshold: PLACEMENT_THRESHOLD, tools, unplaced: tools.filter((tool) => tool.groups.length === 0).map((tool) => tool.id) };
}
