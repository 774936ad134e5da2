// Mode quality per stack: for every task set over a captured stack of real servers, how often the
// task's mode shows a tool that starts it, how often search reaches one, what the modes cost, and
// whether the mode picked from the task's own words shows one (and whether any preset does: the
// most picking a mode could reach). The task sets say which split they are ("dev"/"test" halves
// of a tuning set, "blind" for sets nobody tuned on); report blind ones.
//
//   node bench/stacks.mjs [--set NAME]... [--markdown] [--misses]
//
// A task set is test/fixtures/tasks/<name>-tasks.json with a `catalogs` key (files under
// test/fixtures/catalogs); <name>-intents.json beside it holds intent phrases. The older sets
// without a `catalogs` key are mapped below.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalog, parseCatalog, resolveConfig, statusReport } from '../dist/index.js';
import { mergeCatalogs } from '../dist/catalog/file.js';
import { modeFit } from '../dist/focus/fit.js';
import { modeAllows } from '../dist/focus/policy.js';
import { SearchIndex } from '../dist/search/engine.js';
import { searchBeyondList } from '../dist/search/held-back.js';
import { resolveIntent } from '../dist/search/intent.js';
import { resolveIntentIn } from '../dist/focus/intent-catalog.js';
import { taskTools } from '../dist/focus/task-tools.js';
import { ROOT, round } from './lib.mjs';

const TASKS = path.join(ROOT, 'test/fixtures/tasks');
const CATALOGS = path.join(ROOT, 'test/fixtures/catalogs');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Task sets written before `catalogs` was a key of the file: which catalogs they run on. */
const LEGACY = {
  'stack-tasks.json': { name: 'developer-stack', catalogs: ['developer-stack.json'] },
  'stack-tasks-blind.json': { name: 'developer-stack-blind', catalogs: ['developer-stack.json'] },
};

/** Every task set: `{ name, catalogs, tasks, intents? }`. */
export function taskSets() {
  const sets = [];
  for (const file of readdirSync(TASKS).sort()) {
    if (!file.endsWith('.json') || file.endsWith('-intents.json')) continue;
    const json = readJson(path.join(TASKS, file));
    const legacy = LEGACY[file];
    const catalogs = json.catalogs ?? legacy?.catalogs;
    if (!catalogs || !Array.isArray(json.tasks)) continue;
    const name = legacy?.name ?? file.replace(/-tasks\.json$/, '').replace(/\.json$/, '');
    const intentsFile = path.join(TASKS, file.replace(/-tasks\.json$/, '-intents.json'));
    const intents = file.endsWith('-tasks.json') && existsSync(intentsFile) ? readJson(intentsFile).phrases : undefined;
    sets.push({ name, catalogs, tasks: json.tasks, intents });
  }
  return sets;
}

function load(catalogs) {
  return mergeCatalogs(catalogs.map((file) => parseCatalog(readJson(path.join(CATALOGS, file)))));
}

