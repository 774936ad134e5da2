import { sumTokens, type Catalog, type CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig, ResolvedMode } from '../config/resolve.js';
import { own, unlessEmpty } from '../util/own.js';
import { compareStrings } from '../util/compare.js';
import { clipText } from '../util/bounds.js';
import { hundredths } from '../util/round.js';
import { globMatcher, modeNamed, modeShows, usedInMode } from './policy.js';
import { servedStrategy } from './scope.js';
import { modeProfile } from './profile.js';
import { toolPriority, wordSignals, type Priority, type Signal } from './priority.js';
import { capability } from './words.js';
import { listAndGetThings, ownToolsTokens, prefixesOf } from './fit-inputs.js';
import { COVERAGE_CAP, FILL_PENALTY, fillers, mayFill, modeCoverage } from './fill.js';
import { effectiveBudget, fillRoom, MAX_SHARED_MODES, roomToShare, scales, sharedCap, smallFor } from './budget.js';

/** Characters of a typical task `status --explain` quotes: rc tasks may be any length. */
const TASK_QUOTE = 60;

/** A tool of the mode that its list leaves out to stay within budget (a contract: `status --json`). */
export interface HeldBack {
  id: string;
  name: string;
  tokens: number;
  reason: string;
}

/** One tool of a mode, ranked: its priority, why, and whether the fitted list shows it. */
export interface RankedTool extends Priority {
  tool: CatalogTool;
  shown: boolean;
  /** Why it is shown (pinned, fits) or held back (budget), in words. */
  reason: string;
}

/** What a mode shows within its budget, and what it holds back. */
export interface ModeFit {
  mode: string;
  /** True when fitting applies: the mode has a budget and rc `fit` is not false. */
  fit: boolean;
  /** What the mode may spend here: its budget, grown on a large catalog up to `maxBudget` (see effectiveBudget). */
  budget: number | undefined;
  /** True when `budget` is a small catalog's share, below what the mode alone could spend (budget.ts sharedCap). */
  shared: boolean;
  /** Tokens of lazytools' own tools, counted in the budget. */
  ownTokens: number;
  /** Every tool of the mode (its groups and pins, its read-only rule, `alwaysVisible`, tools called in it lately, shown fillers), catalog order. */
  members: readonly CatalogTool[];
  memberIds: ReadonlySet<string>;
  /** Members only rc `fill` brought in (close to the mode's work, in none of its groups), all shown. */
  filledIds: ReadonlySet<string>;
  /** The tools the mode's list shows, catalog order. */
  shown: readonly CatalogTool[];
  shownIds: ReadonlySet<string>;
  /** The mode's other tools, highest priority first. */
  heldBack: readonly HeldBack[];
  heldBackIds: ReadonlySet<string>;
  heldBackTokens: number;
  /** Tokens of the pinned and `alwaysVisible` tools, which fitting never holds back. */
  pinnedTokens: number;
  /** Every member, highest priority first (pinned ones first), with its reason. */
  ranked: readonly RankedTool[];
}

const cache = new WeakMap<Catalog, WeakMap<object, Map<string, ModeFit>>>();

/**
 * The mode's fitted list, computed once per catalog, config and mode (sessions read it on every
 * focus change; it never costs a tools/list). Undefined for an unknown mode.
 */
export function modeFit(catalog: Catalog, config: FitConfig, mode: string): ModeFit | undefined {
  const rules = modeNamed(config, mode);
  if (!rules) return undefined;
  let byConfig = cache.get(catalog);
  if (!byConfig) cache.set(catalog, (byConfig = new WeakMap()));
  let byMode = byConfig.get(config);
  if (!byMode) byConfig.set(config, (byMode = new Map()));
  let fitted = byMode.get(mode);
  if (!fitted) {
    // A mode that shares a small catalog is fitted with the others, once (see shareSmallCatalog).
    if (sharing(rules) && !shared.has(byMode)) shareSmallCatalog(catalog, config, byMode);
    fitted = byMode.get(mode);
    if (!fitted) byMode.set(mode, (fitted = fitMode(catalog, config, rules)));
  }
  return fitted;
}

