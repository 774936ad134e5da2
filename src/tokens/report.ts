import { sumTokens, type Catalog } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { proxyListedTools, visibleTools } from '../focus/visible.js';
import { ownTools, type ServedStrategy } from '../catalog/own-tools.js';
import { countToolTokens } from '../util/tokens.js';

/** One row of `lazytools status --json` (the shape is a contract, see design.md). */
export interface ModeStatus {
  name: string;
  /** Catalog tools the mode shows (lazytools' own tools not included). */
  tools: number;
  totalTools: number;
  /** Tokens of everything the client receives: visible tools plus lazytools' own tools. */
  tokens: number;
  /** Tokens of every catalog tool. */
  totalTokens: number;
  /** 1 - tokens / totalTokens, in 0..1. */
  reduction: number;
  budget: number | null;
  withinBudget: boolean;
  toolNames: string[];
  /** Tokens per group of the mode, most expensive first (for `check` output). */
  groupTokens: Array<{ group: string; tokens: number }>;
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
export function statusReport(catalog: Catalog, config: ResolvedConfig, strategy: ServedStrategy = servedStrategy(config)): StatusReport {
  const modes = Object.values(config.modes);
  const own = ownTools(strategy, modes);
  const ownTokens = own.reduce((sum, tool) => sum + countToolTokens(tool, config.tokenizer), 0);
  return {
    modes: modes.map((mode) => {
      const focus = { mode: mode.name, enabled: [], disabled: [], discovered: [] };
      const visible = strategy === 'proxy' ? proxyListedTools(catalog, config, mode.name) : visibleTools(catalog, config, focus);
      const tokens = sumTokens(visible) + ownTokens;
      const budget = mode.budget ?? null;
      const groupTokens = mode.groups
        .map((group) => ({ group, tokens: sumTokens(visible.filter((tool) => tool.groups.includes(group))) }))
        .sort((a, b) => b.tokens - a.tokens);
      return {
        name: mode.name,
        tools: visible.length,
        totalTools: catalog.tools.length,
        tokens,
        totalTokens: catalog.totalTokens,
        reduction: reduction(tokens, catalog.totalTokens),
        budget,
        withinBudget: budget === null || tokens <= budget,
        toolNames: visible.map((tool) => tool.exposedName),
        groupTokens,
      };
    }),
  };
}

/** 1 - part / whole, clamped to 0..1 and rounded to 4 places. */
export function reduction(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round(Math.min(1, Math.max(0, 1 - part / whole)) * 10_000) / 10_000;
}

/** The strategy status reports assume: `auto` counts as `hybrid`, what unknown clients get. */
export function servedStrategy(config: Pick<ResolvedConfig, 'strategy'>): ServedStrategy {
  return config.strategy === 'auto' ? 'hybrid' : config.strategy;
}
