import type { Catalog, CatalogTool } from '../catalog/catalog.js';
import type { ResolvedMode } from '../config/resolve.js';
import { MAX_TASKS } from '../config/schema.js';
import { catalogIndex } from '../search/catalog-index.js';
import { modeAllows } from './policy.js';
import { closenessScore, type ModeProfile } from './profile.js';

/**
 * rc `fill`: the tools a mode ranks besides its groups' members, and what its typical tasks find.
 * Groups are placed by topic words, which miss a new kind of product (an HR suite's leave
 * requests, an identity provider's sign-in logs); a mode's description and tasks say what its work
 * is in people's words, so the tools search finds for them belong in its ranking whatever groups
 * they landed in.
 */

/** How close (profile.ts closeness) a tool outside the mode's groups must be to its work to be ranked with them. */
const FILL_CLOSENESS = 0.5;
/** The most tools closeness ranks in one mode (the closest): on a catalog of 10,000 tools thousands pass FILL_CLOSENESS. */
const MAX_FILL = 150;
/** What a tool ranked by closeness alone gives up against the mode's own: its groups are the rc's word. */
export const FILL_PENALTY = 2;

/**
 * The tools a mode with `fill` ranks besides its members, among those its read-only rule allows:
 * the closest (at most MAX_FILL) whose names or summaries say what its description and tasks say
 * (closeness >= FILL_CLOSENESS), and those its typical tasks find (`covered`, see modeCoverage;
 * one its tasks only name must also be NAMED_CLOSENESS close).
 */
export function fillers(catalog: Catalog, mode: ResolvedMode, profile: ModeProfile, members: readonly CatalogTool[], prefixes: ReadonlyMap<string, ReadonlySet<string>>, covered: ReadonlyMap<string, Coverage>): Set<string> {
  const inMode = new Set(members.map((tool) => tool.id));
  const close: Array<{ id: string; score: number }> = [];
  const out = new Set<string>();
  for (const tool of catalog.tools) {
    if (inMode.has(tool.id) || !modeAllows(mode, tool)) continue;
    const score = closenessScore(tool, profile, prefixes.get(tool.server));
    if (score >= FILL_CLOSENESS) close.push({ id: tool.id, score });
    const coverage = covered.get(tool.id);
    if (coverage && (!coverage.named || score >= NAMED_CLOSENESS)) out.add(tool.id);
  }
  // The closest first, at most MAX_FILL: ranked below the mode's own, only the closest win room.
  if (close.length > MAX_FILL) close.sort((a, b) => b.score - a.score).splice(MAX_FILL);
  for (const entry of close) out.add(entry.id);
  return out;
}

/**
 * Whether `fillers` could take the tool into the mode, without reading the rest of the catalog:
 * it passes FILL_CLOSENESS or the mode's tasks find it (false means never; true, maybe: MAX_FILL
 * and NAMED_CLOSENESS are not read). The caller knows the mode fills (fit.ts mayHold).
 */
export function mayFill(catalog: Catalog, modes: Readonly<Record<string, ResolvedMode>>, mode: ResolvedMode, profile: ModeProfile, tool: CatalogTool, prefix: ReadonlySet<string> | undefined): boolean {
  if (!modeAllows(mode, tool)) return false;
  return closenessScore(tool, profile, prefix) >= FILL_CLOSENESS || modeCoverage(catalog, modes, mode).has(tool.id);
}

/** How much a mode's typical tasks ask for a tool: reciprocal ranks summed over the tasks that find it. */
interface Coverage {
  score: number;
  /** The task (or description) that ranks it highest, for `status --explain`. */
  task: string;
  /** What that task gives it: 1 when it ranks the tool first, 1/2 second... */
  best: number;
  /** How many of the tasks (the description counts as one) rank it first or second (see NAMED_BY). */
  names: number;
  /** In the mode only because its tasks name it (NAMED_BY): other modes' tasks find it more. */
  named?: boolean;
}

/** Hits read per typical task: a task's tool is seldom first, often in the first ten. */
const TASK_HITS = 10;
/**
 * Typical tasks searched per mode: the description and every task an rc may list. On a large
 * catalog COVERAGE_WORK allows fewer, spread over the list (`spread`). Raised from 60 with the
 * presets' tasks of work beyond software (bookings, patients, fleets, markets, recipes): on the
 * tuning stacks (609 tasks) gold shown in the task's mode 433 -> 443 and the intent's mode
 * showing one 467 -> 482; on the blind ones (407) see BENCHMARKS.md.
 */
const MAX_TASK_QUERIES = MAX_TASKS + 1;
/** What coverage adds to a tool's priority at most (and per unit of reciprocal rank). */
export const COVERAGE_CAP = 2;

/**
 * The tools search finds for the mode's description and each of its tasks (rc `tasks`, the presets'
 * "typical tasks"; at most `queries` of them), among those the mode's read-only rule allows: a tool
 * ranked r-th (from 0) by a task scores 1/(1+r) from it. Deterministic (search is), on the
 * catalog's shared index.
 */