/** The fit maps whose modes have shared their small catalog (or found no need to). */
const shared = new WeakSet<Map<string, ModeFit>>();

/** Whether a mode takes part in sharing a small catalog: fitted, with a budget that scales (budget.ts scales). */
const sharing = (mode: ResolvedMode): boolean => mode.fit && scales(mode);

/**
 * On a catalog small for some mode's budget (budget.ts smallFor), fits every sharing mode into
 * `fits`, each within the cap that keeps their mean cost CATALOG_SHARE of the catalog
 * (sharedCap). Past MAX_SHARED_MODES such modes each is fitted alone.
 */
function shareSmallCatalog(catalog: Catalog, config: FitConfig, fits: Map<string, ModeFit>): void {
  shared.add(fits);
  const modes = Object.values(config.modes).filter(sharing);
  if (modes.length > MAX_SHARED_MODES || !modes.some((mode) => smallFor(mode, catalog.totalTokens))) return;
  // Before fitting them all: a catalog too small to cut by is left as it is, at no cost.
  const ownTokens = ownToolsTokens(config, servedStrategy(config.strategy), catalog.tokenizer);
  if (!roomToShare(catalog.totalTokens, ownTokens)) return;
  const alone = modes.map((mode) => fits.get(mode.name) ?? fitMode(catalog, config, mode));
  const cap = sharedCap(alone.map(fitCost), catalog.totalTokens, ownTokens);
  modes.forEach((mode, i) => {
    const fitted = alone[i] as ModeFit;
    fits.set(mode.name, cap !== undefined && fitCost(fitted) > cap ? fitMode(catalog, config, mode, cap) : fitted);
  });
}

/** What a fitted mode's list costs: its shown tools and lazytools' own. */
function fitCost(fitted: ModeFit): number {
  return fitted.ownTokens + sumTokens(fitted.shown);
}

/**
 * Whether the tool may be a member of the mode's fit (in `memberIds`, so shown or held back),
 * without fitting it: false means it is not; true, that fitting may take it. The first of the
 * member rules of fitMode: groups, pins and use (modeShows, usedInMode), or rc `fill`.
 */
export function mayHold(catalog: Catalog, config: FitConfig, mode: ResolvedMode, tool: CatalogTool): boolean {
  if (modeShows(config, mode, tool) || usedInMode(config, mode, tool)) return true;
  if (!(mode.fit && mode.budget !== undefined && mode.fill)) return false;
  return mayFill(catalog, config.modes, mode, modeProfile(mode, config.modes), tool, prefixesOf(catalog).get(tool.server));
}

/** What fitting reads from the configuration. */
export type FitConfig = Pick<ResolvedConfig, 'modes' | 'groups' | 'alwaysVisible' | 'tools' | 'strategy' | 'usageWeights' | 'hiddenTools'>;

/**
 * Fits a mode to its budget. Pure and deterministic: the same catalog, config and mode give the
 * same lists. The budget counts what `listStatus` counts (listed tools plus lazytools' own tools
 * as `status` serves them). Pinned tools (rc `pin` on the mode, a group or a tool) and
 * `alwaysVisible` ones are always shown; the rest are taken in priority order (see
 * `toolPriority`, with breadth: each server and group keeps its best tools before any keeps its
 * next ones), skipping any tool that does not fit in what is left so cheaper ones still can.
 * `cap`: at most this much, pinned tools aside (a small catalog's share, see shareSmallCatalog).
 */
