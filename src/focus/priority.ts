import type { CatalogTool } from '../catalog/catalog.js';
import type { ResolvedMode } from '../config/resolve.js';
import { hundredths } from '../util/round.js';
import { indexOf } from '../util/lookup.js';
import { closeness, type ModeProfile } from './profile.js';
import { fittingWords, isVerb, listedThing, nameVerb, nameWords } from './words.js';

/** A signal of a tool's priority: what it added (none for a note) and why. */
export type Signal = readonly [value: number | undefined, reason: string | (() => string)];

/** A tool's priority in a mode and the signals that made it, in words (`status --explain`). */
export interface Priority {
  priority: number;
  /** The signals, in order; `why` words them. Fitting appends breadth notes here. */
  readonly signals: Signal[];
  /** The signals in words, made when first read (fitting ranks every member of every mode; few are read). */
  readonly why: string[];
}

/** Signals in words: "+2.5 entry point", a note as it is. */
export function wordSignals(signals: readonly Signal[]): string[] {
  return signals.map(([value, given]) => {
    const reason = typeof given === 'function' ? given() : given;
    return value === undefined ? reason : `${value > 0 ? '+' : ''}${hundredths(value)} ${reason}`;
  });
}

/** A priority and its signals, worded later (see Priority). */
interface Scoring {
  priority: number;
  signals: Signal[];
}

/** What toolPriority reads besides the tool: the mode, its lean, usage, rc override, and what fitting knows of the catalog. */
interface PriorityContext {
  mode: Pick<ResolvedMode, 'groups'>;
  /** Readers first (a read-only mode, or rc `lean: "read"`), writers first, or neither. */
  lean: 'read' | 'write' | undefined;
  /** Decayed count of recorded calls of this tool in this mode (usage.jsonl). */
  usage: number;
  /** rc `tools.<id>.priority`. */
  override: number | undefined;
  /**
   * The `list` tools of the tool's server, by what they list (see `listedThing`): a `get` of one
   * thing its server also lists is a second step (the list gives the id), the list the entry point.
   */
  listed?: ReadonlySet<string> | undefined;
  /** What the mode is for (its description and tasks, see profile.ts). */
  profile?: ModeProfile | undefined;
  /** The words the tool's server puts before every tool name (see serverPrefixes). */
  prefix?: ReadonlySet<string> | undefined;
}

/** What a tool named after the mode's work gains per unit of closeness (profile.ts caps closeness at 3). */
const CLOSE = 0.9;

/**
 * The priority of one tool in one mode, without a model: rc `priority`; recorded usage in the
 * mode; how close the tool's name is to what the mode is for (its description and typical tasks);
 * generality (a name that starts with an entry verb and says little more, before niche and
 * destructive tools); reading before writing in read-leaning modes, and creating and updating
 * first in write-leaning ones; how central the tool is to the mode's groups (a tool glob or
 * keyword match, or the topic score); and cost (two cheap tools may beat one 4,000-token tool).
 * Deterministic: the same tool and context give the same number.
 */
export function toolPriority(tool: CatalogTool, context: PriorityContext): Scoring {
  const signals: Signal[] = [];
  let priority = 0;
  const add = (value: number, reason: string) => {
    if (value === 0) return;
    priority += value;
    signals.push([value, reason]);
  };
  const words = fittingWords();
  if (context.override !== undefined) add(context.override, 'rc priority');
  if (context.usage > 0) add(2 * Math.log2(1 + context.usage), `used ${hundredths(context.usage)} times lately in this mode`);
  const name = nameWords(tool, context.prefix);
  const close = context.profile ? closeness(tool, context.profile, context.prefix) : undefined;
  const verb = nameVerb(name);
  const writes = context.lean === 'write';
  const thing = verb === name[0] && (verb === 'get' || verb === 'list') && name.length > 1 ? listedThing(name) : undefined;
  const pair = thing !== undefined && context.listed?.has(`${verb === 'get' ? 'list' : 'get'} ${thing}`) === true;
  const named = (word: string) => close?.words.includes(word) === true;
  if (name.some((word) => words.destructive.has(word))) add(-2.5, 'destroys or stops things');
  // Niche in general, not in a mode whose work it names ("traces" in debugging's description).
  else if (name.some((word) => words.niche.has(word) && !named(word))) add(-1.5, 'niche');
  else if (pair && verb === 'get') add(1.5, `second step (its server lists ${thing} first)`);
  else if (pair && verb === 'list') add(2.5, `entry point (lists the ${thing} a get reads)`);
  else if (verb !== undefined && words.primary.has(verb)) add(2.5, `entry point ("${verb}")`);
  else if (verb !== undefined && (words.change.has(verb) || words.actions.has(verb))) add(writes ? 2.5 : 1.5, writes ? `entry point of a write-leaning mode ("${verb}")` : `second step ("${verb}")`);
  else if (verb !== undefined && words.secondary.has(verb)) add(1.5, `second step ("${verb}")`);
  else if (name.some((word) => isVerb(word))) add(1, 'entry verb in its name');
  add(name.length <= 1 ? 1 : name.length === 2 ? 0.5 : -0.5 * (name.length - 3), name.length <= 2 ? 'general (short name)' : 'specific (long name)');
  if (context.lean === 'read') add(tool.readOnly ? 0.75 : -0.75, tool.readOnly ? 'reads (read-leaning mode)' : 'writes (read-leaning mode)');
  if (writes && !tool.readOnly) add(0.5, 'changes things (write-leaning mode)');
  // Servers mark even navigation destructive ("may lose page state"): a weak signal, kept weak.
  if (tool.definition.annotations?.destructiveHint === true) add(-0.5, 'annotated destructive');
  if (close && close.score > 0) add(hundredths(CLOSE * close.score), `close to the mode's work${close.words.length > 0 ? ` (${close.words.map((word) => `"${word}"`).join(', ')})` : ' (its summary)'}`);
  add(relevance(tool, context.mode.groups), 'fit to the mode\'s groups');
  add(hundredths(Math.min(0.3, -0.6 * Math.log2(Math.max(tool.tokens, 50) / 250))), `${tool.tokens} tokens`);
  return { priority: hundredths(priority), signals };
}

/**
 * How central the tool is to the mode: a tool glob or keyword match is deliberate (1.5), a topic
 * match counts by its score (placement's threshold is 2.5; 12 and more is as sure as a glob), and
 * a group the mode lists first counts more than one it lists last.
 */
function relevance(tool: CatalogTool, groups: readonly string[]): number {
  let best = 0;
  const position = indexOf(groups);
  for (const placement of tool.placements) {
    const index = position.get(placement.group) ?? -1;
    if (index < 0) continue;
    // A mode lists its groups most central first: the last one counts half as much as the first.
    const order = 1 - (0.5 * index) / Math.max(1, groups.length - 1);
    const value = (placement.score === undefined ? 1.5 : Math.min(placement.score, 12) / 8) * order;
    best = Math.max(best, value);
  }
  return hundredths(best);
}
