import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, GITHUB_CATALOG, REFERENCE_CATALOG, tempTree } from '../harness/index.js';

/**
 * `lazytools status --html FILE` renders in a real browser (Debian's chromium,
 * headless) with a bar per mode, the budget lines and a working search box, fetches nothing, and
 * shows tool text as text (a planted `</script><img onerror>` description stays inert).
 */

/** The headless browser: Debian's chromium. `.ci/run` installs it; CI fails without it. */
function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  return undefined;
}
const CHROMIUM = findChromium();
const UNDER_CI = process.env.CI === 'true';
if (!CHROMIUM && !UNDER_CI)
  console.warn('\n*** report-html: SKIPPING the browser checks: no chromium on PATH (apt-get install chromium; .ci/run installs it, and under CI=true this fails) ***\n');

const PLANTED = '</script><img src=x onerror="document.title=\'pwned\'"><!--';
const planted = JSON.stringify({
  servers: { evil: { tools: [{ name: 'inject_probe', description: `Probe ${PLANTED} for secret tokens`, inputSchema: { type: 'object' } }] } },
});

function writeReport(): { file: string; modes: Array<{ name: string; budget: number | null }> } {
  const dir = tempTree({ 'package.json': '{}', 'evil.json': planted });
  const args = ['status', '--catalog', GITHUB_CATALOG, '--catalog', REFERENCE_CATALOG, '--catalog', 'evil.json'];
  const html = spawnSync(process.execPath, [BIN, ...args, '--html', 'report.html'], { cwd: dir, encoding: 'utf8' });
  expect(html.status, html.stderr).toBe(0);
  expect(html.stderr).toContain(`wrote ${path.join(dir, 'report.html')}`);
  const json = spawnSync(process.execPath, [BIN, ...args, '--json'], { cwd: dir, encoding: 'utf8' });
  return { file: path.join(dir, 'report.html'), modes: (JSON.parse(json.stdout) as { modes: Array<{ name: string; budget: number | null }> }).modes };
}

function dumpDom(file: string, query: string): string {
  const url = `${pathToFileURL(file).href}?q=${encodeURIComponent(query)}`;
  const run = spawnSync(CHROMIUM ?? 'chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--dump-dom', url], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('lazytools status --html', () => {
  it('writes one self-contained page: no external reference, tool text escaped', () => {
    const { file } = writeReport();
    const page = readFileSync(file, 'utf8');
    expect(page).not.toMatch(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=/i);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain("Content-Security-Policy\" content=\"default-src 'none'");
    expect(page).not.toContain(PLANTED);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
  });

  it.skipIf(!CHROMIUM && !UNDER_CI)('renders in headless chromium: a bar per mode by server and group, budget lines, a search box that filters', () => {
    expect(CHROMIUM, 'chromium is required under CI=true (.ci/run installs it)').toBeDefined();
    const { file, modes } = writeReport();
    const dom = dumpDom(file, 'secret');
    const sections = [...dom.matchAll(/<section class="mode (?:ok|over)" data-mode="([\w-]+)">([\s\S]*?)<\/section>/g)];
    expect(sections.map((m) => m[1])).toEqual(modes.map((m) => m.name));
    for (const [, name, body = ''] of sections) {
      expect(body.match(/<div class="bar" data-kind="(?:server|group)">/g), name).toHaveLength(2);
      expect((body.match(/class="seg"/g) ?? []).length, name).toBeGreaterThanOrEqual(2);
      const budget = modes.find((m) => m.name === name)?.budget ?? null;
      expect((body.match(/class="budget"/g) ?? []).length, name).toBe(budget === null ? 0 : 2);
    }
    expect(dom).toMatch(/<input id="q" type="search"/);
    // The script ran: the query from the URL filtered the catalog into rows.
    const count = /<p id="count">(\d+) of (\d+) tools/.exec(dom);
    expect(Number(count?.[2])).toBe(155);
    const rows = [...dom.matchAll(/<tr class="tool">([\s\S]*?)<\/tr>/g)].map((m) => m[1] ?? '');
    expect(rows.length).toBe(Number(count?.[1]));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row.toLowerCase()).toContain('secret');
    // The planted description is shown as text: no element was made of it, the title is untouched.
    expect(rows.some((row) => row.includes('inject_probe'))).toBe(true);
    expect(dom).not.toMatch(/<img/i);
    expect(dom).toContain('<title>lazytools modes</title>');
  }, 180_000);
});