export function fitMode(catalog: Catalog, config: FitConfig, mode: ResolvedMode, cap?: number): ModeFit {
  const groups = new Set(mode.groups);
  const always = globMatcher(config.alwaysVisible);
  const modePin = globMatcher(mode.pin);
  const pinnedGroups = new Set(mode.groups.filter((group) => own(config.groups, group)?.pin === true));
  const toolRules = unlessEmpty(config.tools);
  // Tools the mode's sessions called lately join its groups' tools (see usedInMode).
  const byUse = new Set<string>();
  let members = catalog.tools.filter((tool) => {
    if (modeShows(config, mode, tool)) return true;
    if (!usedInMode(config, mode, tool)) return false;
    byUse.add(tool.id);
    return true;
  });
  const strategy = servedStrategy(config.strategy);
  const fit = mode.fit && mode.budget !== undefined;
  const ownTokens = ownToolsTokens(config, strategy, catalog.tokenizer);
  const usage = config.usageWeights?.get(mode.name);
  const prefixes = fit ? prefixesOf(catalog) : new Map<string, ReadonlySet<string>>();
  const profile = fit ? modeProfile(mode, config.modes) : undefined;
  // Tools close to the mode's work that its groups leave out (rc `fill`), or that its typical tasks
  // find, are ranked with its own; not in a mode whose groups hold none of the catalog's tools
  // (a mode of words alone, with no groups, is all fill): there nothing is its work, and search's
  // nearest words (a coding catalog's pipelines for "the sales pipeline") would fill its budget.
  const filling = fit && mode.fill && (members.length > 0 || mode.groups.length === 0);
  const covered = filling ? modeCoverage(catalog, config.modes, mode) : new Map<string, never>();
  const filled = filling && profile ? fillers(catalog, mode, profile, members, prefixes, covered) : new Set<string>();
  if (filled.size > 0) {
    const inMode = new Set([...members.map((tool) => tool.id), ...filled]);
    members = catalog.tools.filter((tool) => inMode.has(tool.id));
  }
  const listed = fit ? listAndGetThings(members, prefixes) : new Map<string, Set<string>>();
  const lean = mode.lean ?? (mode.readOnly || members.filter((tool) => tool.readOnly).length * 2 >= members.length ? 'read' : undefined);

  const pinReason = (tool: CatalogTool): string | undefined => {
    if (always(tool.id)) return 'alwaysVisible';
    if (own(toolRules, tool.id)?.pin === true) return `pinned (tools.${tool.id}.pin)`;
    if (modePin(tool.id)) return `pinned (modes.${mode.name}.pin)`;
    const group = tool.groups.find((g) => pinnedGroups.has(g));
    return group === undefined ? undefined : `pinned (groups.${group}.pin)`;
  };
  // Unfitted modes (no budget, or fit: false) show every member: no priorities to compute, and no
  // token counts to pay for (a 10,000-tool "all" mode would count them all).
  const scored = members.map((tool) => {
    const scoring = fit ? toolPriority(tool, { mode, lean, usage: usage?.get(tool.id) ?? 0, override: own(toolRules, tool.id)?.priority, listed: listed.get(tool.server), profile, prefix: prefixes.get(tool.server) }) : { priority: 0, signals: [] };
    // Its groups are the rc's word on a member; a typical task is the word on what they leave out.
    const coverage = filled.has(tool.id) ? covered.get(tool.id) : undefined;
    if (coverage) {
      const value = hundredths(Math.min(COVERAGE_CAP, coverage.score));
      scoring.priority = hundredths(scoring.priority + value);
      const how = coverage.named ? `${coverage.names} typical tasks of the mode name it, though another mode's find it more` : 'a typical task of the mode finds it';
      scoring.signals.push([value, () => `${how} ("${clipText(coverage.task, TASK_QUOTE)}")`]);
    }
    if (byUse.has(tool.id)) scoring.signals.unshift([undefined, 'in the mode by use: called in it lately, though none of its groups holds it']);
    if (filled.has(tool.id)) {
      scoring.priority = hundredths(scoring.priority - FILL_PENALTY);
      scoring.signals.push([-FILL_PENALTY, 'close to the mode\'s work, outside its groups']);
    }
    return new Entry(tool, pinReason(tool), scoring.priority, scoring.signals);
  });
  const ordered = fit ? breadthOrder(scored, groups, prefixes) : scored;

  const pinned = ordered.filter((entry) => entry.pin !== undefined);
  const pinnedTokens = fit ? pinned.reduce((sum, entry) => sum + entry.tool.tokens, 0) : 0;
  const alone = fit ? effectiveBudget(mode, sumTokens(members), catalog.totalTokens) : mode.budget;
  // A small catalog's shared cap (see shareSmallCatalog) never holds back what is pinned.
  const effective = alone !== undefined && cap !== undefined ? Math.min(alone, Math.max(cap, pinnedTokens + ownTokens)) : alone;
  const budget = (effective ?? Number.POSITIVE_INFINITY) - ownTokens;
  let left = budget - pinnedTokens;
  // On a small catalog the tools outside the mode's groups stop early (budget.ts fillRoom).
  const fillLeft = fit && filled.size > 0 ? fillRoom(mode, catalog.totalTokens) - ownTokens : Number.POSITIVE_INFINITY;
  let spent = pinnedTokens;
  const ranked: RankedTool[] = [];
  // Entries are this call's own objects: completed in place, not copied (a mode may hold 10,000 tools).
  const rank = (entry: Entry, shown: boolean, reason: string) => {
    entry.shown = shown;
    entry.reason = reason;
    ranked.push(entry);
  };
  for (const entry of pinned) rank(entry, true, entry.pin ?? 'pinned');
  for (const entry of ordered) {
    if (entry.pin !== undefined) continue;
    if (!fit) {
      // Read no token count here: an unfitted mode's start would compact and count every tool.
      rank(entry, true, mode.budget === undefined ? 'no budget: every tool of the mode is shown' : '"fit": false shows every tool of the mode');
      continue;
    }
    const tokens = entry.tool.tokens;
    // A filler past a small catalog's room for them is held back like one past the budget (and so leaves the mode, below).
    if (tokens <= left && !(spent + tokens > fillLeft && filled.has(entry.tool.id))) {
      left -= tokens;
      spent += tokens;
      rank(entry, true, `fits (priority ${entry.priority})`);
    } else {
      const room = Math.max(0, Math.round(left));
      rank(entry, false, `budget: ${tokens} tokens, ${room} left (priority ${entry.priority})`);
    }
  }
  const shownIds = new Set(ranked.filter((entry) => entry.shown).map((entry) => entry.tool.id));
  if (filled.size > 0) {
    // A filler is in the mode only where it won room: held back, it stays where its groups put it.
    const kept = (id: string) => !filled.has(id) || shownIds.has(id);
    members = members.filter((tool) => kept(tool.id));
    ranked.splice(0, ranked.length, ...ranked.filter((entry) => kept(entry.tool.id)));
  }
  const heldBack = ranked.filter((entry) => !entry.shown).map(({ tool, reason }) => ({ id: tool.id, name: tool.exposedName, tokens: tool.tokens, reason }));
  return {
    mode: mode.name,
    fit,
    budget: effective,
    shared: effective !== alone,
    ownTokens,
    members,
    memberIds: new Set(members.map((tool) => tool.id)),
    filledIds: new Set([...filled].filter((id) => shownIds.has(id))),
    shown: members.filter((tool) => shownIds.has(tool.id)),
    shownIds,
    heldBack,
    heldBackIds: new Set(heldBack.map((entry) => entry.id)),
    heldBackTokens: heldBack.reduce((sum, entry) => sum + entry.tokens, 0),
    pinnedTokens,
    ranked,
  };
}

