import { idMatcher, type Catalog, type CatalogTool } from '../catalog/catalog.js';
import { placementReport } from '../catalog/explain.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { ModeStatus, StatusReport } from '../tokens/report.js';
import { own } from '../util/own.js';
import { REPORT_CSS, REPORT_SCRIPT } from './html-assets.js';

/** A tool a budget-fitted mode keeps out of its list (typed optional: older reports have none). */
interface HeldBack {
  id: string;
  name: string;
  tokens: number;
  reason: string;
}

/** A status row, with the budget-fitting fields when the report has them. */
type ModeRow = ModeStatus & { fit?: boolean; heldBack?: HeldBack[]; heldBackTokens?: number };

/** One segment of a mode's bar: a server's (or group's) share of the tokens the mode lists. */
interface Segment {
  key: string;
  tokens: number;
}

/**
 * `lazytools status --html`: one self-contained page (inline CSS and script, no fetch of any kind)
 * a person reads at a glance: per mode a bar of tokens stacked by server and by group with the
 * budget line, the tools held back and the tools no mode shows with their reasons, and a search
 * box over the catalog. Text from tools (names, descriptions) only reaches the page escaped: in
 * HTML through `escapeHtml`, in the embedded JSON through `scriptJson`, and the script writes it
 * with `textContent`.
 */
