import { createHash } from 'node:crypto';
import type { Client, Transport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { admitTools, escapedName, hasUnseenCharacters, MAX_SERVER_ITEMS, MAX_SERVER_LIST_BYTES, MAX_SERVER_TOOLS, PRIMITIVE_LISTS, usableItems, usableTools } from '../catalog/admit.js';
import type { ToolDefinition } from '../catalog/types.js';
import { outsideText } from '../util/redact.js';
import { jsonAtLeast, MAX_TIMER_MS, megabytes, sliceWhole } from '../util/bounds.js';
import type { PromptDefinition, ResourceDefinition, TemplateDefinition, UpstreamPrimitives } from './primitives.js';
import { FloodGate, holdsReading, listChangeOf, NOTIFICATION_BUDGET, paced, RELIST_GAP_MS, relistGap } from './flood.js';
import type { PrimitiveKind } from './types.js';
import { StdioUpstreamTransport } from './stdio-transport.js';

// The one lister for every paged list of an upstream (tools, prompts, resources, templates), and
// the coalescing of the re-lists its list_changed notifications cause.

const looseResult = z.looseObject({});
/** A server that keeps handing out cursors stops being asked after this many pages. */
const MAX_PAGES = 1_000;

/**
 * What the pages of one whole list may hold in all (jsonAtLeast: characters and values), their
 * items, cursors and anything else on them: past it no further page is asked for. The items kept
 * have their own bound (MAX_SERVER_LIST_BYTES, half of this), so an honest list never reaches it;
 * pages of no tools with megabytes beside them or in their cursor were read up to MAX_PAGES times
 * (a 48 MiB page each: the event loop held over a second at a time, for every client, for the two
 * minutes of LIST_TIMEOUTS after each tools/list_changed).
 */
export const MAX_LIST_PAGE_BYTES = 2 * MAX_SERVER_LIST_BYTES;

/**
 * What one whole list (every page of it) may take, in page timeouts (the upstream's start
 * timeout, 30 s by default: 2 minutes). Each page had its own timeout, so a server answering each
 * just under it held a start, a call waiting on that start and every re-list for up to MAX_PAGES
 * timeouts (8 hours). Four: the first page keeps its whole timeout (a slow first answer is a
 * start's business, as before), and a real server's largest lists, thousands of tools over tens of
 * pages, arrive in seconds; a rc `startTimeout` raised for a slow server raises this with it.
 */
export const LIST_TIMEOUTS = 4;

/**
 * Every page of a list method, up to `max` items (then no further page is asked for, and `over`
 * hears it once); `keep` picks what one page's list holds of use. Past LIST_TIMEOUTS page
 * timeouts the page being read is given up: the pages read are kept and `cut` hears it, once; it
 * hears too of pages past MAX_LIST_PAGE_BYTES in all, and of a cursor handed out twice (a loop:
 * the pages it leads to were read already), after which no further page is asked for.
 */
async function listPages<T>(client: Client, method: string, field: string, timeout: number, keep: (list: unknown) => T[], bound?: { max: number; over: () => void; full?: () => boolean }, cut?: (why: ListCut, pages: number, kept: number) => void): Promise<T[]> {
  const items: T[] = [];
  let listed = 0;
  let cursor: string | undefined;
  let pageBytes = 0;
  // Digests, not the cursors: together they may be as long as the pages' bound.
  const cursors = new Set<string>();
  const deadline = new AbortController();
  // Within what a timer can wait: past it Node fires at once, and the second page would be cut.
  const timer = setTimeout(() => deadline.abort(), Math.min(LIST_TIMEOUTS * timeout, MAX_TIMER_MS));
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      let result: Record<string, unknown>;
      try {
        // The first page has its timeout alone: the deadline cuts only what follows it.
        result = (await client.request({ method, params: cursor ? { cursor } : {} } as never, looseResult, { timeout, signal: page > 0 ? deadline.signal : undefined })) as Record<string, unknown>;
      } catch (error) {
        if (page === 0 || !deadline.signal.aborted) throw error;
        cut?.('slow', page, items.length);
        break;
      }
      let list = result[field];
      cursor = typeof result.nextCursor === 'string' && result.nextCursor.length > 0 ? result.nextCursor : undefined;
      pageBytes += jsonAtLeast(result, MAX_LIST_PAGE_BYTES);
      let stop: ListCut | undefined;
      if (cursor !== undefined && pageBytes > MAX_LIST_PAGE_BYTES) stop = 'bytes';
      else if (cursor !== undefined) {
        const seen = cursors.size;
        cursors.add(createHash('sha256').update(cursor).digest('base64'));
        if (cursors.size === seen) stop = 'loop';
      }
      if (stop) cursor = undefined;
      let over = false;
      if (bound && Array.isArray(list)) {
        // Counted as listed, before any is judged: what a page costs to judge is bounded too.
        const room = bound.max - listed;
        over = list.length > room || (list.length === room && cursor !== undefined);
        if (list.length > room) list = list.slice(0, room);
        listed += (list as unknown[]).length;
        if (listed >= bound.max) cursor = undefined;
      }
      for (const item of keep(list)) items.push(item);
      // Said after what the page's own items caused, in the order they came.
      if (over) bound?.over();
      if (stop) cut?.(stop, page + 1, items.length);
      if (!cursor || bound?.full?.()) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return items;
}

/** Why a list was ended before its last page: its deadline, its pages' bytes, a cursor handed out again. */
type ListCut = 'slow' | 'bytes' | 'loop';

/** What a server whose list of `what` was ended early (listPages) is told (its name comes with `warn`). */
function listCut(what: string, timeout: number, warn: (message: string) => void): (why: ListCut, pages: number, kept: number) => void {
  const because = {
    slow: `took longer than ${LIST_TIMEOUTS} x its start timeout (${Math.min(LIST_TIMEOUTS * timeout, MAX_TIMER_MS)} ms)`,
    bytes: `sent pages of more than ${megabytes(MAX_LIST_PAGE_BYTES)} in all`,
    loop: 'handed out a cursor it had handed out before',
  };
  return (why, pages, kept) => warn(`listing its ${what} ${because[why]}: only the ${kept} ${what} of its first ${pages} pages are served`);
}

/** The items of one page a client can take (catalog/admit usableItems); `warn` hears what was left out. */
function usable<T>(kind: keyof typeof PRIMITIVE_LISTS, warn: (message: string) => void): (list: unknown) => T[] {
  const what = PRIMITIVE_LISTS[kind].label;
  const skip = (id: string, reason: string) => warn(`${what} ${escapedName(JSON.stringify(id))} skipped: ${outsideText(reason, 300)}`);
  return (list) => {
    const items = usableItems(kind, list, skip);
    if (kind !== 'prompts') return items as T[];
    // A prompt is picked by its name (a slash command): one that only looks like another's is left out, as a tool is.
    const visible: typeof items = [];
    for (const item of items) {
      if (!hasUnseenCharacters(item.name as string)) visible.push(item);
      else skip(sliceWhole(item.name as string, 80), 'its name has control, invisible or bidirectional-override characters (shown escaped)');
    }
    return visible as T[];
  };
}

/**
 * `keep` with a running total of the size of what it kept (jsonAtLeast): past `maxBytes` it keeps
 * nothing more, says so once (`what`: "tool definitions"; `items`: "tools") and is `full`, so no
 * later page is asked for. Each item is bounded alone (MAX_DEFINITION_BYTES), a list is not.
 */
function withinBytes<T extends object>(keep: (list: unknown) => T[], idOf: (item: T) => unknown, what: string, items: string, warn: (message: string) => void): { keep: (list: unknown) => T[]; full: () => boolean } {
  let bytes = 0;
  let taken = 0;
  let full = false;
  return {
    full: () => full,
    keep: (list) => {
      const kept: T[] = [];
      for (const item of keep(list)) {
        if (full) break;
        bytes += jsonAtLeast(item, MAX_SERVER_LIST_BYTES);
        if (bytes > MAX_SERVER_LIST_BYTES) {
          full = true;
          warn(`lists ${what} of more than ${megabytes(MAX_SERVER_LIST_BYTES)}: only the ${taken} ${items} before ${escapedName(JSON.stringify(sliceWhole(String(idOf(item)), 80)))} are served`);
          break;
        }
        kept.push(item);
        taken++;
      }
      return kept;
    },
  };
}

/** What a server that lists more than `max` of `what` is told: the rest are not served. */
function tooMany(max: number, what: string): string {
  return `lists more than ${max} ${what}: only the first ${max} are served`;
}

/** Every tool the server lists, through the admission rules (catalog/admit.ts); `warn` hears what was left out. */
export async function listTools(client: Client, timeout: number, warn: (message: string) => void): Promise<ToolDefinition[]> {
  const over = () => warn(tooMany(MAX_SERVER_TOOLS, 'tools'));
  const usableTool = (list: unknown) => usableTools(list, (name, reason) => warn(`tool "${sliceWhole(name, 80)}" skipped: ${reason}`));
  const bytes = withinBytes(usableTool, (tool) => tool.name, 'tool definitions', 'tools', warn);
  const tools = await listPages(client, 'tools/list', 'tools', timeout, bytes.keep, { max: MAX_SERVER_TOOLS, over, full: bytes.full }, listCut('tools', timeout, warn));
  return admitTools(tools, warn);
}

/** Lists what the server's capabilities say it offers besides tools; a failing list counts as empty. */
export async function listPrimitives(client: Client, timeout: number, warn: (message: string) => void): Promise<UpstreamPrimitives> {
  const capabilities = client.getServerCapabilities() ?? {};
  const safe = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await run();
    } catch (error) {
      warn(`could not list ${what}: ${outsideText((error as Error).message)}`);
      return [];
    }
  };
  // Each list within MAX_SERVER_ITEMS items and MAX_SERVER_LIST_BYTES of them.
  const list = <T extends object>(method: string, kind: keyof typeof PRIMITIVE_LISTS, what: string): Promise<T[]> => {
    const bytes = withinBytes(usable<T>(kind, warn), (item) => (item as Record<string, unknown>)[PRIMITIVE_LISTS[kind].id], what, what, warn);
    const over = () => warn(tooMany(MAX_SERVER_ITEMS, what));
    return safe(what, () => listPages(client, method, kind, timeout, bytes.keep, { max: MAX_SERVER_ITEMS, over, full: bytes.full }, listCut(what, timeout, warn)));
  };
  const [prompts, resources, templates] = await Promise.all([
    capabilities.prompts ? list<PromptDefinition>('prompts/list', 'prompts', 'prompts') : [],
    capabilities.resources ? list<ResourceDefinition>('resources/list', 'resources', 'resources') : [],
    capabilities.resources ? list<TemplateDefinition>('resources/templates/list', 'resourceTemplates', 'resource templates') : [],
  ]);
  return { prompts, resources, templates };
}