export function taskCoverage(catalog: Pick<Catalog, 'tools' | 'groups'>, mode: Pick<ResolvedMode, 'description' | 'tasks' | 'readOnly'>, queries = MAX_TASK_QUERIES): Map<string, Coverage> {
  const index = catalogIndex(catalog);
  const out = new Map<string, Coverage>();
  const allowed = (tool: CatalogTool) => modeAllows(mode, tool);
  for (const task of spread([mode.description, ...mode.tasks], queries)) {
    index.search(task, { limit: TASK_HITS, filter: allowed, steps: false, typed: false }).forEach((hit, rank) => {
      const value = 1 / (1 + rank);
      const names = rank < NAMING_RANK ? 1 : 0;
      const entry = out.get(hit.tool.id);
      if (!entry) out.set(hit.tool.id, { score: value, task, best: value, names });
      else {
        entry.score += value;
        entry.names += names;
        if (value > entry.best) Object.assign(entry, { task, best: value });
      }
    });
  }
  return out;
}

/** Searches all modes' typical tasks may cost together: an rc of a thousand modes with `fill` reads a few tasks of each. */
const MAX_COVERAGE_QUERIES = 2_000;
/**
 * Searches times catalog tools that coverage may cost (a search touches about every tool on a
 * common word). Over the 16 presets that fill, 650 tools allow 96 searches a mode (every task but
 * the last few of research's 100), 6,000 ten (about an eighth of a preset's 66 to 100 tasks; a
 * sixth when this was set and they had 51 to 58).
 */
const COVERAGE_WORK = 1_000_000;
/**
 * Fewer tasks per mode than this say too little to be worth the search index they need: past about
 * 6,000 tools under the presets, fill ranks by closeness alone (building the index for 10,000 tools
 * costs half a second, and fitting every preset stays within its 1 s).
 */
const MIN_TASK_QUERIES = 10;

type Modes = Readonly<Record<string, ResolvedMode>>;

interface CoverageTable {
  byMode: Map<string, Map<string, Coverage>>;
  /** Per tool, the most any mode's tasks give it. */
  best: Map<string, number>;
}

const tables = new WeakMap<object, WeakMap<Modes, CoverageTable>>();

/** Every `fill` mode's task coverage, once per catalog and modes object. */
function coverageTable(catalog: Catalog, modes: Modes): CoverageTable {
  let byModes = tables.get(catalog);
  if (!byModes) tables.set(catalog, (byModes = new WeakMap()));
  let table = byModes.get(modes);
  if (table) return table;
  const filling = Object.values(modes).filter((mode) => mode.fill);
  const total = Math.min(MAX_COVERAGE_QUERIES, COVERAGE_WORK / Math.max(1, catalog.tools.length));
  const queries = Math.min(MAX_TASK_QUERIES, Math.max(1, Math.floor(total / Math.max(1, filling.length))));
  table = { byMode: new Map(), best: new Map() };
  for (const mode of queries < MIN_TASK_QUERIES ? [] : filling) {
    const coverage = taskCoverage(catalog, mode, queries);
    table.byMode.set(mode.name, coverage);
    for (const [id, { score }] of coverage) table.best.set(id, Math.max(table.best.get(id) ?? 0, score));
  }
  byModes.set(modes, table);
  return table;
}

/** A task names a tool it ranks first or second. */
const NAMING_RANK = 2;
/**
 * How many of a mode's tasks must name a tool (rank it first or second) for the mode to take it,
 * whatever other modes' tasks find it too, if its words are the mode's at all (NAMED_CLOSENESS).
 * One was not enough: on a stack with no tracker "team velocity last sprint" ranked a browser's
 * network requests second, and sprint_planning listed them. Measured with MEMBER_SHARE 1 (gold tools
 * shown in the task's mode / the mode picked from the task text shows one): tuning stacks
 * 313 -> 316 and 325 -> 324 of 426, older small catalogs 211 -> 212 of 261 (one task: 315, 325 and
 * 208; three: 314, 326 and 213).
 */
const NAMED_BY = 2;
/**
 * How close (profile.ts closeness) a tool the tasks name must be to the mode's work: on a small
 * catalog a task's first hits may share one loose word with it ("call the API with a test
 * payload" ranked the reference server's echo second). Without it the tuning stacks showed one
 * more and the older catalogs two fewer.
 */
const NAMED_CLOSENESS = 0.1;

/**
 * What the mode's typical tasks find that no other mode's (with `fill`) find more, and what its
 * tasks name (NAMED_BY of them rank it first or second; marked `named`): a tool joins, by its
 * tasks, the mode whose work asks for it most, and every mode whose tasks are plainly about it. On
 * a small catalog every task's top 10 holds loose matches ("build the container image" finds a
 * demo server's tiny image); kept for every mode they made each one list nearly the whole catalog.
 */
export function modeCoverage(catalog: Catalog, modes: Modes, mode: ResolvedMode): Map<string, Coverage> {
  const table = coverageTable(catalog, modes);
  const own = table.byMode.get(mode.name);
  const out = new Map<string, Coverage>();
  for (const [id, coverage] of own ?? []) {
    if (coverage.score >= (table.best.get(id) ?? 0)) out.set(id, coverage);
    else if (coverage.names >= NAMED_BY) out.set(id, { ...coverage, named: true });
  }
  return out;
}

/**
 * `count` of `items`, spread evenly from the first (the mode's description): when a large catalog
 * allows fewer searches than a mode has tasks, every part of its list still counts, not only the
 * tasks written first.
 */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const out: T[] = [];
  for (let i = 0; i < count; i++) {
    const item = items[Math.floor((i * items.length) / count)];
    if (item !== undefined) out.push(item);
  }
  return out;
}