/**
 * One member as fitting ranks it: its signals are worded only when `why` is read (fitting ranks
 * every member of every mode; status --explain and groups read a few).
 */
class Entry implements RankedTool {
  shown = false;
  reason = '';
  first = false;
  private worded: string[] | undefined;

  constructor(
    readonly tool: CatalogTool,
    readonly pin: string | undefined,
    public priority: number,
    readonly signals: Signal[],
  ) {}

  get why(): string[] {
    return (this.worded ??= wordSignals(this.signals));
  }
}

/** Breadth: what a tool's rank within its server and within its first mode group costs it (times log2(1 + rank)). */
const SERVER_STEP = 0.6;
const GROUP_STEP = 0.3;
/** What a tool loses when a better tool of another server does the same thing (see `capability`). */
const REDUNDANT = 2;
/**
 * What a dear definition loses in the order, per doubling of its tokens past COST_BASE, on top of
 * priority's own small cost signal: a budget holds two tools of 250 tokens for one of 500. It
 * counts after a server's best tool has its slot (breadthOrder), so a server whose only entry point
 * is dear still shows it. With 250/80-character compaction (src/catalog/compact.ts), gold tools
 * shown in the task's mode 605 -> 607 of 847 on the tuning stacks, intent 650 -> 654; on every
 * blind stack shown, reached and intent were the same or better (510 -> 518 of 813 shown). The
 * same slope in toolPriority instead (before the slots) lost the blind developer stack 3 intents.
 */
