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
 * Words that start work: a model looks, lists, reads or searches before it does anything else,
 * so the entry points of a server are worth more than its niche tools.
 */
const ENTRY = new Set([
  'navigate', 'search', 'list', 'get', 'read', 'snapshot', 'logs', 'log', 'query', 'find', 'fetch', 'status', 'describe',
  'screenshot', 'open', 'view', 'show', 'retrieve', 'explain', 'resolve', 'diff', 'lookup', 'console', 'messages', 'thinking',
  'sequentialthinking', 'docs', 'web', 'scrape', 'extract', 'click', 'type', 'fill', 'run', 'execute', 'start', 'edit', 'write',
]);

/** Words of tools a task rarely starts with: tuning, bookkeeping, lifecycle of the tool itself. */
const NICHE = new Set([
  'emulate', 'drag', 'drop', 'hover', 'heap', 'heapsnapshot', 'trace', 'screencast', 'config', 'feedback', 'usage', 'stats', 'prompts',
  'reconnect', 'resize', 'cleanup', 'ping', 'template', 'templates', 'property', 'session', 'sessions', 'recent', 'dialog',
  'upload', 'pdf', 'install', 'uninstall', 'upgrade', 'patch', 'node', 'forward', 'port', 'generic', 'media', 'tabs', 'performance',
]);

/** Words of tools that destroy or stop things: never the first step, and costly when wrong. */
const DESTRUCTIVE = new Set(['delete', 'remove', 'drop', 'kill', 'terminate', 'destroy', 'purge', 'force', 'uninstall', 'unsafe']);

/**
 * The priority of one tool in one mode, without a model: rc `priority`; recorded usage in the
 * mode; generality (entry points before niche and destructive tools); reading before writing
 * in read-leaning modes; how central the tool is to the mode's groups (a tool glob or keyword
 * match, or the topic score); and cost (two cheap tools may beat one 4,000-token tool).
 * Deterministic: the same tool and context give the same number.
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
  const name = new Set(words(tool.name));
  if ([...name].some((word) => DESTRUCTIVE.has(word)) || tool.definition.annotations?.destructiveHint === true) add(-2, 'destroys or stops things');
  else if ([...name].some((word) => NICHE.has(word))) add(-1, 'niche');
  else if ([...name].some((word) => ENTRY.has(word))) add(1.5, 'entry point');
  if (context.readLeaning) add(tool.readOnly ? 1 : -1, tool.readOnly ? 'reads (read-leaning mode)' : 'writes (read-leaning mode)');
  add(relevance(tool, context.mode.groups), 'fit to the mode\'s groups');
  add(round(-0.8 * Math.log2(Math.max(tool.tokens, 50) / 200)), `${tool.tokens} tokens`);
  return { priority: round(priority), why };
}

/**
 * How central the tool is to the mode: a tool glob or keyword match is deliberate (2), a topic
 * match counts by its score (placement's threshold is 2.5; 12 and more is as sure as a glob).
 */
function relevance(tool: CatalogTool, groups: readonly string[]): number {
  let best = 0;
  for (const placement of tool.placements) {
    if (!groups.includes(placement.group)) continue;
    const value = placement.score === undefined ? 2 : Math.min(placement.score, 12) / 6;
    best = Math.max(best, value);
  }
  return round(best);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
