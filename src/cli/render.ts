import type { ModeFit } from '../focus/fit.js';
import type { ModeStatus } from '../tokens/report.js';

/**
 * Human table of mode status rows. The reduction is signed (negative when lazytools' own tools
 * cost more than the mode saves) and the bar shows the share of the catalog's tool tokens kept.
 */
export function statusTable(rows: readonly ModeStatus[]): string {
  const header = ['mode', 'tools', 'tokens', 'reduction', 'budget', '', 'held back', 'catalog kept'];
  const lines = rows.map((row) => [
    row.name,
    `${row.tools}/${row.totalTools}`,
    `${row.tokens}/${row.totalTokens}`,
    percent(signedReduction(row)),
    row.budget === null ? '-' : String(row.budget),
    row.withinBudget ? 'ok' : 'OVER',
    heldBackCell(row),
    bar(row.totalTokens > 0 ? (row.tokens - row.ownTokens) / row.totalTokens : 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(i === cells.length - 1 ? 0 : (widths[i] ?? 0)))).join('  ').trimEnd();
  return [format(header), ...lines.map(format), '', legend(rows)].join('\n');
}

/** Markdown table of mode status rows (for PR comments and docs). */
export function statusMarkdown(rows: readonly ModeStatus[]): string {
  const out = ['| mode | tools | tokens | reduction | budget | within budget | held back |', '| --- | ---: | ---: | ---: | ---: | :---: | ---: |'];
  for (const row of rows)
    out.push(
      `| ${row.name} | ${row.tools}/${row.totalTools} | ${row.tokens}/${row.totalTokens} | ${percent(signedReduction(row))} | ${row.budget ?? '-'} | ${row.withinBudget ? 'yes' : '**no**'} | ${heldBackCell(row)} |`,
    );
  return [...out, '', legend(rows)].join('\n');
}

/** What the token column adds up, so `30011/29579` on the `all` row reads as what it is. */
function legend(rows: readonly ModeStatus[]): string {
  const own = rows[0]?.ownTokens ?? 0;
  const total = rows[0]?.totalTokens ?? 0;
  const lines = [`tokens = the mode's tools + lazytools' own tools (${own} tokens), against all ${rows[0]?.totalTools ?? 0} catalog tools (${total} tokens).`];
  if (rows.some((row) => row.heldBack.length > 0))
    lines.push('held back = tools of the mode left out of its list to fit the budget (tokens): search_tools finds them first, execute_tool runs them; `status --explain` says why.');
  if (rows.some((row) => row.tokens > row.totalTokens)) lines.push('A negative reduction means lazytools\' own tools cost more than the mode saves.');
  return lines.join('\n');
}

/** 1 - tokens / totalTokens, negative when the list is larger than the catalog. */
function signedReduction(row: Pick<ModeStatus, 'tokens' | 'totalTokens'>): number {
  return row.totalTokens > 0 ? 1 - row.tokens / row.totalTokens : 0;
}

/** "310 (115234t)", or "-" when the mode shows all its tools. */
function heldBackCell(row: Pick<ModeStatus, 'heldBack' | 'heldBackTokens'>): string {
  return row.heldBack.length === 0 ? '-' : `${row.heldBack.length} (${row.heldBackTokens}t)`;
}

/**
 * One mode's fitting, tool by tool in priority order: shown (+) or held back (-), tokens,
 * priority, the reason, and the signals behind the priority.
 */
export function explainFit(fitted: ModeFit): string {
  const head = fitted.fit
    ? `${fitted.mode}: budget ${fitted.budget}${fitted.shared ? " (this small catalog's share: the modes together stay 85.5% below it)" : ''}, lazytools' own tools ${fitted.ownTokens} tokens; ${fitted.shown.length} shown, ${fitted.heldBack.length} held back (${fitted.heldBackTokens} tokens)`
    : `${fitted.mode}: not fitted (${fitted.budget === undefined ? 'no budget' : '"fit": false'}); every tool shown`;
  const lines = fitted.ranked.map((entry) => `  ${entry.shown ? '+' : '-'} ${entry.tool.exposedName} ${entry.tool.tokens}t  ${entry.reason}${entry.why.length > 0 ? `  [${entry.why.join(', ')}]` : ''}`);
  return [head, ...lines].join('\n');
}

/** One tool of explainFitJson: the line explainFit prints, as fields. */
export interface ExplainedTool {
  id: string;
  name: string;
  shown: boolean;
  tokens: number;
  priority: number;
  reason: string;
  why: string[];
}

/**
 * explainFit as data, for `status --explain --json`: the explanation goes in the JSON on stdout
 * (it went to stderr as text, where a script reading the JSON never looked).
 */
export function explainFitJson(fitted: ModeFit): { mode: string; fit: boolean; budget: number | null; ownTokens: number; shown: number; heldBack: number; heldBackTokens: number; tools: ExplainedTool[] } {
  return {
    mode: fitted.mode,
    fit: fitted.fit,
    budget: fitted.budget ?? null,
    ownTokens: fitted.ownTokens,
    shown: fitted.shown.length,
    heldBack: fitted.heldBack.length,
    heldBackTokens: fitted.heldBackTokens,
    tools: fitted.ranked.map((entry) => ({ id: entry.tool.id, name: entry.tool.exposedName, shown: entry.shown, tokens: entry.tool.tokens, priority: entry.priority, reason: entry.reason, why: [...entry.why] })),
  };
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function bar(share: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}
