// Budget-fitted modes: per preset tools/tokens/cut before (every mode "fit": false) and
// after fitting, on real-world.json, the 10-server developer stack and the reference+GitHub
// catalogs; the presets' mean cost against `all`; per-mode precision/recall against the hand
// labels and the share of labelled tools each mode shows (tuning half vs held-out half of the
// servers, split by sorted server-name parity); developer tasks (test/fixtures/tasks, stack-tasks.json
// and the blind stack-tasks-blind.json over the captured 10-server stack developer-stack.json): gold tool
// shown in the task's mode, shown or in search_tools' top 5 (held-back boost), mean tokens, by
// split; and placement + fitting of 10,000 tools.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCatalog, parseCatalog, resolveConfig, statusReport } from '../dist/index.js';
import { mergeCatalogs } from '../dist/catalog/file.js';
import { modeFit } from '../dist/focus/fit.js';
import { modeAllows } from '../dist/focus/policy.js';
import { SearchIndex } from '../dist/search/engine.js';
import { searchWithHeldBack } from '../dist/search/held-back.js';
import { resolveIntent } from '../dist/search/intent.js';
import { resolveIntentIn } from '../dist/focus/intent-catalog.js';
import { realShapedSources } from './placement.mjs';
import { ROOT, round } from './lib.mjs';

const FIXTURES = path.join(ROOT, 'test/fixtures');
const read = (name) => parseCatalog(JSON.parse(readFileSync(path.join(FIXTURES, 'catalogs', name), 'utf8')));
const TASKS = JSON.parse(readFileSync(path.join(FIXTURES, 'tasks/developer-tasks.json'), 'utf8'));
/** Tasks written over the captured 10-server stack itself (developer-stack.json). */
const STACK_TASKS = JSON.parse(readFileSync(path.join(FIXTURES, 'tasks/stack-tasks.json'), 'utf8'));
/** A blind set over the same stack, labelled before any measurement and never tuned on (split "blind"). */
const BLIND_TASKS = JSON.parse(readFileSync(path.join(FIXTURES, 'tasks/stack-tasks-blind.json'), 'utf8'));

export function catalogs() {
  return { realWorld: read('real-world.json'), stack: read('developer-stack.json'), referenceGithub: mergeCatalogs([read('github-mcp-server.json'), read('reference-servers.json')]) };
}

/** An rc that turns fitting off in every preset mode: the "before" figures. */
function unfitted() {
  const config = resolveConfig({});
  return resolveConfig({ modes: Object.fromEntries(Object.keys(config.modes).map((name) => [name, { fit: false }])) });
}

function modeTable(sources) {
  const rows = {};
  for (const [when, config] of [['before', unfitted()], ['after', resolveConfig({})]]) {
    const { catalog } = buildCatalog(sources, config);
    for (const mode of statusReport(catalog, config).modes) {
      rows[mode.name] ??= { budget: mode.budget };
      rows[mode.name][when] = { tools: mode.tools, tokens: mode.tokens, cut: round(mode.reduction, 4), withinBudget: mode.withinBudget, heldBack: mode.heldBack.length };
    }
    rows.totalTokens = catalog.totalTokens;
  }
  const totalTokens = rows.totalTokens;
  delete rows.totalTokens;
  const presets = Object.entries(rows).filter(([name]) => name !== 'all');
  const mean = (when) => presets.reduce((sum, [, row]) => sum + row[when].tokens, 0) / presets.length;
  return {
    totalTokens,
    modes: rows,
    meanPresetTokens: { before: Math.round(mean('before')), after: Math.round(mean('after')) },
    meanCutVsAll: { before: round(1 - mean('before') / totalTokens, 4), after: round(1 - mean('after') / totalTokens, 4) },
    overBudget: { before: presets.filter(([, r]) => !r.before.withinBudget).length, after: presets.filter(([, r]) => !r.after.withinBudget).length },
  };
}

export const CODES = { V: 'development', D: 'debugging', C: 'code_review', K: 'daily_checkin', S: 'security_review', P: 'sprint_planning', T: 'task_management' };

