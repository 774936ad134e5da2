import type { ResolvedMode } from '../config/resolve.js';

/**
 * What a fitted mode may spend on a catalog: its rc budget, grown on a large catalog (effectiveBudget),
 * and on a small one how much of it may go to tools outside its groups (fillRoom). fit.ts asks;
 * `status` and `check` report the budget in force.
 */

/**
 * The share of what a mode's tools cost that its list may grow to, between its budget and
 * maxBudget: all of it (0.5 held back the tools its typical tasks name, fill.ts NAMED_BY, on stacks
 * whose modes hold little; CATALOG_SHARE still bounds every mode).
 */
const MEMBER_SHARE = 1;
/**
 * The share of what the catalog's tools cost as their servers list them (what a client without
 * lazytools loads, `status`'s reduction base) that a grown list may cost: every mode stays at
 * least 85.5% below it, a margin over 85% for tokenizers that count a little differently.
 * Measured against the listed (compact) definitions instead, 0.15 gave verbose catalogs' modes
 * 91% cuts while they missed their tasks' tools: on the five blind stacks, gold tools shown in the
 * task's mode 255 -> 290 of 407 with this base (tuning stacks 428 -> 433 of 609), every stack's
 * mean mode cut 85.5-87.8%.
 */
const CATALOG_SHARE = 0.145;

/**
 * What a mode may spend: its budget, or where its tools hold much more (a large catalog: more
 * servers doing the mode's work, each with its own entry points), up to what they cost (MEMBER_SHARE)
 * and CATALOG_SHARE of what the catalog costs, at most `maxBudget`. A fixed budget would show
 * a shrinking part of the mode's work as a catalog grows. `memberTokens` is what listing every
 * member would cost, `catalogTokens` what the servers' own definitions of every tool cost
 * (`Catalog.totalTokens`).
 */
export function effectiveBudget(mode: Pick<ResolvedMode, 'budget' | 'maxBudget'>, memberTokens: number, catalogTokens = Number.POSITIVE_INFINITY): number | undefined {
  if (!scales(mode)) return mode.budget;
  const grown = Math.min(Math.floor(MEMBER_SHARE * memberTokens), Math.floor(CATALOG_SHARE * catalogTokens));
  return Math.min(mode.maxBudget, Math.max(mode.budget, grown));
}

/**
 * The share of a small catalog (one where CATALOG_SHARE of it is less than a mode's budget) that a
 * mode's list may reach with tools outside its groups (rc `fill`): past it only the groups' own
 * tools join. Budgets are sized for catalogs of about 40,000 tokens and up; on a blind stack of
 * 274 tools and 34,409 tokens every preset filled its budget with loose matches (browser_testing:
 * 40 of 41 tools, on a stack with no browser), 82.7% below the catalog on average. Measured (mean
 * preset cut on that stack / on reference + GitHub, whose modes then show more of their groups'
 * tools, development 35 -> 43): 0.10 85.9% / 87.7%, 0.11 85.3%, 0.12 84.7%; a cap on the whole
 * budget instead (14.5% of the catalog, at least 0.7 of the budget) gave 85.4% but cut
 * reference + GitHub's code_review from 28 of its own tools to 16. The tuning stacks' figures did
 * not move (gold shown 448, reach 577, intent 485 of 609).
 */
const SMALL_FILL_SHARE = 0.1;

/**
 * What a mode's list may cost before tools outside its groups stop joining it (see
 * SMALL_FILL_SHARE): unbounded on a large catalog, and for a mode without `maxBudget` (a budget
 * the rc fixed is spent as the rc says, like effectiveBudget's).
 */
export function fillRoom(mode: Pick<ResolvedMode, 'budget' | 'maxBudget'>, catalogTokens: number): number {
  if (!smallFor(mode, catalogTokens)) return Number.POSITIVE_INFINITY;
  return Math.floor(SMALL_FILL_SHARE * catalogTokens);
}

/**
 * How many modes with scaling budgets `sharedCap` weighs: past it (an rc of thousands of modes)
 * each mode keeps its own budget, as fitting one mode would otherwise fit them all.
 */
export const MAX_SHARED_MODES = 256;

/** Tokens a shared cap must leave for tools beside lazytools' own: about five tools. */
const MIN_ROOM = 1000;

/**
 * On a small catalog, the most any mode with a scaling budget may cost so that their mean cost
 * stays CATALOG_SHARE of the catalog (a cut of 85.5% or more, as effectiveBudget keeps on a large
 * one): water-filling, the costliest modes give up the most and modes under the cap keep what they
 * show. Undefined when their mean is within it already. A budget is sized for catalogs of about
 * 40,000 tokens: on 6 of a blind stack's 12 servers (21,223 tokens) the presets, each spending its
 * budget, were 84.4% below the catalog on average; on reference + GitHub (29,579 tokens) many
 * modes hold little, the mean is 87.7% below and no mode gives anything up. A cap on each mode
 * alone (20% of the catalog) brought the small stacks to 85.4% or more but took 7 of development's
 * 46 tools on reference + GitHub.
 */
export function sharedCap(costs: readonly number[], catalogTokens: number, ownTokens: number): number | undefined {
  if (!roomToShare(catalogTokens, ownTokens)) return undefined;
  const allowed = CATALOG_SHARE * catalogTokens * costs.length;
  let total = 0;
  for (const cost of costs) total += cost;
  if (total <= allowed) return undefined;
  const sorted = [...costs].sort((a, b) => a - b);
  let below = 0;
  for (let i = 0; i < sorted.length; i++) {
    const cap = (allowed - below) / (sorted.length - i);
    if (cap <= (sorted[i] ?? 0)) return Math.floor(cap);
    below += sorted[i] ?? 0;
  }
  return undefined;
}

/**
 * Whether a catalog's share leaves a mode room beside lazytools' own tools (`ownTokens`): one too
 * small to cut by keeps the modes' budgets (reference servers: 37 tools, 4,478 tokens).
 */
export function roomToShare(catalogTokens: number, ownTokens: number): boolean {
  return CATALOG_SHARE * catalogTokens >= ownTokens + MIN_ROOM;
}

/** Whether a catalog is small for a mode: CATALOG_SHARE of it is less than the mode's budget (see fillRoom, sharedCap). */
export function smallFor(mode: Pick<ResolvedMode, 'budget' | 'maxBudget'>, catalogTokens: number): boolean {
  return scales(mode) && Math.floor(CATALOG_SHARE * catalogTokens) < mode.budget;
}

/** Whether a mode's budget follows the catalog's size: it has a `maxBudget` above its `budget` (every preset). */
export function scales(mode: Pick<ResolvedMode, 'budget' | 'maxBudget'>): mode is { budget: number; maxBudget: number } {
  return mode.budget !== undefined && mode.maxBudget !== undefined && mode.maxBudget > mode.budget;
}
