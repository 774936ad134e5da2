import type { CatalogTool } from '../catalog/catalog.js';
import { words } from '../catalog/text.js';
import { entryList, readVocabulary, wordSet, type VocabularyEntry } from '../config/vocabulary.js';

/**
 * What budget fitting reads in tool names: the words that say what a tool does, its verb and its
 * kind of verb, from `vocabulary/fitting.json` (reviewed data, each entry with why).
 */

const FITTING_KEYS = ['primary', 'secondary', 'change', 'actions', 'niche', 'destructive', 'filler', 'place', 'plain', 'prose', 'httpMethods'] as const;

interface FittingWords {
  primary: ReadonlySet<string>;
  secondary: ReadonlySet<string>;
  change: ReadonlySet<string>;
  /** Domain actions (refund, publish, roll back): change verbs that also say what a mode is for. */
  actions: ReadonlySet<string>;
  niche: ReadonlySet<string>;
  destructive: ReadonlySet<string>;
  filler: ReadonlySet<string>;
  place: ReadonlySet<string>;
  plain: ReadonlySet<string>;
  /** Articles, pronouns and prepositions: skipped in mode profiles and tool summaries. */
  prose: ReadonlySet<string>;
  httpMethods: ReadonlyMap<string, string>;
}

let loaded: FittingWords | undefined;

/** The fitting vocabulary, read on first use. */
export function fittingWords(): FittingWords {
  if (loaded) return loaded;
  const file = readVocabulary('fitting', (json) => Object.fromEntries(FITTING_KEYS.map((key) => [key, entryList(json, key)])) as Record<(typeof FITTING_KEYS)[number], VocabularyEntry[]>);
  const methods = new Map<string, string>();
  for (const entry of file.httpMethods)
    for (const pair of (entry.words ?? '').split(/\s+/)) {
      const [method, verb] = pair.split(':');
      if (method && verb) methods.set(method, verb);
    }
  loaded = {
    primary: wordSet(file.primary),
    secondary: wordSet(file.secondary),
    change: wordSet(file.change),
    actions: wordSet(file.actions),
    niche: wordSet(file.niche),
    destructive: wordSet(file.destructive),
    filler: wordSet(file.filler),
    place: wordSet(file.place),
    plain: wordSet(file.plain),
    prose: wordSet(file.prose),
    httpMethods: methods,
  };
  return loaded;
}

/** A verb of any kind fitting knows. */
export function isVerb(word: string): boolean {
  const v = fittingWords();
  return v.primary.has(word) || v.secondary.has(word) || v.change.has(word) || v.actions.has(word) || v.destructive.has(word);
}

/** One word, singular: "logs" and "log", "requests" and "request" match. */
function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** A version or number token ("v2010", "2"): says nothing about what a tool does. */
const VERSION = /^v?\d+$/;

/**
 * The words of a tool's name that say what it does: the server's own name words dropped unless
 * they are the verb (`acme_web_search` on server acme-search keeps "search"), a word the
 * server puts before every tool name (`prefix`, see serverPrefixes), a shortened server name
 * ("woo" of woocommerce), versions and filler dropped, an HTTP method read as the verb it stands for.
 */
export function nameWords(tool: Pick<CatalogTool, 'name' | 'server'>, prefix?: ReadonlySet<string>): readonly string[] {
  const cache = prefix ? prefixedCache : nameCache;
  const cached = cache.get(tool);
  if (cached !== undefined) return cached;
  const found = readNameWords(tool, prefix);
  cache.set(tool, found);
  return found;
}

/**
 * Per tool object: its name words are read once, whatever the number of modes fitted. Keyed by
 * the tool alone (and whether a prefix is given): a tool object belongs to one catalog, whose
 * server prefixes do not change.
 */
const nameCache = new WeakMap<object, readonly string[]>();
const prefixedCache = new WeakMap<object, readonly string[]>();

function readNameWords(tool: Pick<CatalogTool, 'name' | 'server'>, prefix: ReadonlySet<string> | undefined): string[] {
  const { filler, httpMethods } = fittingWords();
  const server = serverWords(tool.server);
  const own = (word: string) => server.includes(word) || (word.length >= 3 && server.some((part) => part.length > word.length && part.startsWith(word)));
  const all = words(tool.name);
  const name = all.filter((word, index) => !filler.has(word) && !VERSION.test(word) && !(index === 0 && prefix?.has(word) && all.length > 1) && (!own(word) || isVerb(word)));
  const method = httpMethods.get(name[0] ?? '');
  if (method !== undefined && name.length > 1) return isVerb(name[1] ?? '') ? name.slice(1) : [method, ...name.slice(1)];
  return name;
}

let lastServer: string | undefined;
let lastServerWords: readonly string[] = [];
/** `words(server)`, remembered for the last server: a catalog's tools come server by server. */
function serverWords(server: string): readonly string[] {
  if (server !== lastServer) {
    lastServerWords = words(server);
    lastServer = server;
  }
  return lastServerWords;
}

/**
 * Per server, the first name words most of its tools share (`browser_` before every tool of a
 * browser server, `woo_` of a store's): a prefix, not what any one tool does. A server needs four
 * tools for a prefix to be told apart from a common verb.
 */
export function serverPrefixes(tools: readonly Pick<CatalogTool, 'name' | 'server'>[]): Map<string, ReadonlySet<string>> {
  const counts = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  for (const tool of tools) {
    sizes.set(tool.server, (sizes.get(tool.server) ?? 0) + 1);
    const first = words(tool.name)[0];
    if (first === undefined || isVerb(first)) continue;
    let byWord = counts.get(tool.server);
    if (!byWord) counts.set(tool.server, (byWord = new Map()));
    byWord.set(first, (byWord.get(first) ?? 0) + 1);
  }
  const out = new Map<string, ReadonlySet<string>>();
  for (const [server, byWord] of counts) {
    const size = sizes.get(server) ?? 0;
    if (size < 4) continue;
    const prefixes = [...byWord].filter(([, count]) => count * 2 > size).map(([word]) => word);
    if (prefixes.length > 0) out.set(server, new Set(prefixes));
  }
  return out;
}

/** What a list or get tool is about, singular ("widget" for both list_widgets and get_widget). */
export function listedThing(name: readonly string[]): string {
  return name.slice(1).map(singular).join(' ');
}

/** The verb of a name: its first word fitting knows as a verb, wherever it stands (`shop_orders_list`). */
export function nameVerb(name: readonly string[]): string | undefined {
  return name.find((word) => isVerb(word));
}

/**
 * What a tool does, as a key two servers' tools share when they do the same thing (a browser
 * server's `browser_goto` and another's `page_goto`, two servers' web search).
 */
export function capability(tool: Pick<CatalogTool, 'name' | 'server'>, prefix?: ReadonlySet<string>): string {
  const cache = prefix ? prefixedCapabilities : capabilityCache;
  let found = cache.get(tool);
  if (found === undefined) cache.set(tool, (found = readCapability(tool, prefix)));
  return found;
}

const capabilityCache = new WeakMap<object, string>();
const prefixedCapabilities = new WeakMap<object, string>();

function readCapability(tool: Pick<CatalogTool, 'name' | 'server'>, prefix: ReadonlySet<string> | undefined): string {
  const { place } = fittingWords();
  const name = nameWords(tool, prefix);
  const kept = name.filter((word) => !place.has(word));
  return (kept.length > 0 ? kept : name).map(singular).join(' ');
}
