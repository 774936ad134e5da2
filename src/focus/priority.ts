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
  /** Readers first (a read-only mode, or one whose tools mostly read), writers first, or neither. */
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
  /** The words the mode's description names (see `modeFocus`): a tool named after one is what the mode is for. */
  focus?: ReadonlySet<string> | undefined;
}

/** Words of a description that name no kind of tool. */
const PLAIN = new Set(['and', 'or', 'any', 'in', 'of', 'to', 'you', 'your', 'what', 'is', 'are', 'the', 'a', 'an', 'first', 'only', 'read-only', 'on', 'at', 'with', 'from', 'start', 'day', 'work', 'things']);

/** One word, singular: "logs" and "log", "requests" and "request" match. */
function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/**
 * What a mode says it is for, as singular words of its description ("Find and fix bugs: logs,
 * errors, console and network requests..."): a tool whose name says one of them
 * (`list_console_messages`, `kubectl_logs`) is central to the mode whatever group placed it.
 */
export function modeFocus(mode: Pick<ResolvedMode, 'description'>): ReadonlySet<string> {
  return new Set(words(mode.description).filter((word) => !PLAIN.has(word) && !FILLER.has(word)).map(singular));
}

/** What a list or get tool is about, singular ("network request" for both list_network_requests and get_network_request). */
export function listedThing(name: readonly string[]): string {
  return name.slice(1).map(singular).join(' ');
}

/**
 * Verbs that start work: a model looks, lists, reads, searches or drives the page before it does
 * anything else, so a tool whose name starts with one is an entry point of its server.
 */
const PRIMARY = new Set([
  'navigate', 'read', 'search', 'query', 'snapshot', 'screenshot', 'logs', 'log', 'describe', 'click', 'type', 'run', 'start',
  'execute', 'exec', 'edit', 'write', 'get', 'take', 'sequentialthinking', 'thinking',
]);

/** Verbs of second steps: worth more than a niche tool, less than an entry point. */
const SECONDARY = new Set(['fill', 'fetch', 'extract', 'resolve', 'find', 'list', 'open', 'scrape', 'apply', 'console', 'evaluate', 'status', 'show', 'view', 'retrieve', 'diff', 'lookup', 'crawl', 'download']);

/**
 * Verbs that create or change things: second steps in most modes, entry points in a mode whose
 * work is changing things (`lean: "write"`: create the ticket, update its status).
 */
const CHANGE = new Set(['create', 'update', 'add', 'comment', 'move', 'rename', 'scale', 'rollout', 'restart', 'set', 'patch', 'upload', 'install', 'upgrade', 'append', 'replace', 'insert']);

/** Words of tools a task rarely starts with: tuning, bookkeeping, lifecycle of the tool itself, directories of people. */
const NICHE = new Set([
  'emulate', 'drag', 'drop', 'hover', 'heap', 'heapsnapshot', 'trace', 'screencast', 'config', 'feedback', 'usage', 'stats', 'prompts',
  'reconnect', 'resize', 'cleanup', 'ping', 'template', 'templates', 'property', 'session', 'sessions', 'recent', 'dialog', 'pdf',
  'node', 'forward', 'port', 'generic', 'media', 'tabs', 'performance', 'insight', 'more', 'self', 'colors', 'health', 'user', 'users',
  'image', 'images', 'video', 'videos', 'news', 'place', 'places', 'local',
]);

/** What naming a word of the mode's description is worth: a tool the mode is for, before a niche one of its groups. */
const FOCUS = 1;

/** Words of tools that destroy or stop things: never the first step, and costly when wrong. */
const DESTRUCTIVE = new Set(['delete', 'remove', 'drop', 'kill', 'terminate', 'destroy', 'purge', 'force', 'uninstall', 'unsafe', 'stop', 'close']);

/** Words that say nothing about what a tool does: prefixes servers put on every name, articles. */
const FILLER = new Set(['api', 'mcp', 'browser', 'kubectl', 'tool', 'a', 'an', 'the', 'by', 'of', 'for', 'to']);

/**
 * HTTP methods that OpenAPI-generated names lead with (`API-post-search`, `API-patch-page`): the
 * word after one says what the tool does ("search"); a bare object after `post` creates it and
 * after `patch` or `put` updates it.
 */
const HTTP_METHODS = new Map([['post', 'create'], ['put', 'update'], ['patch', 'update']]);

const isVerb = (word: string) => PRIMARY.has(word) || SECONDARY.has(word) || CHANGE.has(word) || DESTRUCTIVE.has(word);

/**
 * The words of a tool's name that say what it does: the server's own name words dropped unless
 * they are the verb (`brave_web_search` on server brave-search keeps "search"), filler dropped,
 * an HTTP method read as the verb it stands for.
 */