/** The figures of one task set on the presets as shipped. */
export function stackReport({ name, catalogs, tasks, intents }) {
  const config = resolveConfig({});
  const { catalog } = buildCatalog(load(catalogs), config);
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const modes = statusReport(catalog, config).modes;
  const byName = new Map(modes.map((m) => [m.name, m]));
  const fits = new Map();
  const fitOf = (mode) => {
    if (!fits.has(mode)) fits.set(mode, config.modes[mode] ? modeFit(catalog, config, mode) : undefined);
    return fits.get(mode);
  };
  const modeList = Object.values(config.modes);
  const presetNames = modes.filter((m) => m.name !== 'all').map((m) => m.name);
  const rows = tasks.map((task) => {
    const gold = task.gold.filter((id) => catalog.byId.has(id));
    const known = Boolean(config.modes[task.mode]);
    const fitted = fitOf(task.mode);
    const shown = Boolean(fitted) && gold.some((id) => fitted.shownIds.has(id));
    const rules = config.modes[task.mode];
    const filter = rules?.readOnly ? (tool) => modeAllows(rules, tool) : undefined;
    // search_tools as the mode's caller runs it: the places go to tools its list lacks.
    const { hits } = searchBeyondList(index, [task.task], { limit: 5, filter }, fitted?.heldBackIds ?? new Set(), new Set(), fitted?.shownIds ?? new Set());
    const top5 = gold.some((id) => hits.some((hit) => hit.tool.id === id));
    // Search alone, over every tool with no mode in play: what the ranking does, whatever placement does.
    const plain = index.search(task.task, { limit: 5 });
    const searchTop5 = gold.some((id) => plain.some((hit) => hit.tool.id === id));
    const picked = resolveIntentIn(task.task, modeList, catalog, config, index).mode ?? config.defaultMode;
    const pickedFit = fitOf(picked);
    const intentShown = Boolean(pickedFit) && gold.some((id) => pickedFit.shownIds.has(id));
    // focus_mode {intent} in a session: the picked mode plus the tools search finds for the task that it does not show.
    const forTask = taskTools(index, config, picked, undefined, task.task, (tool) => !pickedFit?.shownIds.has(tool.id)).map((tool) => tool.id);
    const taskShown = intentShown || gold.some((id) => forTask.includes(id));
    // What choosing the mode could reach at best: some preset shows a gold tool.
    const someShown = presetNames.some((name) => gold.some((id) => fitOf(name)?.shownIds.has(id)));
    return { task: task.task, split: task.split, mode: task.mode, known, shown, reached: shown || top5, searchTop5, intentMode: picked, intentShown, taskShown, someShown, tokens: byName.get(task.mode)?.tokens ?? 0, top5: hits.map((h) => h.tool.id) };
  });
  const summarize = (list) => {
    const count = (key) => list.filter((r) => r[key]).length;
    // A mode the presets lack has no list to cost: its tasks count as misses, not as free lists.
    const costed = list.filter((r) => r.known);
    const meanTokens = costed.reduce((s, r) => s + r.tokens, 0) / Math.max(1, costed.length);
    return {
      tasks: list.length,
      shown: count('shown'),
      shownOrTop5: count('reached'),
      intentShown: count('intentShown'),
      taskShown: count('taskShown'),
      searchTop5: count('searchTop5'),
      someShown: count('someShown'),
      unknownMode: list.filter((r) => !r.known).length,
      shownRate: round(count('shown') / list.length, 3),
      shownOrTop5Rate: round(count('reached') / list.length, 3),
      intentShownRate: round(count('intentShown') / list.length, 3),
      taskShownRate: round(count('taskShown') / list.length, 3),
      searchTop5Rate: round(count('searchTop5') / list.length, 3),
      someShownRate: round(count('someShown') / list.length, 3),
      meanTokens: Math.round(meanTokens),
      cutVsAll: round(1 - meanTokens / catalog.totalTokens, 4),
    };
  };
  const presets = modes.filter((m) => m.name !== 'all');
  const members = new Set();
  for (const mode of presets) for (const tool of fitOf(mode.name)?.members ?? []) members.add(tool.id);
  const splits = [...new Set(rows.map((r) => r.split))].sort();
  const presetMean = presets.reduce((s, m) => s + m.tokens, 0) / presets.length;
  const out = {
    name,
    catalogs,
    servers: catalog.servers.length,
    tools: catalog.tools.length,
    totalTokens: catalog.totalTokens,
    presets: presets.length,
    presetMeanTokens: Math.round(presetMean),
    presetMeanCut: round(1 - presetMean / catalog.totalTokens, 4),
    overBudget: presets.filter((m) => !m.withinBudget).map((m) => m.name),
    unplacedTools: catalog.tools.filter((t) => !members.has(t.id)).length,
    all: summarize(rows),
    splits: Object.fromEntries(splits.map((split) => [split, summarize(rows.filter((r) => r.split === split))])),
    rows,
  };
  if (intents) {
    out.intents = {};
    for (const split of [...new Set(intents.map((p) => p.split))].sort()) {
      const set = intents.filter((p) => p.split === split);
      const right = set.filter((p) => p.modes.includes(resolveIntent(p.phrase, modeList).mode)).length;
      out.intents[split] = { phrases: set.length, right, rate: round(right / set.length, 3) };
    }
  }
  return out;
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** One Markdown table row per set and split. */
export function stacksTable(reports) {
  const lines = [
    '| set | split | tasks | gold shown in task mode | shown or search top 5 | search alone top 5 | intent mode shows gold | mean mode tokens (cut vs all) | preset mean cut | over budget | unplaced tools | focus by intent shows gold (mode + task tools) | some preset shows gold |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
  ];
  for (const r of reports) {
    for (const [split, s] of Object.entries(r.splits)) {
      lines.push(`| ${r.name} (${r.tools} tools) | ${split} | ${s.tasks} | ${s.shown} (${pct(s.shownRate)}) | ${s.shownOrTop5} (${pct(s.shownOrTop5Rate)}) | ${s.searchTop5} (${pct(s.searchTop5Rate)}) | ${s.intentShown} (${pct(s.intentShownRate)}) | ${s.meanTokens} (${pct(s.cutVsAll)}) | ${pct(r.presetMeanCut)} | ${r.overBudget.length ? r.overBudget.join(', ') : 'none'} | ${r.unplacedTools} | ${s.taskShown} (${pct(s.taskShownRate)}) | ${s.someShown} (${pct(s.someShownRate)}) |`);
    }
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const usage = 'usage: node bench/stacks.mjs [--set NAME]... [--markdown] [--misses]';
  const wanted = args.flatMap((arg, i) => (args[i - 1] === '--set' ? [arg] : []));
  const flags = args.filter((arg, i) => args[i - 1] !== '--set' && arg !== '--set');
  const unknown = flags.filter((arg) => !['--markdown', '--misses'].includes(arg));
  // A mistyped flag must not run every set: that prints the blind ones too.
  if (args.includes('--help') || unknown.length > 0 || args.at(-1) === '--set') {
    process.stderr.write(`${unknown.filter((arg) => arg !== '--help').map((arg) => `unknown argument: ${arg}\n`).join('')}${usage}\nsets: ${taskSets().map((s) => s.name).join(', ')}\n`);
    process.exit(args.includes('--help') && unknown.length === 1 ? 0 : 2);
  }
  const missing = wanted.filter((name) => !taskSets().some((s) => s.name === name));
  if (missing.length > 0) {
    process.stderr.write(`no task set named ${missing.join(', ')}; sets: ${taskSets().map((s) => s.name).join(', ')}\n`);
    process.exit(2);
  }
  const sets = taskSets().filter((s) => wanted.length === 0 || wanted.includes(s.name));
  const reports = sets.map(stackReport);
  if (args.includes('--misses')) {
    for (const r of reports) {
      for (const row of r.rows.filter((x) => !x.shown || !x.reached || !x.intentShown)) {
        process.stderr.write(`${r.name} [${row.split}] ${row.shown ? 'shown' : row.reached ? 'top5 ' : 'MISS '}${row.searchTop5 ? '' : ' (search alone misses)'} intent=${row.intentMode}${row.intentShown ? '' : '(no)'} mode=${row.mode}${row.known ? '' : '(unknown)'}: ${row.task}\n`);
      }
    }
  }
  for (const r of reports) delete r.rows;
  if (args.includes('--markdown')) console.log(stacksTable(reports));
  else console.log(JSON.stringify(reports, null, 2));
}
