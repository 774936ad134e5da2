import path from 'node:path';
import { openProject } from '../project.js';
import { writeFileWhole } from '../util/private-file.js';
import { statusReport } from '../tokens/report.js';
import { groupsReport, groupsSummary } from '../tokens/groups.js';
import {configFlag, defineCommand, type FlagSpecs, UsageError } from './args.js';
import { type Command, warnLine } from './io.js';
import { checkOutputFile, writeOutputFile } from './output-file.js';
import { explainFit, explainFitJson, statusMarkdown, statusTable } from './render.js';
import { modeFit } from '../focus/fit.js';
import { requireMode } from '../focus/policy.js';

export const projectOptions = {
  config: configFlag,
  catalog: { type: 'string', multiple: true, value: 'F', help: 'catalog or lock file to read tools from (repeatable; default: the lock beside the rc)' },
} as const satisfies FlagSpecs;

const statusFlags = {
  ...projectOptions,
  json: { type: 'boolean', help: '{"modes":[{name,tools,totalTools,tokens,totalTokens,reduction,budget,withinBudget,toolNames,toolIds,\nfit,heldBack:[{id,name,tokens,reason}],heldBackTokens}],"groups":{<mode>:{listTokens,getTokens:{<group>:n}}}}\n(tools, tokens, toolNames, toolIds: what the mode shows; heldBack: its other tools, highest priority\nfirst; groups: what the groups extension\'s groups/list and groups/get answers cost;\nwith --explain, "explain":[{mode,fit,budget,ownTokens,shown,heldBack,heldBackTokens,\ntools:[{id,name,shown,tokens,priority,reason,why}]}])' },
  markdown: { type: 'boolean', help: 'a Markdown table (exclusive with --json)' },
  explain: { type: 'boolean', help: 'per mode with a budget, every tool by priority: shown or held back, and why' },
  mode: { type: 'string', value: 'M', help: 'with --explain: only mode M' },
  html: { type: 'string', value: 'FILE', help: 'also write one self-contained HTML page: per mode a bar of tokens by server and\ngroup with the budget line, held-back and unplaced tools, a search box over the catalog' },
} as const satisfies FlagSpecs;

export const statusCommand: Command = defineCommand('status', statusFlags, {}, async ({ values }, io) => {
  if (values.mode !== undefined && !values.explain) throw new UsageError('--mode applies to --explain only');
  if (values.json && values.markdown) throw new UsageError('--json and --markdown both choose the output format: pass one of them');
  const output = values.html === undefined ? undefined : { flag: '--html', given: values.html, file: path.resolve(io.cwd, values.html), example: 'status.html' };
  if (output) checkOutputFile(output);
  const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
  for (const warning of project.warnings) warnLine(io, warning);
  if (values.mode !== undefined) requireMode(project.config, values.mode);
  const report = statusReport(project.catalog, project.config);
  if (output) {
    const html = (await import('../report/html.js')).statusHtml(project.catalog, project.config, report);
    // Whole, and never through a link at that name (a repository can commit `status.html -> ~/.bashrc`), as lock and init write.
    await writeOutputFile(output, () => writeFileWhole(output.file, html));
    io.err(`wrote ${output.file}`);
  }
  // --explain: every budgeted mode, or only --mode M; an unknown M was refused above.
  const explained = () =>
    (values.mode !== undefined ? [values.mode] : report.modes.filter((mode) => mode.budget !== null).map((mode) => mode.name))
      .map((name) => modeFit(project.catalog, project.config, name))
      .filter((fitted) => fitted !== undefined);
  if (values.json) {
    const modes = report.modes.map(({ name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds, fit, heldBack, heldBackTokens }) => ({
      name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget, toolNames, toolIds, fit, heldBack, heldBackTokens,
    }));
    const groups = Object.fromEntries(groupsReport(project.catalog, project.config).map(({ mode, ...cost }) => [mode, cost]));
    io.out(JSON.stringify({ modes, groups, ...(values.explain ? { explain: explained().map(explainFitJson) } : {}) }, null, 2));
    return 0;
  }
  if (values.markdown) io.out(statusMarkdown(report.modes));
  else io.out(`${statusTable(report.modes)}\n\n${groupsSummary(groupsReport(project.catalog, project.config))}`);
  if (values.explain) for (const fitted of explained()) io.out(`\n${explainFit(fitted)}`);
  return 0;
});
