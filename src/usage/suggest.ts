import type { Catalog } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { UsageRecord } from './record.js';
import { own } from '../util/own.js';
import { modeMembers } from '../focus/visible.js';

export interface ToolUsage {
  mode: string;
  tool: string;
  direct: number;
  execute_tool: number;
  search: number;
}

export interface Suggestion {
  mode: string;
  tool: string;
  calls: number;
  groups: string[];
  /** Per group in `groups`, why placement put the tool there (the reason `lazytools groups` shows). */
  reasons: string[];
  message: string;
}

/** Counts calls per mode and tool, split by how the call reached the tool. */
export function usageCounts(records: readonly UsageRecord[]): ToolUsage[] {
  const rows = new Map<string, ToolUsage>();
  for (const record of records) {
    const key = `${record.mode}\u0000${record.tool}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { mode: record.mode, tool: record.tool, direct: 0, execute_tool: 0, search: 0 }));
    if (record.via === 'direct' || record.via === 'execute_tool' || record.via === 'search') row[record.via]++;
  }
  return [...rows.values()].sort((a, b) => total(b) - total(a) || a.mode.localeCompare(b.mode) || a.tool.localeCompare(b.tool));
}

/**
 * Tools a mode keeps reaching around its list (execute_tool or after a search) at least
 * `threshold` times belong in one of that mode's groups: suggest the tool's groups.
 */
export function suggestions(counts: readonly ToolUsage[], config: ResolvedConfig, catalog: Catalog | undefined, threshold = 3): Suggestion[] {
  const out: Suggestion[] = [];
  // One member set per mode: a record of thousands of rows must not list a mode's members once per row.
  const members = new Map<string, ReadonlySet<unknown>>();
  // Membership by groups alone (usage weights off), one config object for every mode's fit.
  const byGroups = { ...config, usageWeights: undefined };
  const memberOf = (mode: string, tool: object): boolean => {
    let set = members.get(mode);
    if (!set && catalog) members.set(mode, (set = new Set(modeMembers(catalog, byGroups, { mode, enabled: [], disabled: [], discovered: [] }))));
    return set?.has(tool) ?? false;
  };
  for (const row of counts) {
    const around = row.execute_tool + row.search;
    const mode = own(config.modes, row.mode);
    if (around < threshold || !mode) continue;
    const tool = catalog?.byId.get(row.tool);
    // In the mode by its groups: use alone makes a tool a member only while the calls are recent, a group keeps it.
    const inMode = catalog !== undefined && tool !== undefined && memberOf(row.mode, tool);
    const placements = inMode ? [] : (tool?.placements ?? []).filter((p) => !mode.groups.includes(p.group) && !catalog?.groups.get(p.group)?.catchAll);
    const groups = placements.map((p) => p.group);
    const reasons = placements.map((p) => p.reason);
    const closest = tool && !inMode && groups.length === 0 ? tool.topics.slice(0, 2).map((t) => `${t.topic} ${t.score}`) : [];
    const fix = inMode
      ? `it is already in mode ${row.mode}'s list, so the client called it around a list it did not refresh (it ignores tools/list_changed): nothing to add; serve that client with "strategy": "proxy" (or "auto")`
      : groups.length > 0
        ? `add group ${placements.map((p) => `"${p.group}" (${p.reason})`).join(' or ')} to modes.${row.mode}.groups`
        : catalog === undefined
          ? `add it to a group of mode ${row.mode} (pass --catalog FILE or run \`lazytools lock\` so stats can name the group)`
          : `add "${row.tool}" to a group of mode ${row.mode}${closest.length > 0 ? ` (closest topics: ${closest.join(', ')}; see lazytools groups)` : ''}`;
    out.push({ mode: row.mode, tool: row.tool, calls: around, groups, reasons, message: `${row.mode}: ${row.tool} was reached ${around} times around the list (execute_tool ${row.execute_tool}, after search ${row.search}); ${fix}` });
  }
  return out;
}

function total(row: ToolUsage): number {
  return row.direct + row.execute_tool + row.search;
}
