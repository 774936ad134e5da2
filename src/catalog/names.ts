import type { ResolvedConfig } from '../config/resolve.js';
import { shownEntry } from '../config/secrets.js';
import { compareStrings as compare } from '../util/compare.js';
import { longerServerKeeps, nameSkeleton, prefixReadAlikes } from '../util/lookalike.js';
import { OWN_TOOL_NAMES } from './own-tools.js';
import type { ServerTools, ToolDefinition } from './types.js';

/**
 * Each tool's exposed name: the upstream name, prefixed with the server on collisions (or always).
 * A literal name equal to (or drawn like) another tool's prefixed name or `server:tool` id is
 * itself prefixed, so no upstream can take another's calls or pass for its tool; buildCatalog
 * leaves out whatever still collides. A function of its own so its name skeletons (one string per
 * tool) are garbage once it returns: kept in buildCatalog's scope, which the catalog's
 * `totalTokens` getter keeps, they held 6 MB of a 10,000-tool gateway for as long as it ran.
 */
export function plannedNames(sorted: readonly ServerTools[], config: ResolvedConfig, repeated: string[]): { planned: PlannedName[]; ids: Set<string> } {
  // Servers per name: a server listing one name twice is one server (its repeat is left out below).
  // Counted by what a name looks like (util/lookalike): a Cyrillic а for a Latin a still collides.
  const nameCounts = new Map<string, number>();
  const looks = new Map<string, string>();
  const look = (name: string): string => {
    let skeleton = looks.get(name);
    if (skeleton === undefined) looks.set(name, (skeleton = nameSkeleton(name)));
    return skeleton;
  };
  for (const source of sorted) for (const name of new Set(source.tools.map((tool) => look(tool.name)))) nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
  const ids = new Set<string>();
  for (const source of sorted) for (const tool of source.tools) ids.add(`${source.server}:${tool.name}`);
  // What the ids look like: a literal name drawn like another tool's id is prefixed as the id
  // itself is. Only a name with a colon can look like one, so most catalogs never build the set.
  let idLooks: Set<string> | undefined;
  const looksLikeId = (skeleton: string) => skeleton.includes(':') && (idLooks ??= new Set([...ids].map(nameSkeleton))).has(skeleton);
  const planned: PlannedName[] = [];
  for (const source of sorted) {
    const seen = new Set<string>();
    for (const tool of [...source.tools].sort((a, b) => compare(a.name, b.name))) {
      if (seen.has(tool.name)) {
        repeated.push(`tool "${shownEntry(source.server, tool.name)}" is listed twice by its server: the first definition is kept`);
        continue;
      }
      seen.add(tool.name);
      const collides = (nameCounts.get(look(tool.name)) ?? 0) > 1 || OWN_LOOKS.has(look(tool.name)) || looksLikeId(look(tool.name));
      planned.push({ server: source.server, tool, exposedName: config.prefix === 'always' || collides ? `${source.server}_${tool.name}` : tool.name });
    }
  }
  // Likewise a name drawn like another's prefixed one (files_reаd_file), or like one prefixed so in turn.
  const prefixed = (entry: PlannedName) => `${entry.server}_${entry.tool.name}`;
  const bare = (entry: PlannedName) => entry.exposedName === entry.tool.name;
  prefixReadAlikes(planned, { bare, look: (entry) => look(entry.tool.name), prefixedLook: (entry) => nameSkeleton(prefixed(entry)), prefix: (entry) => (entry.exposedName = prefixed(entry)) });
  prefixedReadAlikes(planned.filter((entry) => !bare(entry)));
  return { planned, ids };
}

/**
 * Two prefixed names can read alike too: server docs's `site_search` and server docs_site's
 * `search` are both docs_site_search (or drawn alike). The one whose server name is the longer
 * keeps it: the other's tool name reaches into that server's name (a hostile upstream listing
 * another's tool names, sorted first, took its calls). The other is marked to be left out, as is
 * a prefixed name drawn like one of lazytools' own (`search_tооls`, with Cyrillic о).
 */
function prefixedReadAlikes(prefixed: readonly PlannedName[]): void {
  const losers = longerServerKeeps(prefixed, (entry) => nameSkeleton(entry.exposedName), (entry) => entry.server);
  for (const entry of prefixed) {
    if (OWN_LOOKS.has(nameSkeleton(entry.exposedName))) entry.readsLike = OWN;
    else entry.readsLike = losers.get(entry);
  }
}

export interface PlannedName {
  server: string;
  tool: ToolDefinition;
  exposedName: string;
  /** Left out: its prefixed name reads like a longer server's tool's (that tool), or like lazytools' own (OWN). */
  readsLike?: PlannedName;
}

/** PlannedName.readsLike of a name drawn like one of lazytools' own tools. */
export const OWN: PlannedName = { server: '', tool: { name: '', inputSchema: { type: 'object' } }, exposedName: '' };

/** lazytools' own tool names as they look: an upstream's `focus_modе` (a Cyrillic е) is prefixed like `focus_mode`. */
const OWN_LOOKS: ReadonlySet<string> = new Set([...OWN_TOOL_NAMES].map(nameSkeleton));
