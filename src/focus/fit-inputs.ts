import type { Catalog, CatalogTool } from '../catalog/catalog.js';
import { ownTools, type ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { countEpoch, countToolsTokens } from '../util/tokens.js';
import { listedThing, nameWords, serverPrefixes } from './words.js';

/** What fitting reads of a catalog and config besides the mode: computed once and cached (see fit.ts). */

const prefixCache = new WeakMap<Catalog, Map<string, ReadonlySet<string>>>();

/** Per server of the catalog, the words it puts before every tool name (computed once per catalog). */
export function prefixesOf(catalog: Catalog): Map<string, ReadonlySet<string>> {
  let found = prefixCache.get(catalog);
  if (!found) prefixCache.set(catalog, (found = serverPrefixes(catalog.tools)));
  return found;
}

/**
 * Per server, its list and get tools by what they are about ("list network request" pairs with
 * "get network request"): toolPriority's `listed`, telling an entry point from its second step.
 */
export function listAndGetThings(members: readonly CatalogTool[], prefixes: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const listed = new Map<string, Set<string>>();
  for (const tool of members) {
    const name = nameWords(tool, prefixes.get(tool.server));
    if ((name[0] === 'list' || name[0] === 'get') && name.length > 1) {
      let set = listed.get(tool.server);
      if (!set) listed.set(tool.server, (set = new Set()));
      set.add(`${name[0]} ${listedThing(name)}`);
    }
  }
  return listed;
}

const ownTokensCache = new WeakMap<object, Map<string, number>>();

/**
 * Tokens of lazytools' own tools under a config's modes, once per modes object, strategy and
 * tokenizer: focus_mode lists every mode, so counting it again for each of M modes was O(M²)
 * (`check` on an rc of 20,000 modes ran past a minute). The modes object is taken as never changing.
 */
export function ownToolsTokens(config: Pick<ResolvedConfig, 'modes'>, strategy: ServedStrategy, tokenizer: Catalog['tokenizer']): number {
  let byKey = ownTokensCache.get(config.modes);
  if (!byKey) ownTokensCache.set(config.modes, (byKey = new Map()));
  // The epoch: a count taken before `check` began may be a lock's recorded one (see countEpoch).
  const key = `${strategy} ${tokenizer} ${countEpoch()}`;
  let tokens = byKey.get(key);
  if (tokens === undefined) byKey.set(key, (tokens = countToolsTokens(ownTools(strategy, Object.values(config.modes)), tokenizer)));
  return tokens;
}
