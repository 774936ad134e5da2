import { sumTokens, type Catalog, type CatalogTool, type ToolDefinition } from '../catalog/catalog.js';
import { ownTools, type ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { listedTools } from '../focus/visible.js';
import { modeFit, type HeldBack } from '../focus/fit.js';
import { servedStrategy } from '../focus/scope.js';
import { countToolsTokens } from '../util/tokens.js';

/**
 * What one client list holds against the whole catalog. The contract (README, CLI: `status`): `tools` and
 * `tokens` are what the client receives in that mode under that strategy, so under `proxy` they
 * count the constant meta-tool list (plus `alwaysVisible` tools), not the mode's tools, which the
 * client reaches through execute_tool.
 */
export interface ListStatus {
  /** Catalog tools in the list (lazytools' own tools not included). */
  tools: number;
  totalTools: number;
  /** Tokens of everything the client receives: listed catalog tools plus lazytools' own tools. */
  tokens: number;
  /** Tokens of every catalog tool. */
  totalTokens: number;
  /** 1 - tokens / totalTokens, in 0..1 (0 also when lazytools' own tools cost more than they save: compare `tokens` with `totalTokens`). */
  reduction: number;
}

/**
 * The one status computation: `lazytools status` and `check` (through `statusReport`) and the
 * focus_mode tool (for a live session) all count a list with it, so they cannot disagree.
 */
export function listStatus(catalog: Catalog, listed: readonly CatalogTool[], own: readonly ToolDefinition[]): ListStatus {
  const tokens = countToolsTokens(own, catalog.tokenizer) + sumTokens(listed);
  return {
    tools: listed.length,
    totalTools: catalog.tools.length,
    tokens,
    totalTokens: catalog.totalTokens,
    reduction: reduction(tokens, catalog.totalTokens),
  };
}

/** One row of `lazytools status --json` (the shape is a contract: the README, CLI, `status`). */
export interface ModeStatus extends ListStatus {
  name: string;
  /** Tokens of lazytools' own tools for the strategy, included in `tokens`. */
  ownTokens: number;
  budget: number | null;
  withinBudget: boolean;
  toolNames: string[];
  /** `server:tool` ids of the same tools, in the same order (stable across exposed-name prefixes). */
  toolIds: string[];
  /** Tokens per group of the mode, most expensive first (for `check` output). */
  groupTokens: Array<{ group: string; tokens: number }>;
  /** True when the mode is fitted to its budget (it has one, and rc `fit` is not false). */
  fit: boolean;
  /** Tools of the mode its list leaves out to stay within budget, highest priority first (reachable through search_tools and execute_tool). */
  heldBack: HeldBack[];
  heldBackTokens: number;
  /** Tokens of the tools fitting never holds back (pinned, `alwaysVisible`). */
  pinnedTokens: number;
}

export interface StatusReport {
  modes: ModeStatus[];
}

/**
 * Tools and tokens each mode puts in front of the model, against the whole catalog.
 *
 * @example
 * const report = statusReport(catalog, config);
 * for (const mode of report.modes) console.log(mode.name, mode.tokens, mode.withinBudget);
 */
export function statusReport(catalog: Catalog, config: ResolvedConfig, strategy: ServedStrategy = servedStrategy(config.strategy)): StatusReport {
  const modes = Object.values(config.modes);
  const own = ownTools(strategy, modes);
  const ownTokens = countToolsTokens(own, catalog.tokenizer);
  return {
    modes: modes.map((mode) => {
      const listed = listedTools(catalog, config, { mode: mode.name, enabled: [], disabled: [], discovered: [] }, strategy);
      const fitted = modeFit(catalog, config, mode.name);
      // Under proxy no mode tool is listed: nothing is held back, everything is one execute_tool away.
      const heldBack = strategy === 'proxy' ? [] : [...(fitted?.heldBack ?? [])];
      const figures = listStatus(catalog, listed, own);
      const budget = fitted?.budget ?? mode.budget ?? null;
      const groupTokens = modeGroupTokens(mode.groups, listed);
      return {
        name: mode.name,
        ...figures,
        ownTokens,
        budget,
        withinBudget: budget === null || figures.tokens <= budget,
        toolNames: listed.map((tool) => tool.exposedName),
        toolIds: listed.map((tool) => tool.id),
        groupTokens,
        fit: fitted?.fit ?? false,
        heldBack,
        heldBackTokens: heldBack.reduce((sum, tool) => sum + tool.tokens, 0),
        pinnedTokens: (fitted?.pinnedTokens ?? 0) + ownTokens,
      };
    }),
  };
}

/**
 * Tokens per group of the mode (each listed tool counted once in every mode group it is in), most
 * expensive first, ties in the mode's order. One pass over the listed tools' groups: filtering the
 * list once per mode group, with `includes` on each tool's groups, was groups x tools x groups
 * (`check` on 5,000 groups that each hold all of 3,000 tools ran for minutes).
 */
function modeGroupTokens(groups: readonly string[], listed: readonly CatalogTool[]): Array<{ group: string; tokens: number }> {
  const tokens = new Map<string, number>(groups.map((group) => [group, 0]));
  // A tool names each of its groups once (one placement per compiled group, in config order).
  for (const tool of listed) {
    for (const group of tool.groups) {
      const sum = tokens.get(group);
      if (sum !== undefined) tokens.set(group, sum + tool.tokens);
    }
  }
  return groups.map((group) => ({ group, tokens: tokens.get(group) ?? 0 })).sort((a, b) => b.tokens - a.tokens);
}

/** 1 - part / whole, clamped to 0..1 and rounded to 4 places. */
export function reduction(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round(Math.min(1, Math.max(0, 1 - part / whole)) * 10_000) / 10_000;
}

/**
 * The change a list makes against the whole catalog, in words that never hide an increase:
 * "90.4% fewer", or "adds 393 tokens" when lazytools' own tools cost more than the mode saves.
 */
export function tokenChange(part: number, whole: number): string {
  if (part > whole) return `adds ${part - whole} tokens: lazytools' own tools cost more than this mode saves`;
  return `${((whole <= 0 ? 0 : 1 - part / whole) * 100).toFixed(1)}% fewer`;
}

