import { openProject } from '../project.js';
import { statusReport } from '../tokens/report.js';
import { parse, UsageError } from './args.js';
import type { Command } from './io.js';
import { explainFit, statusMarkdown, statusTable } from './render.js';
import { modeFit } from '../focus/fit.js';
import { requireMode } from '../focus/policy.js';

export const projectOptions = {
  config: { type: 'string', short: 'c' },
  catalog: { type: 'string', multiple: true },
} as const;

export const statusCommand: Command = {
  name: 'status',
  usage: `lazytools status [--config F] [--catalog F]... [--json | --markdown] [--explain [--mode M]]

  --config F     rc file (default: discovered .lazytoolsrc*, lazytools.config.*, package.json#lazytools)
  --catalog F    catalog or lock file to read tools from (repeatable)
  --json         {"modes":[{name,tools,totalTools,tokens,totalTokens,reduction,budget,withinBudget,toolNames,toolIds,fit,heldBack:[{id,name,tokens,reason}],heldBackTokens}]}
                 (tools, tokens, toolNames, toolIds: what the mode shows; heldBack: its other tools, highest priority first)
  --markdown     a Markdown table
  --explain      per mode with a budget, every tool by priority: shown or held back, and why
  --mode M       with --explain: only mode M`,
  async run(argv, io) {
    const { values } = parse(argv, { ...projectOptions, json: { type: 'boolean' }, markdown: { type: 'boolean' }, explain: { type: 'boolean' }, mode: { type: 'string' } });
    if (values.mode !== undefined && !values.explain) throw new UsageError('--mode applies to --explain only');
    if (values.json && values.markdown) throw new UsageError('--json and --markdown both choose the output format: pass one of them');
    const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
    for (const warning of project.warnings) io.err(`warning: ${warning}`);
    const report = statusReport(project.catalog, project.config);
    if (values.json) {
      const modes = report.modes.map(({ name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds, fit, heldBack, heldBackTokens }) => ({
        name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds, fit, heldBack, heldBackTokens,
      }));
      io.out(JSON.stringify({ modes }, null, 2));
    } else if (values.markdown) io.out(statusMarkdown(report.modes));
    else io.out(statusTable(report.modes));
    if (values.explain) {
      if (values.mode !== undefined) requireMode(project.config, values.mode);
      const names = values.mode !== undefined ? [values.mode] : report.modes.filter((mode) => mode.budget !== null).map((mode) => mode.name);
      const out = values.json ? io.err : io.out;
      for (const name of names) {
        const fitted = modeFit(project.catalog, project.config, name);
        if (fitted) out(`\n${explainFit(fitted)}`);
      }
    }
    return 0;
  },
};
