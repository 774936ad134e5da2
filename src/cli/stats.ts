import { loadConfig } from '../config/load.js';
import { resolveConfig } from '../config/resolve.js';
import { readUsage, usagePath } from '../usage/record.js';
import { openProject } from '../project.js';
import { suggestions, usageCounts, type ToolUsage } from '../usage/suggest.js';
import { clipText } from '../util/bounds.js';
import { outsideText } from '../util/redact.js';
import { defineCommand, type FlagSpecs } from './args.js';
import type { Command } from './io.js';
import { projectOptions } from './status.js';

/** Rows of one mode the table prints without --all (its most used tools). */
const ROWS_PER_MODE = 20;
/** Rows the table prints at most without --all: a record of thousands of modes or tools stays a screenful or a few. */
const MAX_ROWS = 200;
/** Suggestions printed at most without --all (the most used tools' first). */
const MAX_SUGGESTIONS = 50;
const statsFlags = {
  ...projectOptions,
  json: { type: 'boolean', help: '{"calls","tools":[{mode,tool,direct,execute_tool,search}],"suggestions"} (every row)' },
  all: { type: 'boolean', help: `print every mode / tool row and suggestion (default: the ${ROWS_PER_MODE} most used of each mode, ${MAX_ROWS} rows and ${MAX_SUGGESTIONS} suggestions at most)` },
} as const satisfies FlagSpecs;

/** Characters of a row's `mode / tool` printed. */
const NAME_CHARS = 200;
/** Characters of one suggestion printed (it names the mode and tool of the record). */
const SUGGESTION_CHARS = 1_000;
/** Characters of a mode or tool name `--json` prints: more than any id lazytools records (a mode name of 64, a tool id of 321), so only a hand-edited one is cut. */
const JSON_NAME_CHARS = 400;

/** A row or suggestion with its record's names cut at JSON_NAME_CHARS (whole characters). */
function clipped<T extends { mode: string; tool: string }>(row: T): T {
  return { ...row, mode: clipText(row.mode, JSON_NAME_CHARS), tool: clipText(row.tool, JSON_NAME_CHARS) };
}

export const statsCommand: Command = defineCommand('stats', statsFlags, {
  about: `Reads .lazytools/usage.jsonl beside the rc file. A tool a mode keeps reaching through
execute_tool or search belongs in one of that mode's groups: stats says which.`,
}, async ({ values }, io) => {
  const { config: rc, file } = await loadConfig({ file: values.config, cwd: io.cwd });
  const config = resolveConfig(rc, file);
  const records = await readUsage(usagePath(file, io.cwd));
  // Without a lock the suggestions go without placement reasons; a --catalog given that cannot be
  // read is the user's mistake, said (exit 2), not silently dropped.
  const catalog = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd }).then(
    (project) => project.catalog,
    (error: unknown) => {
      if (values.catalog !== undefined) throw error;
      return undefined;
    },
  );
  const counts = usageCounts(records);
  const advice = suggestions(counts, config, catalog);
  if (values.json) {
    // The record is a file in the project: a hand-edited megabyte name is cut here as in the table.
    io.out(JSON.stringify({ calls: records.length, tools: counts.map(clipped), suggestions: advice.map((s) => ({ ...clipped(s), message: clipText(s.message, SUGGESTION_CHARS) })) }, null, 2));
    return 0;
  }
  if (records.length === 0) {
    io.out(config.usage ? 'no usage recorded yet' : 'no usage recorded: set "usage": true in the rc file, then use lazytools serve');
    return 0;
  }
  io.out(`${records.length} calls\n\nmode / tool                                  direct  execute  search`);
  const rows = values.all ? counts : topRows(counts);
  // The record is a file in the project, written by whatever wrote it: its names reach a terminal escaped and cut.
  for (const row of rows) io.out(`${outsideText(`${row.mode} / ${row.tool}`, NAME_CHARS).padEnd(44)} ${String(row.direct).padStart(6)} ${String(row.execute_tool).padStart(8)} ${String(row.search).padStart(7)}`);
  if (rows.length < counts.length) io.out(`... and ${counts.length - rows.length} more rows (the ${ROWS_PER_MODE} most used tools of each mode are shown, ${MAX_ROWS} rows at most; --all prints every row, --json gives them all)`);
  const shown = values.all ? advice : advice.slice(0, MAX_SUGGESTIONS);
  if (shown.length > 0) io.out(`\nSuggestions:\n${shown.map((s) => `- ${outsideText(s.message, SUGGESTION_CHARS)}`).join('\n')}`);
  if (shown.length < advice.length) io.out(`... and ${advice.length - shown.length} more suggestions (--all prints every one)`);
  return 0;
});

/** The rows the table prints without --all: each mode's ROWS_PER_MODE most used, MAX_ROWS in all, in the counts' order (most used first). */
function topRows(counts: readonly ToolUsage[]): ToolUsage[] {
  const perMode = new Map<string, number>();
  const out: ToolUsage[] = [];
  for (const row of counts) {
    if (out.length >= MAX_ROWS) break;
    const seen = perMode.get(row.mode) ?? 0;
    if (seen >= ROWS_PER_MODE) continue;
    perMode.set(row.mode, seen + 1);
    out.push(row);
  }
  return out;
}
