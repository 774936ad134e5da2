import type { ModeStatus } from '../tokens/report.js';

/** Human table of mode status rows, with a bar for the share of tokens kept. */
export function statusTable(rows: readonly ModeStatus[]): string {
  const header = ['mode', 'tools', 'tokens', 'reduction', 'budget', '', 'kept'];
  const lines = rows.map((row) => [
    row.name,
    `${row.tools}/${row.totalTools}`,
    `${row.tokens}/${row.totalTokens}`,
    percent(row.reduction),
    row.budget === null ? '-' : String(row.budget),
    row.withinBudget ? 'ok' : 'OVER',
    bar(1 - row.reduction),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(i === cells.length - 1 ? 0 : (widths[i] ?? 0)))).join('  ').trimEnd();
  return [format(header), ...lines.map(format)].join('\n');
}

/** Markdown table of mode status rows (for PR comments and docs). */
export function statusMarkdown(rows: readonly ModeStatus[]): string {
  const out = ['| mode | tools | tokens | reduction | budget | within budget |', '| --- | ---: | ---: | ---: | ---: | :---: |'];
  for (const row of rows)
    out.push(`| ${row.name} | ${row.tools}/${row.totalTools} | ${row.tokens}/${row.totalTokens} | ${percent(row.reduction)} | ${row.budget ?? '-'} | ${row.withinBudget ? 'yes' : '**no**'} |`);
  return out.join('\n');
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function bar(share: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}
