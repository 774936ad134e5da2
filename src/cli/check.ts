import { openProject } from '../project.js';
import { statusReport, type ModeStatus } from '../tokens/report.js';
import { ConfigError } from '../util/errors.js';
import { parse, usageText, UsageError, type FlagSpecs } from './args.js';
import type { Command } from './io.js';
import { projectOptions } from './status.js';

const checkFlags = {
  ...projectOptions,
  format: { type: 'string', value: 'text|github', help: 'text (default), or GitHub Actions ::error annotations (for a config error too)' },
} as const satisfies FlagSpecs;

export const checkCommand: Command = {
  name: 'check',
  usage: usageText('check', checkFlags, { about: 'Exit 0 when every mode fits its budget, 1 when one is over, 2 on a usage or config error.' }),
  async run(argv, io) {
    const { values } = parse(argv, checkFlags);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'github') throw new UsageError(`--format: expected "text" or "github", got "${format}"`);
    let project;
    try {
      project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
    } catch (error) {
      // CI shows annotations, not logs: a config error gets one too (then exit 2 as usual).
      if (format === 'github' && error instanceof ConfigError)
        io.out(`::error ${error.file ? `file=${annotationProperty(error.file)},` : ''}title=lazytools config::${annotationData(error.message)}`);
      throw error;
    }
    const report = statusReport(project.catalog, project.config);
    const over = report.modes.filter((mode) => !mode.withinBudget);
    const where = project.config.file ?? 'presets';
    for (const mode of report.modes) {
      if (mode.withinBudget) io.out(`ok    ${mode.name}: ${mode.tokens} tokens${mode.budget === null ? ' (no budget)' : ` <= ${mode.budget}`}`);
    }
    for (const mode of over) {
      const message = overMessage(mode);
      if (format === 'github') io.out(`::error file=${annotationProperty(where)},title=lazytools budget::${annotationData(message)}`);
      else io.out(`OVER  ${message}`);
    }
    if (over.length > 0) {
      io.err(`${over.length} mode(s) over budget: ${over.map((m) => m.name).join(', ')}`);
      return 1;
    }
    return 0;
  },
};

/** GitHub workflow command escaping (data: %, CR, LF; properties also ':' and ','). */
function annotationData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function annotationProperty(text: string): string {
  return annotationData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function overMessage(mode: ModeStatus): string {
  const budget = mode.budget ?? 0;
  const excess = mode.tokens - budget;
  const costly = mode.groupTokens
    .slice(0, 3)
    .map((g) => `${g.group} ${g.tokens}`)
    .join(', ');
  return `${mode.name}: ${mode.tokens} tokens, budget ${budget}, over by ${excess} (${((excess / budget) * 100).toFixed(1)}%). Costliest groups: ${costly}`;
}
