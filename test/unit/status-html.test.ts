import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProject } from '../../src/project.js';
import { statusHtml } from '../../src/report/html.js';
import { statusReport } from '../../src/tokens/report.js';
import { CATALOGS, tempTree } from '../harness/index.js';

/**
 * `lazytools status --html` read as a person reads it, on the 966 real-world tools (about
 * 160,000 tokens listed in `all`) where each preset mode fits a budget of 4,000 to 8,000 tokens.
 */
let built: ReturnType<typeof build> | undefined;
const page = () => (built ??= build());

async function build() {
  const project = await openProject({ catalogs: [path.join(CATALOGS, 'real-world.json')], cwd: tempTree({ 'package.json': '{}' }) });
  const report = statusReport(project.catalog, project.config);
  return { html: statusHtml(project.catalog, project.config, report), report };
}

const section = (html: string, mode: string) => new RegExp(`<section class="mode \\w+" data-mode="${mode}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';

describe('status --html', () => {
  it('says of a mode without a budget neither "within budget" nor "does not fit"', async () => {
    const { html } = await page();
    const all = section(html, 'all');
    expect(all).toContain('no budget');
    expect(all).not.toMatch(/within budget|over budget|does not fit/);
  });

  it('scales each bar to its mode, so an 8,000-token mode of a 160,000-token catalog fills its bar', async () => {
    const { html, report } = await page();
    const development = report.modes.find((mode) => mode.name === 'development');
    // The budget in force: the preset's 8,000, grown on this catalog toward its maxBudget.
    const budget = development?.budget ?? 0;
    expect(budget).toBeGreaterThanOrEqual(8000);
    expect(report.modes.find((mode) => mode.name === 'all')?.tokens).toBeGreaterThan(100_000);
    const bar = /<div class="bar" data-kind="server">([\s\S]*?)<\/div><\/div>/.exec(section(html, 'development'))?.[1] ?? '';
    const widths = [...bar.matchAll(/class="seg" style="width:([\d.]+)%/g)].map((m) => Number(m[1]));
    const filled = widths.reduce((sum, width) => sum + width, 0);
    expect(filled).toBeCloseTo(((development?.tokens ?? 0) / budget) * 100, 0);
    expect(filled).toBeGreaterThan(50);
  });

  it('names every segment in full in a legend with its tokens, where a narrow segment would cut it', async () => {
    const { html, report } = await page();
    for (const mode of report.modes.filter((m) => m.budget !== null)) {
      const body = section(html, mode.name);
      const legend = /<ul class="legend" data-kind="server">([\s\S]*?)<\/ul>/.exec(body)?.[1] ?? '';
      const servers = new Set(mode.toolIds.map((id) => id.slice(0, id.indexOf(':'))));
      expect(servers.size, mode.name).toBeGreaterThan(1);
      for (const server of servers) expect(legend, `${mode.name}: ${server}`).toMatch(new RegExp(`</i>${server.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} [\\d,]+</li>`));
      // Segments carry no text of their own (a tooltip names them).
      expect(body).not.toMatch(/class="seg"[^>]*>[^<]/);
    }
  });
});

describe('status --html group bars', () => {
  it('labels a listed tool outside the mode\'s groups by why it is listed, "(always visible)" only for alwaysVisible', async () => {
    const cwd = tempTree({ 'package.json': '{}' });
    const base = await openProject({ catalogs: [path.join(CATALOGS, 'real-world.json')], cwd });
    const salesGroups = base.config.modes.sales?.groups ?? [];
    const outside = base.catalog.tools.find((tool) => !tool.groups.some((group) => salesGroups.includes(group)));
    expect(outside).toBeDefined();
    const legend = (html: string, mode: string) => /<ul class="legend" data-kind="group">([\s\S]*?)<\/ul>/.exec(section(html, mode))?.[1] ?? '';
    // Fill lists tools no group of the mode holds; the rc makes none always visible.
    const plain = statusHtml(base.catalog, base.config, statusReport(base.catalog, base.config));
    expect(plain.includes('(always visible)'), 'no rc alwaysVisible').toBe(false);
    const filled = statusReport(base.catalog, base.config).modes.filter((mode) => legend(plain, mode.name).includes('(outside its groups)'));
    expect(filled.length).toBeGreaterThan(0);
    const rc = { alwaysVisible: [outside?.id ?? ''] };
    const project = await openProject({ catalogs: [path.join(CATALOGS, 'real-world.json')], cwd: tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify(rc) }) });
    const html = statusHtml(project.catalog, project.config, statusReport(project.catalog, project.config));
    expect(legend(html, 'sales')).toMatch(/<\/i>\(always visible\) [\d,]+<\/li>/);
  });
});