/** The labelled preset modes of each tool id of real-world.json (real-world.labels.txt; also bench/placement-quality.mjs). */
export function labels(ids) {
  const exact = new Map();
  const globs = [];
  for (const raw of readFileSync(path.join(FIXTURES, 'catalogs/real-world.labels.txt'), 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [pattern = '', codes = ''] = line.split(/\s+/);
    if (pattern.includes('*')) globs.push([new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`), codes]);
    else exact.set(pattern, codes);
  }
  const modes = new Map();
  for (const id of ids) {
    let codes = exact.get(id);
    if (codes === undefined) for (const [glob, value] of globs) if (glob.test(id)) codes = value;
    modes.set(id, new Set([...(codes ?? '')].filter((c) => CODES[c]).map((c) => CODES[c])));
  }
  return modes;
}

/** Which half of real-world.json a server is in: sorted names, even positions tune, odd ones test. */
export function serverHalf(servers) {
  const sorted = [...servers].sort();
  return new Map(sorted.map((server, i) => [server, i % 2 === 0 ? 'tune' : 'heldOut']));
}

export function labelReport(sources) {
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const wanted = labels(catalog.tools.map((t) => t.id));
  const half = serverHalf(catalog.servers);
  const out = {};
  for (const mode of Object.values(CODES)) {
    const fitted = modeFit(catalog, config, mode);
    const row = {};
    for (const part of ['tune', 'heldOut']) {
      const inPart = (id) => half.get(id.slice(0, id.indexOf(':'))) === part;
      const labelled = [...wanted].filter(([id, set]) => set.has(mode) && inPart(id)).map(([id]) => id);
      const members = fitted.members.filter((t) => inPart(t.id)).map((t) => t.id);
      const shown = fitted.shown.filter((t) => inPart(t.id)).map((t) => t.id);
      const hit = (list) => list.filter((id) => wanted.get(id)?.has(mode)).length;
      row[part] = {
        labelled: labelled.length,
        precision: round(members.length ? hit(members) / members.length : 1, 3),
        recall: round(labelled.length ? hit(members) / labelled.length : 1, 3),
        shownPrecision: round(shown.length ? hit(shown) / shown.length : 1, 3),
        labelledShown: round(labelled.length ? hit(shown) / labelled.length : 1, 3),
      };
    }
    out[mode] = row;
  }
  return out;
}

/** Tasks on one catalog: gold shown in the mode, shown or in search's top 5, mean tokens; by split. */
export function taskReport(sources, tasks, pickMode) {
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const report = new Map(statusReport(catalog, config).modes.map((m) => [m.name, m]));
  const rows = tasks.map((task) => {
    const mode = pickMode(task, config, catalog, index);
    const fitted = modeFit(catalog, config, mode);
    const rules = config.modes[mode];
    const gold = task.gold.filter((id) => catalog.byId.has(id));
    const shown = gold.some((id) => fitted.shownIds.has(id));
    const hits = searchWithHeldBack(index, [task.task], { limit: 5, filter: rules.readOnly ? (tool) => modeAllows(rules, tool) : undefined }, fitted.heldBackIds, fitted.shownIds);
    const top5 = gold.some((id) => hits.some((hit) => hit.tool.id === id));
    return { task: task.task, split: task.split, mode, shown, reached: shown || top5, tokens: report.get(mode).tokens };
  });
  const summarize = (list) => ({
    tasks: list.length,
    shown: list.filter((r) => r.shown).length,
    shownOrTop5: list.filter((r) => r.reached).length,
    shownRate: round(list.filter((r) => r.shown).length / list.length, 3),
    shownOrTop5Rate: round(list.filter((r) => r.reached).length / list.length, 3),
    meanTokens: Math.round(list.reduce((s, r) => s + r.tokens, 0) / list.length),
    cutVsAll: round(1 - list.reduce((s, r) => s + r.tokens, 0) / list.length / catalog.totalTokens, 4),
  });
  const splits = [...new Set(rows.map((r) => r.split))].sort();
  return {
    all: summarize(rows),
    splits,
    ...Object.fromEntries(splits.map((split) => [split, summarize(rows.filter((r) => r.split === split))])),
    missed: rows.filter((r) => !r.reached).map((r) => `${r.task} (${r.mode})`),
    notShown: rows.filter((r) => !r.shown).map((r) => `${r.task} (${r.mode})`),
  };
}

/** The mode `focus_mode {intent}` picks for the task's text: its words and the tools search finds for it (focus/intent-catalog). */
export function intentMode(task, config, catalog, index) {
  return resolveIntentIn(task.task, Object.values(config.modes), catalog, config, index).mode ?? config.defaultMode;
}

/** Placement plus fitting every mode, 10,000 real-shaped tools; the best of `runs` (CPU ms). */
function fit10k(runs = 3) {
  const sources = realShapedSources(10_000);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const config = resolveConfig({});
    const start = performance.now();
    const cpu = process.cpuUsage();
    const { catalog } = buildCatalog(sources, config);
    const placed = process.cpuUsage(cpu);
    for (const mode of Object.keys(config.modes)) modeFit(catalog, config, mode);
    const total = process.cpuUsage(cpu);
    times.push({ wallMs: performance.now() - start, placementCpuMs: (placed.user + placed.system) / 1000, totalCpuMs: (total.user + total.system) / 1000 });
  }
  times.sort((a, b) => a.totalCpuMs - b.totalCpuMs);
  return { tools: 10_000, placementCpuMs: Math.round(times[0].placementCpuMs), placementAndFitCpuMs: Math.round(times[0].totalCpuMs), wallMs: Math.round(times[0].wallMs) };
}

/** Intent to mode on the task-like phrases (test/fixtures/tasks/intent-phrases.json), by split. */
function intentReport() {
  const { phrases } = JSON.parse(readFileSync(path.join(FIXTURES, 'tasks/intent-phrases.json'), 'utf8'));
  const modes = Object.values(resolveConfig({}).modes);
  const out = {};
  for (const split of ['dev', 'test']) {
    const set = phrases.filter((p) => p.split === split);
    const right = set.filter((p) => p.modes.includes(resolveIntent(p.phrase, modes).mode)).length;
    out[split] = { phrases: set.length, right, rate: round(right / set.length, 3) };
  }
  return out;
}

export function fit({ runs = 3 } = {}) {
  const { realWorld, stack, referenceGithub } = catalogs();
  const stackTasks = TASKS.tasks.filter((t) => t.stack);
  return {
    modes: { realWorld: modeTable(realWorld), stack: modeTable(stack), referenceGithub: modeTable(referenceGithub) },
    labels: labelReport(realWorld),
    tasks: {
      stackTasksLabelledMode: taskReport(stack, STACK_TASKS.tasks, (task) => task.mode),
      stackTasksIntentMode: taskReport(stack, STACK_TASKS.tasks, intentMode),
      stackTasksBlindLabelledMode: taskReport(stack, BLIND_TASKS.tasks, (task) => task.mode),
      stackTasksBlindIntentMode: taskReport(stack, BLIND_TASKS.tasks, intentMode),
      stackLabelledMode: taskReport(stack, stackTasks, (task) => task.mode),
      stackIntentMode: taskReport(stack, stackTasks, intentMode),
      realWorldLabelledMode: taskReport(realWorld, TASKS.tasks, (task) => task.mode),
    },
    intent: intentReport(),
    scale: fit10k(runs),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(fit(), null, 2));

const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** The BENCHMARKS.md section for `fit()`'s figures. */
export function fitSection(f) {
  const table = (label, m) => {
    const rows = Object.entries(m.modes).map(([name, r]) => `| ${name} | ${r.budget ?? '-'} | ${r.before.tools} | ${r.before.tokens} | ${pct(r.before.cut)}${r.before.withinBudget ? '' : ' OVER'} | ${r.after.tools} | ${r.after.heldBack} | ${r.after.tokens} | ${pct(r.after.cut)}${r.after.withinBudget ? '' : ' OVER'} |`);
    return [`**${label}** (all tools: ${m.totalTokens} tokens). Mean preset cost: ${m.meanPresetTokens.before} -> ${m.meanPresetTokens.after} tokens (${pct(m.meanCutVsAll.before)} -> ${pct(m.meanCutVsAll.after)} below all); presets over budget: ${m.overBudget.before} -> ${m.overBudget.after}.`, '', '| mode | budget | tools before | tokens before | cut before | tools shown | held back | tokens | cut |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |', ...rows].join('\n');
  };
  const labels = Object.entries(f.labels).map(([mode, r]) => `| ${mode} | ${r.tune.precision} / ${r.tune.recall} | ${pct(r.tune.labelledShown)} | ${r.heldOut.precision} / ${r.heldOut.recall} | ${pct(r.heldOut.labelledShown)} |`);
  const tasks = Object.entries(f.tasks).map(([name, t]) => t.splits.map((split) => `| ${name} | ${split} | ${t[split].tasks} | ${t[split].shown} (${pct(t[split].shownRate)}) | ${t[split].shownOrTop5} (${pct(t[split].shownOrTop5Rate)}) | ${t[split].meanTokens} | ${pct(t[split].cutVsAll)} |`).join('\n'));
  return `## 8. Budget-fitted modes

\`node bench/fit.mjs\`. Before: every preset with \`"fit": false\` (each mode shows all its groups hold); after: the presets as shipped, fitted to their budgets (tokens include lazytools' own tools). On main before budget fitting (old presets), the stack gave development 116 tools / 41,208 tokens, debugging 110 / 27,311, sprint_planning 24 / 17,590 (all three over budget) and code_review, daily_checkin, security_review and task_management empty; real-world.json had 6 of 7 presets over budget (mean 50,880 tokens, 78.8% below all).

${table('real-world.json, 48 servers', f.modes.realWorld)}

${table('10-server developer stack (developer-stack.json, 148 tools)', f.modes.stack)}

${table('reference + GitHub catalogs', f.modes.referenceGithub)}

Per mode against the hand labels (\`real-world.labels.txt\`), servers split by sorted-name parity into a tuning half and a held-out half: precision / recall of what the mode holds (shown or held back), and the share of the tools labelled for the mode that it shows.

| mode | tune P / R | tune labelled shown | held-out P / R | held-out labelled shown |
| --- | ---: | ---: | ---: | ---: |
${labels.join('\n')}

Developer tasks: "stackTasks" are the ${f.tasks.stackTasksLabelledMode.all.tasks} tasks of \`test/fixtures/tasks/stack-tasks.json\`, written over the captured stack; "stackTasksBlind" are the ${f.tasks.stackTasksBlindLabelledMode.all.tasks} tasks of \`test/fixtures/tasks/stack-tasks-blind.json\`, written and labelled over the same stack before any measurement and never tuned on (split "blind"); the others are \`test/fixtures/tasks/developer-tasks.json\` (${f.tasks.realWorldLabelledMode.all.tasks} tasks over real-world.json, ${f.tasks.stackLabelledMode.all.tasks} of them on the stack's servers, run on the captured stack). Dev tasks were looked at while tuning, test tasks only measured). Shown: a gold tool is in the mode's list; top 5: or in \`search_tools\`' first five for the task's text (the mode's tools, held back or shown, boosted); tokens: the mode's list. "labelled mode" is the mode written with the task, "intent mode" the one \`focus_mode {intent}\` picks from the task's text.

| run | split | tasks | gold shown | shown or top 5 | mean tokens | cut vs all |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
${tasks.join('\n')}

Intent to mode on task-like phrases (\`test/fixtures/tasks/intent-phrases.json\`): dev ${f.intent.dev.right}/${f.intent.dev.phrases}, held-out test ${f.intent.test.right}/${f.intent.test.phrases}.

Placement plus fitting every preset for ${f.scale.tools.toLocaleString('en')} real-shaped tools: ${f.scale.placementAndFitCpuMs} ms CPU (placement alone ${f.scale.placementCpuMs} ms; fitting counts the tokens of every mode member). Target: <= 1 s.
`;
}