/**
 * Re-lists on list_changed, coalesced: a burst (2,000 prompts/list_changed once caused 6,003 list
 * requests) costs one re-list in flight and one after it, for the kinds changed meanwhile.
 */
class Relister<K> {
  private running: Promise<void> | undefined;
  private readonly changed = new Set<K>();
  /**
   * When the last re-list started and how long the next waits after that start: kept across
   * rounds, since a change noted while a rebuild held the event loop arrives after its round ended
   * (a flood's re-lists once ran back to back, none of them paced).
   */
  private lastStart = -Infinity;
  private gap = RELIST_GAP_MS;

  constructor(
    /** Re-lists the given kinds, resolving to the milliseconds its rebuild took; an error is logged by `fail`, and the next round still runs. */
    private readonly run: (kinds: K[]) => Promise<number>,
    /** False once the connection the re-lists were for is gone. */
    private readonly current: () => boolean,
    private readonly fail: (kinds: K[], error: Error) => void,
  ) {}

  /** True while a re-list is running. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** True when a re-list of `kind` is already due after the one in flight. */
  due(kind: K): boolean {
    return this.running !== undefined && this.changed.has(kind);
  }

  /** Notes a change of `kind`; resolves when the re-list that covers it has ended. */
  changedKind(kind: K): Promise<void> {
    this.changed.add(kind);
    return this.kick();
  }

