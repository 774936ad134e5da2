import type { CatalogTool } from '../catalog/catalog.js';
import { words } from '../catalog/text.js';
import type { ResolvedMode } from '../config/resolve.js';

/** A tool's priority in a mode and the signals that made it, in words (`status --explain`). */
export interface Priority {
  priority: number;
  why: string[];
}

export interface PriorityContext {
  mode: Pick<ResolvedMode, 'groups'>;
  /** The mode only reads, or most of its tools do: reading tools come first. */
  readLeaning: boolean;
  /** Decayed count of recorded calls of this tool in this mode (usage.jsonl). */
  usage: number;
  /** rc `tools.<id>.priority`. */
  override: number | undefined;
}

/**
 * Verbs that start work: a model looks, lists, reads, searches or drives the page before it does
 * anything else, so a tool whose name starts with one is an entry point of its server.
 */
const PRIMARY = new Set([
  'navigate', 'read', 'search', 'query', 'snapshot', 'screenshot', 'logs', 'log', 'describe', 'click', 'type', 'run', 'start',
  'execute', 'edit', 'write', 'get', 'take', 'sequentialthinking', 'thinking',
]);

/** Verbs of second steps: worth more than a niche tool, less than an entry point. */
const SECONDARY = new Set(['fill', 'fetch', 'extract', 'resolve', 'find', 'list', 'open', 'scrape', 'apply', 'console', 'evaluate', 'status', 'show', 'view', 'retrieve', 'diff', 'lookup']);

/** Words of tools a task rarely starts with: tuning, bookkeeping, lifecycle of the tool itself. */
const NICHE = new Set([
  'emulate', 'drag', 'drop', 'hover', 'heap', 'heapsnapshot', 'trace', 'screencast', 'config', 'feedback', 'usage', 'stats', 'prompts',
  'reconnect', 'resize', 'cleanup', 'ping', 'template', 'templates', 'property', 'session', 'sessions', 'recent', 'dialog', 'pdf',
  'node', 'forward', 'port', 'generic', 'media', 'tabs', 'performance', 'insight', 'more', 'self', 'colors', 'health',
]);

/** Words of tools that destroy or stop things: never the first step, and costly when wrong. */
const DESTRUCTIVE = new Set(['delete', 'remove', 'drop', 'kill', 'terminate', 'destroy', 'purge', 'force', 'uninstall', 'unsafe', 'stop', 'close']);

/** Words that say nothing about what a tool does: prefixes servers put on every name, articles. */
const FILLER = new Set(['api', 'mcp', 'browser', 'kubectl', 'tool', 'a', 'an', 'the', 'by', 'of', 'for', 'to']);

/**
 * The priority of one tool in one mode, without a model: rc `priority`; recorded usage in the
 * mode; generality (a name that starts with an entry verb and says little more, before niche and
 * destructive tools); reading before writing in read-leaning modes; how central the tool is to
 * the mode's groups (a tool glob or keyword match, or the topic score); and cost (two cheap
 * tools may beat one 4,000-token tool). Deterministic: the same tool and context give the same number.
 */
export function toolPriority(tool: CatalogTool, context: PriorityContext): Priority {
  const why: string[] = [];
  let priority = 0;
  const add = (value: number, reason: string) => {
    if (value === 0) return;
    priority += value;
    why.push(`${value > 0 ? '+' : ''}${round(value)} ${reason}`);
  };
  if (context.override !== undefined) add(context.override, 'rc priority');
  if (context.usage > 0) add(2 * Math.log2(1 + context.usage), `used ${round(context.usage)} times lately in this mode`);
  const server = new Set(words(tool.server));
  const name = words(tool.name).filter((word) => !server.has(word) && !FILLER.has(word));
  if (name.some((word) => DESTRUCTIVE.has(word))) add(-2.5, 'destroys or stops things');
  else if (name.some((word) => NICHE.has(word))) add(-1.5, 'niche');
  else if (PRIMARY.has(name[0] ?? '')) add(2.5, `entry point ("${name[0]}")`);
  else if (SECONDARY.has(name[0] ?? '')) add(1.5, `second step ("${name[0]}")`);
  else if (name.some((word) => PRIMARY.has(word) || SECONDARY.has(word))) add(1, 'entry verb in its name');
  add(name.length <= 1 ? 1 : name.length === 2 ? 0.5 : -0.5 * (name.length - 3), name.length <= 2 ? 'general (short name)' : 'specific (long name)');
  if (context.readLeaning) add(tool.readOnly ? 0.75 : -0.75, tool.readOnly ? 'reads (read-leaning mode)' : 'writes (read-leaning mode)');
  // Servers mark even navigation destructive ("may lose page state"): a weak signal, kept weak.
  if (tool.definition.annotations?.destructiveHint === true) add(-0.5, 'annotated destructive');
  add(relevance(tool, context.mode.groups), 'fit to the mode\'s groups');
  add(round(Math.min(0.3, -0.6 * Math.log2(Math.max(tool.tokens, 50) / 250))), `${tool.tokens} tokens`);
  return { priority: round(priority), why };
}

/**
 * How central the tool is to the mode: a tool glob or keyword match is deliberate (1.5), a topic
 * match counts by its score (placement's threshold is 2.5; 12 and more is as sure as a glob), and
 * a group the mode lists first counts more than one it lists last.
 */
function relevance(tool: CatalogTool, groups: readonly string[]): number {
  let best = 0;
  for (const placement of tool.placements) {
    const index = groups.indexOf(placement.group);
    if (index < 0) continue;
    // A mode lists its groups most central first: the last one counts half as much as the first.
    const order = 1 - (0.5 * index) / Math.max(1, groups.length - 1);
    const value = (placement.score === undefined ? 1.5 : Math.min(placement.score, 12) / 8) * order;
    best = Math.max(best, value);
  }
  return round(best);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
