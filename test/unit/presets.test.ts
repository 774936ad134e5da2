import { describe, expect, it } from 'vitest';
import { statusReport } from '../../src/tokens/report.js';
import { referenceProject } from '../harness/index.js';

const PRESETS = [
  'all', 'analytics', 'browser_testing', 'code_review', 'communications', 'content', 'customer_support', 'daily_checkin', 'debugging', 'development',
  'infrastructure', 'operations', 'research', 'sales', 'security_review', 'sprint_planning', 'task_management',
];

describe('preset modes on the reference catalogs (154 tools)', async () => {
  const { config, catalog } = await referenceProject();
  const report = statusReport(catalog, config);
  const mode = (name: string) => {
    const row = report.modes.find((m) => m.name === name);
    if (!row) throw new Error(`no mode ${name}`);
    return row;
  };

  it('lists every preset and all sees every tool', () => {
    expect(report.modes.map((m) => m.name)).toEqual(PRESETS);
    expect(mode('all').tools).toBe(154);
  });

  it('security_review holds the security tools and no write tools', () => {
    // Held back to fit the budget is still held: search_tools finds those first.
    const names = [...mode('security_review').toolNames, ...mode('security_review').heldBack.map((tool) => tool.name)];
    for (const tool of [
      'list_code_scanning_alerts', 'get_code_scanning_alert', 'list_dependabot_alerts', 'get_dependabot_alert',
      'list_secret_scanning_alerts', 'get_secret_scanning_alert', 'list_global_security_advisories',
      'get_global_security_advisory', 'list_repository_security_advisories', 'list_org_repository_security_advisories',
    ])
      expect(names).toContain(tool);
    for (const name of names) expect(catalog.byName.get(name)?.readOnly, name).toBe(true);
    expect(names).not.toContain('merge_pull_request');
  });

  it.each(['daily_checkin', 'security_review'])('%s cuts at least 85%% of the tokens', (name) => {
    expect(mode(name).reduction).toBeGreaterThanOrEqual(0.85);
  });

  it.each(PRESETS)('%s fits its own budget', (name) => {
    expect(mode(name).withinBudget).toBe(true);
  });

  it.each(PRESETS)('%s matches its snapshot of tool names and tokens', async (name) => {
    const { tools, tokens, toolNames } = mode(name);
    const snapshot = `${JSON.stringify({ mode: name, tools, tokens, toolNames }, null, 2)}\n`;
    await expect(snapshot).toMatchFileSnapshot(`./__toolsnaps__/${name}.json`);
  });
});
