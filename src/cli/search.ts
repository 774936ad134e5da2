import { existsSync } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { resolveConfig } from '../config/resolve.js';
import { resolveIntent, unclearIntentText } from '../search/intent.js';
import { MAX_QUERIES } from '../catalog/own-args.js';
import { catalogIndex } from '../search/catalog-index.js';
import { correctionsNote, queryCorrections } from '../search/text.js';
import { openProject } from '../project.js';
import { lockPath } from '../catalog/lock-path.js';
import { resolveIntentIn } from '../focus/intent-catalog.js';
import { taskTools } from '../focus/task-tools.js';
import { modeFit } from '../focus/fit.js';
import { capText } from '../util/bounds.js';
import { oneLine } from '../util/redact.js';
import { defineCommand, intFlag, type FlagSpecs, UsageError } from './args.js';
import type { Command } from './io.js';
import { projectOptions } from './status.js';
import { denseFor } from './embeddings.js';

/** Characters of the queries a search that found nothing repeats (cut on a whole character). */
const QUERY_ECHO = 200;

const searchFlags = {
  ...projectOptions,
  query: { type: 'string', multiple: true, value: 'Q', help: 'one more query: one per step of a task, the rankings merged' },
  limit: { type: 'string', value: 'N', help: 'how many results (default 5)' },
  json: { type: 'boolean', help: '[{"name","server","tool","score","summary"}], best first' },
} as const satisfies FlagSpecs;

/** `lazytools search`: the catalog searched offline as search_tools searches it, what it corrected said beside the rows. */
export const searchCommand: Command = defineCommand('search', searchFlags, { args: '[QUERY]' }, async ({ values, positionals }, io) => {
  const queries = [positionals.join(' '), ...(values.query ?? [])].map((q) => q.trim()).filter((q) => q !== '');
  if (queries.length === 0) throw new UsageError('expected a QUERY, e.g. lazytools search "leaked credentials" --catalog tools.json');
  if (queries.length > MAX_QUERIES) throw new UsageError(`at most ${MAX_QUERIES} queries (QUERY and --query), one per step of a task`);
  const limit = intFlag(values.limit, 'limit', 5);
  const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
  const dense = await denseFor(project.catalog, project.config, queries, io);
  const index = catalogIndex(project.catalog);
  const hits = index.searchMany(queries, { limit, dense });
  const rows = hits.map(({ tool, score }) => ({ name: tool.exposedName, server: tool.server, tool: tool.name, score, summary: tool.summary }));
  if (values.json) io.out(JSON.stringify(rows, null, 2));
  else if (rows.length === 0) io.out(`no tools match "${oneLine(capText(queries.join('; '), QUERY_ECHO, 'query'))}"`);
  else {
    const width = Math.max(...rows.map((r) => r.name.length));
    io.out(rows.map((r) => `${r.name.padEnd(width)}  ${r.score.toFixed(2).padStart(6)}  [${r.server}] ${r.summary}`).join('\n'));
  }
  // What search corrected goes beside the rows, never into --json's array (a script reads that).
  const corrected = correctionsNote(queryCorrections(queries, (word) => index.correction(word)));
  if (corrected !== '' && values.json) io.err(`(${corrected})`);
  else if (corrected !== '') io.out(`(${corrected})`);
  return 0;
});

/** Characters of the mode list an unclear phrase prints: whole lines, then how many more (an rc of 3,000 modes printed 218 KB). */
const UNCLEAR_LIST_CHARS = 6_000;

const modeFlags = {
  ...projectOptions,
  json: { type: 'boolean', help: '{"mode","confidence","alternatives","taskTools"?}; mode is null when the phrase is not clear enough,\ntaskTools (with a catalog) the tools focus_mode would add for the task' },
} as const satisfies FlagSpecs;

/** `lazytools mode`: the mode a phrase picks (with the catalog's evidence when one is at hand), or the modes to name instead. */
export const modeCommand: Command = defineCommand('mode', modeFlags, { args: 'PHRASE' }, async ({ values, positionals }, io) => {
  const phrase = positionals.join(' ').trim();
  if (phrase === '') throw new UsageError('expected a PHRASE, e.g. lazytools mode "time for a security audit"');
  const { config: rc, file } = await loadConfig({ file: values.config, cwd: io.cwd });
  // With a catalog (--catalog, or the lock beside the rc), the tools the phrase finds weigh in.
  const project = values.catalog !== undefined || existsSync(lockPath(file, io.cwd)) ? await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd }) : undefined;
  const config = project?.config ?? resolveConfig(rc, file);
  const modes = Object.values(config.modes);
  const index = project ? catalogIndex(project.catalog) : undefined;
  const match = project && index ? resolveIntentIn(phrase, modes, project.catalog, config, index) : resolveIntent(phrase, modes);
  // With a catalog, the tools focus_mode would bring for the task beside the ones the mode shows.
  const shown = project && match.mode !== null ? modeFit(project.catalog, config, match.mode)?.shownIds : undefined;
  const forTask = index && match.mode !== null ? taskTools(index, config, match.mode, undefined, phrase, (tool) => !shown?.has(tool.id)).map((tool) => tool.exposedName) : undefined;
  if (values.json) io.out(JSON.stringify(forTask ? { ...match, taskTools: forTask } : match, null, 2));
  else if (match.mode) {
    io.out(`${match.mode} (confidence ${match.confidence})${match.alternatives.length > 0 ? `; also: ${match.alternatives.map((a) => a.mode).join(', ')}` : ''}`);
    if (forTask && forTask.length > 0) io.out(`for this task: ${forTask.join(', ')}`);
  }
  else io.out(`${unclearIntentText(phrase, match, Object.values(config.modes), UNCLEAR_LIST_CHARS)}\nThen run: lazytools mode "<mode name or clearer phrase>"`);
  return 0;
});