  private kick(): Promise<void> {
    this.running ??= (async () => {
      while (this.changed.size > 0 && this.current()) {
        // A burst's next re-list waits its turn (flood.ts): one rebuild now, one later, spaced by what the last cost.
        await paced(this.lastStart, this.gap);
        this.lastStart = performance.now();
        const kinds = [...this.changed];
        this.changed.clear();
        // What the gateway's event loop did meanwhile: reading and parsing the pages (a stdio
        // transport's callbacks, timed nowhere else) and the rebuild. Waiting on a slow list (the
        // network, the upstream) costs it nothing: a 48 MiB page held it ~2 s a list, counted as 0.
        const before = performance.eventLoopUtilization();
        let cost = 0;
        try {
          cost = await this.run(kinds);
        } catch (error) {
          this.fail(kinds, error as Error);
        }
        this.gap = relistGap(Math.max(cost, performance.eventLoopUtilization(before).active));
      }
    })().finally(() => {
      this.running = undefined;
      // A change noted between the loop's last check and here gets its own round.
      if (this.changed.size > 0 && this.current()) void this.kick();
    });
    return this.running;
  }
}

/** What a ListWatch reads of its upstream and tells it. */
export interface WatchTarget {
  /** The current connection (undefined while down: re-lists stop). */
  client(): Client | undefined;
  timeout(): number;
  warn(message: string): void;
  tools(tools: ToolDefinition[]): void;
  primitives(primitives: UpstreamPrimitives, kinds: PrimitiveKind[]): void;
}