const COST_STEP = 1;
const COST_BASE = 250;

/** A server's best tool goes ahead of every server's second only when it is worth that much: an entry point, not a niche leftover. */
const FIRST_MIN = 2;

/**
 * Orders tools by priority with breadth, round-robin by rank: first the best tool of every server
 * of the mode, then the rest, each losing a little for every better tool of its own server and
 * of its (first) mode group, so every server and group keeps its best tools before any keeps its
 * tenth. A tool doing what a better tool of another server does (two browsers' "navigate", two
 * web searches) loses `REDUNDANT`: the budget goes to what no shown tool does yet, and search
 * still finds the twin. Twins share a mode group: Notion's search is no web search. A definition
 * dearer than COST_BASE tokens loses COST_STEP per doubling. Ties break by id.
 */
function breadthOrder(scored: Entry[], groups: ReadonlySet<string>, prefixes: ReadonlyMap<string, ReadonlySet<string>>): Entry[] {
  const byScore = [...scored].sort((a, b) => b.priority - a.priority || compareStrings(a.tool.id, b.tool.id));
  const serverRank = new Map<string, number>();
  const groupRank = new Map<string, number>();
  const doneBy = new Map<string, CatalogTool>();
  const adjusted = byScore.map((entry) => {
    const group = entry.tool.groups.find((g) => groups.has(g)) ?? '';
    const does = `${group} ${capability(entry.tool, prefixes.get(entry.tool.server))}`;
    const twin = doneBy.get(does);
    if (twin === undefined) doneBy.set(does, entry.tool);
    const redundant = twin !== undefined && twin.server !== entry.tool.server;
    const inServer = serverRank.get(entry.tool.server) ?? 0;
    const inGroup = groupRank.get(group) ?? 0;
    serverRank.set(entry.tool.server, inServer + 1);
    groupRank.set(group, inGroup + 1);
    const dear = COST_STEP * Math.max(0, Math.log2(entry.tool.tokens / COST_BASE));
    const priority = hundredths(entry.priority - SERVER_STEP * Math.log2(1 + inServer) - GROUP_STEP * Math.log2(1 + inGroup) - (redundant ? REDUNDANT : 0) - dear);
    // The entry and its signals are this fit's own (toolPriority made them): completed in place.
    entry.signals.push([undefined, () => (inServer === 0 ? `best of ${entry.tool.server}` : `breadth: #${inServer + 1} of ${entry.tool.server}, #${inGroup + 1} of ${group || 'the mode'}`)]);
    if (redundant) entry.signals.push([undefined, () => `-${REDUNDANT} does what ${twin.id} does`]);
    if (dear > 0) entry.signals.push([undefined, () => `-${hundredths(dear)} dear: ${entry.tool.tokens} tokens`]);
    entry.first = inServer === 0 && !redundant && entry.priority >= FIRST_MIN;
    entry.priority = priority;
    return entry;
  });
  return adjusted.sort((a, b) => Number(b.first) - Number(a.first) || b.priority - a.priority || compareStrings(a.tool.id, b.tool.id));
}