export function statusHtml(catalog: Catalog, config: ResolvedConfig, report: StatusReport, title = 'lazytools modes'): string {
  const byId = new Map(catalog.tools.map((tool) => [tool.id, tool]));
  const modes = report.modes as ModeRow[];
  const placement = placementReport(catalog, config);
  const unplaced = placement.tools.filter((tool) => tool.unplaced !== undefined).map((tool) => ({ id: tool.id, reason: tool.unplaced ?? '' }));
  const modesOf = new Map(placement.tools.map((tool) => [tool.id, tool.modes]));
  const data = {
    catalog: catalog.tools.map((tool) => ({ id: tool.id, name: tool.exposedName, server: tool.server, tokens: tool.tokens, summary: tool.summary, groups: tool.groups, modes: modesOf.get(tool.id) ?? [] })),
  };
  const sections = modes.map((mode) => modeSection(mode, byId, config));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="summary">${catalog.tools.length} tools, ${catalog.totalTokens.toLocaleString('en-US')} tokens in the catalog; ${modes.length} modes. Bars: tokens each mode lists (lazytools' own tools included), by server and by group, each scaled to its mode's budget (or its tokens, when more or without one); the line marks the budget.</p>
${sections.join('\n')}
<section id="unplaced">
<h2>Tools no mode shows but "all" (${unplaced.length})</h2>
${unplaced.length === 0 ? '<p>Every tool is in a mode other than "all".</p>' : `<ul>${unplaced.map((tool) => `<li><code>${escapeHtml(tool.id)}</code>: ${escapeHtml(tool.reason)}</li>`).join('')}</ul>`}
</section>
<section id="search">
<h2>Catalog</h2>
<input id="q" type="search" placeholder="Search ${catalog.tools.length} tools by name, server, group or summary" autocomplete="off">
<p id="count"></p>
<table><thead><tr><th>tool</th><th>server</th><th>tokens</th><th>groups</th><th>modes</th><th>summary</th></tr></thead><tbody id="rows"></tbody></table>
</section>
<script type="application/json" id="data">${scriptJson(data)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * One mode: its figures, its two stacked bars with the budget line, and what it holds back. Each
 * bar is scaled to its own mode (its budget, or its tokens when more or without one): against the
 * whole catalog, an 8,000-token mode of a 100,000-token catalog was a sliver.
 */
function modeSection(mode: ModeRow, byId: ReadonlyMap<string, CatalogTool>, config: ResolvedConfig): string {
  const scale = Math.max(1, mode.tokens, mode.budget ?? 0);
  const listed = mode.toolIds.map((id) => byId.get(id)).filter((tool): tool is CatalogTool => tool !== undefined);
  const ownSegment: Segment = { key: 'lazytools (own tools)', tokens: mode.ownTokens };
  const servers = [...sumBy(listed, (tool) => tool.server), ownSegment];
  const groupOrder = own(config.modes, mode.name)?.groups ?? [];
  // A tool in several groups counts once, in the first of the mode's groups that holds it; one in
  // none of them is listed for a reason of its own (fill and calls add tools no group holds).
  const always = idMatcher(config.alwaysVisible);
  const pinned = idMatcher(own(config.modes, mode.name)?.pin ?? []);
  const outside = (tool: CatalogTool) => (always(tool.id) ? '(always visible)' : pinned(tool.id) || own(config.tools, tool.id)?.pin === true ? '(pinned)' : '(outside its groups)');
  const groups = [...sumBy(listed, (tool) => groupOrder.find((group) => tool.groups.includes(group)) ?? outside(tool)), ownSegment];
  const budget = mode.budget === null ? '' : `<div class="budget" style="left:${pct(mode.budget, scale)}" title="budget ${mode.budget}"></div>`;
  const status = mode.withinBudget ? 'ok' : 'over';
  const held = mode.heldBack ?? [];
  const verdict = mode.budget === null ? '' : ` <b class="${status}">${mode.withinBudget ? 'within budget' : 'over budget'}</b>${fitting(mode, held.length)}`;
  const heldList = held.length === 0 ? '' : `<details class="held"><summary>${held.length} tools held back (${(mode.heldBackTokens ?? 0).toLocaleString('en-US')} tokens)</summary><ul>${held.map((tool) => `<li><code>${escapeHtml(tool.name)}</code> ${tool.tokens} tokens: ${escapeHtml(tool.reason)}</li>`).join('')}</ul></details>`;
  return `<section class="mode ${status}" data-mode="${escapeHtml(mode.name)}">
<h2>${escapeHtml(mode.name)} <span class="figures">${mode.tools}/${mode.totalTools} tools, ${mode.tokens.toLocaleString('en-US')} tokens${mode.budget === null ? ', no budget' : ` of ${mode.budget.toLocaleString('en-US')}`}${verdict}</span></h2>
${bar('server', servers, scale, budget)}
${bar('group', groups, scale, budget)}
${heldList}
</section>`;
}

/** How budget fitting shaped a budgeted mode's list (a mode without a budget is not fitted). */
function fitting(mode: ModeRow, held: number): string {
  if (mode.fit === false) return ', every tool shown ("fit": false)';
  return held > 0 ? `, fitted by holding ${held} back` : '';
}

/**
 * A stacked bar, one segment per key (widths against `scale`), and its legend: every label in
 * full beside its color and tokens, where a narrow segment would cut it ("atla", "gitl").
 */
function bar(kind: string, segments: readonly Segment[], scale: number, budget: string): string {
  const shown = segments.filter((segment) => segment.tokens > 0);
  const parts = shown.map((segment) => `<span class="seg" style="width:${pct(segment.tokens, scale)};background:${color(segment.key)}" title="${escapeHtml(`${segment.key}: ${segment.tokens} tokens`)}"></span>`);
  const legend = shown.map((segment) => `<li><i style="background:${color(segment.key)}"></i>${escapeHtml(segment.key)} ${segment.tokens.toLocaleString('en-US')}</li>`);
  return `<div class="row"><span class="label">by ${kind}</span><div class="bar" data-kind="${kind}">${parts.join('')}${budget}</div></div>
<ul class="legend" data-kind="${kind}">${legend.join('')}</ul>`;
}

/** Tokens summed per key, most first. */
function sumBy(tools: readonly CatalogTool[], key: (tool: CatalogTool) => string): Segment[] {
  const sums = new Map<string, number>();
  for (const tool of tools) sums.set(key(tool), (sums.get(key(tool)) ?? 0) + tool.tokens);
  return [...sums].map(([name, tokens]) => ({ key: name, tokens })).sort((a, b) => b.tokens - a.tokens || a.key.localeCompare(b.key));
}

function pct(part: number, whole: number): string {
  return `${Math.min(100, (part / whole) * 100).toFixed(2)}%`;
}

/** A stable color per name, so a server keeps its color across modes. */
function color(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${hash % 360} 55% 62%)`;
}

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON safe inside `<script type="application/json">`: no `<` (so no `</script>` or `<!--`), no
 * `>` or `&`, and no U+2028/U+2029; `JSON.parse` reads the escapes back as the same text.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
