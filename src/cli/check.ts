import { openProject } from '../project.js';
import { statusReport, type ModeStatus } from '../tokens/report.js';
import { parse, UsageError } from './args.js';
import type { Command } from './io.js';
import { projectOptions } from './status.js';

export const checkCommand: Command = {
  name: 'check',
  usage: `lazytools check [--config F] [--catalog F]... [--format text|github]

  Exit 0 when every mode fits its budget, 1 when one is over, 2 on a usage or config error.
  --format github   print GitHub Actions ::error annotations`,
  async run(argv, io) {
    const { values } = parse(argv, { ...projectOptions, format: { type: 'string' } });
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'github') throw new UsageError(`--format: expected "text" or "github", got "${format}"`);
    const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
    const report = statusReport(project.catalog, project.config);
    const over = report.modes.filter((mode) => !mode.withinBudget);
    const where = project.config.file ?? 'presets';
    for (const mode of report.modes) {
      if (mode.withinBudget) io.out(`ok    ${mode.name}: ${mode.tokens} tokens${mode.budget === null ? ' (no budget)' : ` <= ${mode.budget}`}`);
    }
    for (const mode of over) {
      const message = overMessage(mode);
      if (format === 'github') io.out(`::error file=${where},title=lazytools budget::${message.replace(/\n/g, '%0A')}`);
      else io.out(`OVER  ${message}`);
    }
    if (over.length > 0) {
      io.err(`${over.length} mode(s) over budget: ${over.map((m) => m.name).join(', ')}`);
      return 1;
    }
    return 0;
  },
};

function overMessage(mode: ModeStatus): string {
  const budget = mode.budget ?? 0;
  const excess = mode.tokens - budget;
  const costly = mode.groupTokens
    .slice(0, 3)
    .map((g) => `${g.group} ${g.tokens}`)
    .join(', ');
  return `${mode.name}: ${mode.tokens} tokens, budget ${budget}, over by ${excess} (${((excess / budget) * 100).toFixed(1)}%). Costliest groups: ${costly}`;
}