export function nameWords(tool: Pick<CatalogTool, 'name' | 'server'>): readonly string[] {
  const cached = nameCache.get(tool);
  if (cached !== undefined) return cached;
  const found = readNameWords(tool);
  nameCache.set(tool, found);
  return found;
}

/** Per tool object: its name words are read once, whatever the number of modes fitted. */
const nameCache = new WeakMap<object, readonly string[]>();

function readNameWords(tool: Pick<CatalogTool, 'name' | 'server'>): string[] {
  const server = new Set(words(tool.server));
  const name = words(tool.name).filter((word) => !FILLER.has(word) && (!server.has(word) || isVerb(word)));
  const method = HTTP_METHODS.get(name[0] ?? '');
  if (method !== undefined && name.length > 1) return isVerb(name[1] ?? '') ? name.slice(1) : [method, ...name.slice(1)];
  return name;
}

/** Words that name where a tool acts rather than what it does: "navigate_page" does what "navigate" does. */
const PLACE_WORDS = new Set(['page', 'pages', 'web', 'tab', 'text', 'script', 'take', 'browser']);

/**
 * What a tool does, as a key two servers' tools share when they do the same thing (Playwright's
 * `browser_navigate` and Chrome DevTools' `navigate_page`, Tavily's and Brave's web search).
 */
export function capability(tool: Pick<CatalogTool, 'name' | 'server'>): string {
  let found = capabilityCache.get(tool);
  if (found === undefined) capabilityCache.set(tool, (found = readCapability(tool)));
  return found;
}

const capabilityCache = new WeakMap<object, string>();

function readCapability(tool: Pick<CatalogTool, 'name' | 'server'>): string {
  const name = nameWords(tool);
  const kept = name.filter((word) => !PLACE_WORDS.has(word));
  return (kept.length > 0 ? kept : name).join(' ');
}

/**
 * The priority of one tool in one mode, without a model: rc `priority`; recorded usage in the
 * mode; generality (a name that starts with an entry verb and says little more, before niche and
 * destructive tools); reading before writing in read-leaning modes, and creating and updating
 * first in write-leaning ones; how central the tool is to the mode's groups (a tool glob or
 * keyword match, or the topic score); and cost (two cheap tools may beat one 4,000-token tool).
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
  const name = nameWords(tool);
  const named = context.focus === undefined ? undefined : name.find((word) => context.focus?.has(singular(word)));
  // The verb leads the name, or follows one object word ("web_search", "page_content").
  const verb = isVerb(name[0] ?? '') ? name[0] : name.length === 2 && isVerb(name[1] ?? '') ? name[1] : undefined;
  const writes = context.lean === 'write';
  const thing = verb === name[0] && (verb === 'get' || verb === 'list') && name.length > 1 ? listedThing(name) : undefined;
  const pair = thing !== undefined && context.listed?.has(`${verb === 'get' ? 'list' : 'get'} ${thing}`) === true;
  if (name.some((word) => DESTRUCTIVE.has(word))) add(-2.5, 'destroys or stops things');
  // Niche in general, not in a mode that names it ("traces" in debugging's description).
  else if (name.some((word) => NICHE.has(word) && !context.focus?.has(singular(word)))) add(-1.5, 'niche');
  else if (pair && verb === 'get') add(1.5, `second step (its server lists ${thing} first)`);
  else if (pair && verb === 'list') add(2.5, `entry point (lists the ${thing} a get reads)`);
  else if (verb !== undefined && PRIMARY.has(verb)) add(2.5, `entry point ("${verb}")`);
  else if (verb !== undefined && CHANGE.has(verb)) add(writes ? 2.5 : 1.5, writes ? `entry point of a write-leaning mode ("${verb}")` : `second step ("${verb}")`);
  else if (verb !== undefined && SECONDARY.has(verb)) add(1.5, `second step ("${verb}")`);
  else if (name.some((word) => isVerb(word))) add(1, 'entry verb in its name');
  add(name.length <= 1 ? 1 : name.length === 2 ? 0.5 : -0.5 * (name.length - 3), name.length <= 2 ? 'general (short name)' : 'specific (long name)');
  if (context.lean === 'read') add(tool.readOnly ? 0.75 : -0.75, tool.readOnly ? 'reads (read-leaning mode)' : 'writes (read-leaning mode)');
  if (writes && !tool.readOnly) add(0.5, 'changes things (write-leaning mode)');
  // Servers mark even navigation destructive ("may lose page state"): a weak signal, kept weak.
  if (tool.definition.annotations?.destructiveHint === true) add(-0.5, 'annotated destructive');
  if (named !== undefined) add(FOCUS, `named in the mode's description ("${named}")`);
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
