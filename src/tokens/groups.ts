import type { Catalog } from '../catalog/catalog.js';
import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { callRefusal } from '../focus/policy.js';
import { listedTools, visibleTools } from '../focus/visible.js';
import { buildGroupView, groupResult } from '../focus/group-view.js';
import { offeredModes, withModeGroups } from '../focus/mode-groups.js';
import { countTextTokens } from '../util/tokens.js';
import { servedStrategy } from '../focus/scope.js';

/**
 * What the groups extension (io.modelcontextprotocol/groups) costs a client that negotiates it,
 * per mode: the `groups/list` answer, and each `groups/get` answer (fetched only when the host
 * pulls the group in). Counted with the catalog's tokenizer over the JSON answers lazytools sends
 * a session in that mode on a switchable endpoint (one page of groups/list; every group, nested
 * ones and the modes' navigation groups too).
 */
export interface GroupsCost {
  /** Tokens of the groups/list answer. */
  listTokens: number;
  /** Tokens of each group's groups/get answer, by group name. */
  getTokens: Record<string, number>;
}

/** `lazytools status` groups figures: one entry per mode, in config order. */
export function groupsReport(catalog: Catalog, config: ResolvedConfig, strategy: ServedStrategy = servedStrategy(config.strategy)): Array<{ mode: string } & GroupsCost> {
  // Most modes scope the same groups alike: each distinct answer is counted once (10,000 tools:
  // about 2,000 groups in each of 11 modes took 9.5 s counted afresh per mode).
  const counted = new Map<string, number>();
  const count = (text: string): number => {
    let tokens = counted.get(text);
    if (tokens === undefined) counted.set(text, (tokens = countTextTokens(text, catalog.tokenizer)));
    return tokens;
  };
  // A mode's answers follow from its list and the tools it may call (every mode is offered alike
  // here): modes that list and may call the same tools share one view, built and counted once
  // (2,000 modes of the same groups over 3,000 tools built 2,000 views: 26 s).
  const costs = new Map<string, GroupsCost>();
  const offered = offeredModes(config, { fixedMode: undefined });
  return Object.values(config.modes).map((mode) => {
    const focus = { mode: mode.name, enabled: [], disabled: [], discovered: [] };
    const visible = new Set(visibleTools(catalog, config, focus).map((tool) => tool.id));
    const subject = { mode: mode.name, fixedMode: undefined, inMode: (tool: { id: string }) => visible.has(tool.id) };
    const top = listedTools(catalog, config, focus, strategy);
    const refused = new Set(catalog.tools.filter((tool) => callRefusal(config, subject, tool) !== undefined));
    const key = `${top.map((tool) => tool.id).join('\n')}\u0000${[...refused].map((tool) => tool.id).join('\n')}`;
    let cost = costs.get(key);
    if (!cost) {
      const tools = buildGroupView({ catalog, top, callable: (tool) => !refused.has(tool) });
      const view = withModeGroups(tools, { catalog, config, modes: offered, top });
      const getTokens: Record<string, number> = Object.create(null) as Record<string, number>;
      for (const name of [...view.groups.keys()].sort()) getTokens[name] = count(JSON.stringify(groupResult(view, name)));
      costs.set(key, (cost = { listTokens: count(JSON.stringify({ groups: view.top })), getTokens }));
    }
    return { mode: mode.name, ...cost };
  });
}

/** The text lines `lazytools status` prints under its table. */
export function groupsSummary(report: ReadonlyArray<{ mode: string } & GroupsCost>): string {
  const lines = report.map(({ mode, listTokens, getTokens }) => {
    const gets = Object.entries(getTokens);
    if (gets.length === 0) return `  ${mode}: groups/list ${listTokens} tokens, no groups`;
    const largest = gets.reduce((a, b) => (b[1] > a[1] ? b : a));
    return `  ${mode}: groups/list ${listTokens} tokens (${gets.length} groups); groups/get ${Math.min(...gets.map((g) => g[1]))}-${largest[1]} tokens (largest: ${largest[0]})`;
  });
  return `Groups extension (io.modelcontextprotocol/groups, for clients that negotiate it):\n${lines.join('\n')}`;
}
