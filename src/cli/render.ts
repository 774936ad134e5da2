import type { ModeStatus } from '../tokens/report.js';

/**
 * Human table of mode status rows. The reduction is signed (negative when lazytools' own tools
 * cost more than the mode saves) and the bar shows the share of the catalog's tool tokens kept.
 */
export function statusTable(rows: readonly ModeStatus[]): string {
  const header = ['mode', 'tools', 'tokens', 'reduction', 'budget', '', 'catalog kept'];
  const lines = rows.map((row) => [
    row.name,
    `${row.tools}/${row.totalTools}`,
    `${row.tokens}/${row.totalTokens}`,
    percent(signedReduction(row)),
    row.budget === null ? '-' : String(row.budget),
    row.withinBudget ? 'ok' : 'OVER',
    bar(row.totalTokens > 0 ? (row.tokens - row.ownTokens) / row.totalTokens : 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(i === cells.length - 1 ? 0 : (widths[i] ?? 0)))).join('  ').trimEnd();
  return [format(header), ...lines.map(format), '', legend(rows)].join('\n');
}

/** Markdown table of mode status rows (for PR comments and docs). */
export function statusMarkdown(rows: readonly ModeStatus[]): string {
  const out = ['| mode | tools | tokens | reduction | budget | within budget |', '| --- | ---: | ---: | ---: | ---: | :---: |'];
  for (const row of rows)
    out.push(`| ${row.name} | ${row.tools}/${row.totalTools} | ${row.tokens}/${row.totalTokens} | ${percent(signedReduction(row))} | ${row.budget ?? '-'} | ${row.withinBudget ? 'yes' : '**no**'} |`);
  return [...out, '', legend(rows)].join('\n');
}

/** What the token column adds up, so `30011/29579` on the `all` row reads as what it is. */
function legend(rows: readonly ModeStatus[]): string {
  const own = rows[0]?.ownTokens ?? 0;
  const total = rows[0]?.totalTokens ?? 0;
  const lines = [`tokens = the mode's tools + lazytools' own tools (${own} tokens), against all ${rows[0]?.totalTools ?? 0} catalog tools (${total} tokens).`];
  if (rows.some((row) => row.tokens > row.totalTokens)) lines.push('A negative reduction means lazytools\' own tools cost more than the mode saves.');
  return lines.join('\n');
}

/** 1 - tokens / totalTokens, negative when the list is larger than the catalog. */
function signedReduction(row: Pick<ModeStatus, 'tokens' | 'totalTokens'>): number {
  return row.totalTokens > 0 ? 1 - row.tokens / row.totalTokens : 0;
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function bar(share: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}