/** An upstream's list_changed notifications, turned into coalesced re-lists (tools apart from prompts and resources). */
export class ListWatch {
  private readonly toolLists: Relister<'tools'>;
  private readonly primitiveLists: Relister<PrimitiveKind>;
  /** Coalesces list changes and bounds other notifications per window (flood.ts). */
  private readonly flood = new FloodGate((kind) => (kind === 'tools' ? this.toolLists.due('tools') : this.primitiveLists.due(kind)));

  constructor(private readonly target: WatchTarget) {
    const connected = () => target.client() !== undefined;
    const fail = (kinds: string[], error: Error) => target.warn(`could not re-list ${kinds.join(' and ')}: ${outsideText(error.message)}`);
    this.toolLists = new Relister<'tools'>(() => this.refreshTools(), connected, fail);
    this.primitiveLists = new Relister<PrimitiveKind>((kinds) => this.refreshPrimitives(kinds), connected, fail);
  }

  /** True while a re-list of tools is running. */
  get relistingTools(): boolean {
    return this.toolLists.busy;
  }

  /**
   * True when a message the upstream sent unasked (a notification, a request, a stray answer) is
   * left out (flood.ts): a list change already due, or one past the budget of a transport that
   * cannot be held; past the budget a stdio upstream is not read for a while.
   */
  gated(transport: Transport, method: string): boolean {
    const now = performance.now();
    const hold = holdsReading(transport) ? transport : undefined;
    // A stdio pipe holds what it has not read; an HTTP stream's chunk was read, its excess is dropped.
    const verdict = this.flood.judge(method, transport instanceof StdioUpstreamTransport, now, (dropped) => this.target.warn(`${dropped} unasked messages dropped (over ${NOTIFICATION_BUDGET} a second)`));
    if (hold && this.flood.spent) hold.holdReading(this.flood.holdMs(now));
    return verdict !== 'pass';
  }

  toolsChanged(): void {
    void this.toolLists.changedKind('tools');
  }

  /** Re-lists on a prompts or resources list_changed `method`; undefined for any other method. */
  listChanged(method: string): Promise<void> | undefined {
    const kind = listChangeOf(method);
    return kind === undefined || kind === 'tools' ? undefined : this.primitiveLists.changedKind(kind);
  }

  /** Re-lists the tools; resolves to the milliseconds the gateway took to take them (the rebuild). */
  private async refreshTools(): Promise<number> {
    const client = this.target.client();
    if (!client) return 0;
    const tools = await listTools(client, this.target.timeout(), this.target.warn);
    return timed(() => this.target.tools(tools));
  }

  /** Re-lists prompts and resources; resolves to the milliseconds the gateway took to take them. */
  private async refreshPrimitives(kinds: PrimitiveKind[]): Promise<number> {
    const client = this.target.client();
    if (!client) return 0;
    const primitives = await listPrimitives(client, this.target.timeout(), this.target.warn);
    return this.target.client() === client ? timed(() => this.target.primitives(primitives, kinds)) : 0;
  }
}

/** Milliseconds `work` took. */
function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}
