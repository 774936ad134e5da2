import { openProject, type Project } from '../project.js';
import { modeFit, type ModeFit } from '../focus/fit.js';
import { statusReport, type ModeStatus } from '../tokens/report.js';
import { signInMessage } from '../upstream/auth/needs-sign-in.js';
import { serversNeedingSignIn } from '../upstream/auth/state.js';
import { ConfigError, echoName } from '../util/errors.js';
import { defineCommand, type FlagSpecs, type Parsed, UsageError } from './args.js';
import { type CliIO, type Command, warnLine } from './io.js';
import { withoutRecordedCounts } from '../util/tokens.js';
import { projectOptions } from './status.js';
import { quotedName } from '../config/secrets.js';

const checkFlags = {
  ...projectOptions,
  format: { type: 'string', value: 'text|github', help: 'text (default), or GitHub Actions ::error annotations (for a config error too)' },
  strict: { type: 'boolean', help: 'exit 1 when an rc server is missing from the lock too (else a warning)' },
} as const satisfies FlagSpecs;

export const checkCommand: Command = defineCommand('check', checkFlags, {
  about: `Exit 0 when every mode fits its budget, 1 when one is over, 2 on a usage or config error.
A mode over its budget holds back its lowest-priority tools (reachable through search_tools);
it is over only with "fit": false or when its pinned tools alone cost more than the budget.
Every definition is counted here, not taken from the lock's recorded counts (a warning says
when those differ).`,
}, async (parsed, io) => {
  // Every definition counted here, the lock's recorded counts unused (util/tokens withoutRecordedCounts):
  // the budget's gate in CI must not pass on a forged or stale `tokens` section.
  const { result, differing } = await withoutRecordedCounts(() => check(parsed.values, io));
  if (differing > 0) warnLine(io, `${differing} token count(s) in the lock differ from what their definitions count (a lock edited by hand, or by another tokenizer version): check counted every definition; run \`lazytools lock\` to record them again`);
  return result;
});

async function check(values: Parsed<typeof checkFlags>['values'], io: CliIO): Promise<number> {
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'github') throw new UsageError(`--format: expected "text" or "github", got "${echoName(format)}"`);
  let project;
  try {
    project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
  } catch (error) {
    // CI shows annotations, not logs: a config error gets one too (then exit 2 as usual).
    if (format === 'github' && error instanceof ConfigError)
      io.out(`::error ${error.file ? `file=${annotationProperty(error.file)},` : ''}title=lazytools config::${annotationData(error.message)}`);
    throw error;
  }
  // A partial lock (lock could not reach a server): those tools are not checked.
  const missing = values.catalog ? [] : missingFromLock(project);
  const signIn = new Set(missing.length > 0 ? serversNeedingSignIn(project.config, io.env).map((state) => state.server) : []);
  for (const server of missing)
    warnLine(
      io,
      signIn.has(server)
        ? `${signInMessage(server)}, then lazytools lock (its tools are not in the lock, so they are not checked)`
        : `server ${quotedName(server)} of ${project.config.file ?? 'the rc'} is not in the lock, so its tools are not checked: run \`lazytools lock\` once it starts`,
    );
  // What status says about the rc (a pin or alwaysVisible glob that pins nothing, tools no group
  // holds): check is where CI reads it.
  for (const warning of project.warnings) warnLine(io, warning);
  const report = statusReport(project.catalog, project.config);
  const over = report.modes.filter((mode) => !mode.withinBudget);
  const where = project.config.file ?? 'presets';
  for (const mode of report.modes) {
    if (mode.withinBudget) io.out(`ok    ${mode.name}: ${mode.tokens} tokens${mode.budget === null ? ' (no budget)' : ` <= ${mode.budget}`}${fitsBy(mode)}`);
  }
  for (const mode of over) {
    const message = overMessage(mode, modeFit(project.catalog, project.config, mode.name));
    if (format === 'github') io.out(`::error file=${annotationProperty(where)},title=lazytools budget::${annotationData(message)}`);
    else io.out(`OVER  ${message}`);
  }
  if (over.length > 0) {
    io.err(`${over.length} mode(s) over budget: ${over.map((m) => m.name).join(', ')}`);
    return 1;
  }
  return values.strict && missing.length > 0 ? 1 : 0;
}

/** Enabled rc servers the lock has no entry for. */
function missingFromLock(project: Project): string[] {
  const locked = new Set(project.sources.map((source) => source.server));
  return Object.entries(project.config.servers)
    .filter(([name, server]) => server.disabled !== true && !locked.has(name))
    .map(([name]) => name)
    .sort();
}

/** GitHub workflow command escaping (data: %, CR, LF; properties also ':' and ','). */
function annotationData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function annotationProperty(text: string): string {
  return annotationData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** ", fits by holding back N tools (T tokens)" for a fitted mode that holds some back. */
function fitsBy(mode: ModeStatus): string {
  if (mode.heldBack.length === 0) return '';
  return `, fits by holding back ${mode.heldBack.length} tool(s) (${mode.heldBackTokens} tokens; search_tools reaches them)`;
}

/** What is over and what to change: unpin (pins alone too costly) or fit/move groups (fit: false). */
function overMessage(mode: ModeStatus, fitted: ModeFit | undefined): string {
  const budget = mode.budget ?? 0;
  const excess = mode.tokens - budget;
  const head = `${mode.name}: ${mode.tokens} tokens, budget ${budget}, over by ${excess} (${((excess / budget) * 100).toFixed(1)}%).`;
  if (fitted?.fit) {
    const pinned = (fitted.ranked ?? []).filter((entry) => entry.shown && /^(pinned|alwaysVisible)/.test(entry.reason));
    const costly = [...pinned].sort((a, b) => b.tool.tokens - a.tool.tokens).slice(0, 3).map((entry) => `${entry.tool.id} ${entry.tool.tokens} (${entry.reason})`);
    return `${head} Pinned and alwaysVisible tools alone cost ${mode.pinnedTokens} tokens with lazytools' own tools: unpin some (costliest: ${costly.join(', ')}), or raise "budget".`;
  }
  const costly = mode.groupTokens
    .slice(0, 3)
    .map((g) => `${g.group} ${g.tokens}`)
    .join(', ');
  return `${head} Costliest groups: ${costly}. Remove "fit": false so the mode holds back its lowest-priority tools, move a costly group to another mode, or raise "budget".`;
}
