import { openProject } from '../project.js';
import { statusReport } from '../tokens/report.js';
import { groupsReport, groupsSummary } from '../tokens/groups.js';
import { parse, UsageError } from './args.js';
import type { Command } from './io.js';
import { statusMarkdown, statusTable } from './render.js';

export const projectOptions = {
  config: { type: 'string', short: 'c' },
  catalog: { type: 'string', multiple: true },
} as const;

export const statusCommand: Command = {
  name: 'status',
  usage: `lazytools status [--config F] [--catalog F]... [--json | --markdown]

  --config F     rc file (default: discovered .lazytoolsrc*, lazytools.config.*, package.json#lazytools)
  --catalog F    catalog or lock file to read tools from (repeatable)
  --json         {"modes":[{name,tools,totalTools,tokens,totalTokens,reduction,budget,withinBudget,toolNames,toolIds}],
                  "groups":{<mode>:{listTokens,getTokens:{<group>:n}}}} (groups/list and groups/get answers)
  --markdown     a Markdown table`,
  async run(argv, io) {
    const { values } = parse(argv, { ...projectOptions, json: { type: 'boolean' }, markdown: { type: 'boolean' } });
    if (values.json && values.markdown) throw new UsageError('--json and --markdown both choose the output format: pass one of them');
    const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
    for (const warning of project.warnings) io.err(`warning: ${warning}`);
    const report = statusReport(project.catalog, project.config);
    if (values.json) {
      const modes = report.modes.map(({ name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds }) => ({
        name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds,
      }));
      const groups = Object.fromEntries(groupsReport(project.catalog, project.config).map(({ mode, ...cost }) => [mode, cost]));
      io.out(JSON.stringify({ modes, groups }, null, 2));
    } else if (values.markdown) io.out(statusMarkdown(report.modes));
    else io.out(`${statusTable(report.modes)}\n\n${groupsSummary(groupsReport(project.catalog, project.config))}`);
    return 0;
  },
};
