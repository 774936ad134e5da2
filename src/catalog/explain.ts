import type { ResolvedConfig } from '../config/resolve.js';
import { own } from '../util/own.js';
import type { Catalog, CatalogTool, GroupPlacement } from './catalog.js';
import { closestGroups } from './closest-groups.js';
import { isAboutServer, PLACEMENT_THRESHOLD, placedTopics, scoreTopics } from './placement.js';

/** Why one tool shows where it shows: its groups with reasons, its modes, its write status. */
export interface ToolPlacement {
  id: string;
  name: string;
  /** Groups other than catch-all ones (like `all`), with the reason each matched. */
  groups: GroupPlacement[];
  /** Modes that show the tool (read-only modes only when the tool only reads). */
  modes: string[];
  readOnly: boolean;
  /** `read`, `write` or `unknown`, and why. */
  write: { kind: string; reason: string };
  /** For a tool in no group: the groups it came closest to, `group score` (threshold in `threshold`). */
  closest: string[];
  /** For a tool no mode but catch-all ones (`all`) shows: why (no group, or groups no mode uses). */
  unplaced?: string;
  /** For such a tool: the modes whose work came closest, `mode (topic score: evidence)`, best first (empty: no mode's words are in it). */
  closestModes?: string[];
  /** True when the tool is named for its server itself (login, health, limits): no mode's work by design. */
  aboutServer?: boolean;
}

export interface PlacementReport {
  threshold: number;
  tools: ToolPlacement[];
  /**
   * Ids of tools no mode shows but catch-all ones like `all`: in no group, in groups no mode uses
   * (an rc group not added to a mode yet), or writers whose groups only
   * read-only modes use.
   */
  unplaced: string[];
}

/**
 * Explains placement for every tool (or those `filter` keeps): what `lazytools groups` prints,
 * so a user can see why a tool is or is not in a mode and fix it with rc `groups`.
 */
export function placementReport(catalog: Catalog, config: Pick<ResolvedConfig, 'modes' | 'groups'>, filter: (tool: CatalogTool) => boolean = () => true): PlacementReport {
  const closest = closestGroups(Object.entries(config.groups).map(([name, group]) => ({ name, config: group })), true);
  const nearModes = closestModes(config);
  const tools = catalog.tools.filter(filter).map((tool): ToolPlacement => {
    const groups = tool.placements.filter((placement) => !catalog.groups.get(placement.group)?.catchAll);
    const modes = Object.values(config.modes)
      .filter((mode) => (!mode.readOnly || tool.readOnly) && mode.groups.some((group) => groups.some((g) => g.group === group)))
      .map((mode) => mode.name);
    const placement: ToolPlacement = { id: tool.id, name: tool.exposedName, groups, modes, readOnly: tool.readOnly, write: { kind: tool.write.kind, reason: tool.write.reason }, closest: groups.length === 0 ? closest(tool) : [] };
    if (modes.length === 0) {
      placement.unplaced = unplacedReason(groups, config.modes);
      placement.closestModes = nearModes(tool);
      if (isAboutServer(tool.name, tool.definition.description, tool.server)) placement.aboutServer = true;
    }
    return placement;
  });
  return { threshold: PLACEMENT_THRESHOLD, tools, unplaced: tools.filter((tool) => tool.modes.length === 0).map((tool) => tool.id) };
}

/** Modes an unplaced tool came closest to: at most three. */
const CLOSEST_MODES = 3;

/**
 * The modes whose work an unplaced tool came closest to: the topics it scored for below the
 * threshold (best first), through the groups that take each topic, to the modes that use those
 * groups and would let the tool in (read-only modes only for a reader), with the evidence.
 */
function closestModes(config: Pick<ResolvedConfig, 'modes' | 'groups'>): (tool: CatalogTool) => string[] {
  const byTopic = new Map<string, ResolvedConfig['modes'][string][]>();
  for (const mode of Object.values(config.modes))
    for (const group of mode.groups)
      for (const topic of own(config.groups, group)?.topics ?? []) {
        const list = byTopic.get(topic) ?? [];
        if (!list.includes(mode)) list.push(mode);
        byTopic.set(topic, list);
      }
  return (tool) => {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const score of tool.topics)
      for (const mode of byTopic.get(score.topic) ?? []) {
        if (seen.has(mode.name) || out.length >= CLOSEST_MODES || (mode.readOnly && !tool.readOnly)) continue;
        seen.add(mode.name);
        out.push(`${mode.name} (topic ${score.topic} ${score.score} of ${PLACEMENT_THRESHOLD}: ${score.reason})`);
      }
    return out;
  };
}

/** Why a tool shows in no mode but catch-all ones. */
function unplacedReason(groups: readonly GroupPlacement[], modes: ResolvedConfig['modes']): string {
  if (groups.length === 0) return 'in no group';
  const names = groups.map((g) => g.group);
  const used = Object.values(modes).filter((mode) => mode.groups.some((group) => names.includes(group)));
  if (used.length === 0) return `its group${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} in no mode`;
  return `only read-only modes (${used.map((m) => m.name).join(', ')}) take its groups, and it may write`;
}

/** What placement can tell of a server's tools before any was listed: what its name alone gives. */
export interface ServerHint {
  server: string;
  /** Topics the server's name places every one of its tools in (e.g. "playwright" -> browser). */
  topics: string[];
  /** Groups that take those topics, and the modes that show them. */
  groups: string[];
  modes: string[];
}

/**
 * Per server of an rc file, the groups and modes its name alone puts its tools in: the server-name
 * evidence that `scoreTopics` gives every tool of that server when `lazytools groups` places it,
 * and nothing else (command words like "docker" or a URL's host say how a server runs, not what
 * its tools do). Each tool may join more groups from its own name and description once listed.
 * Used by `lazytools init`, before any tool is listed.
 */
export function serverHints(config: Pick<ResolvedConfig, 'servers' | 'groups' | 'modes'>): ServerHint[] {
  return Object.keys(config.servers).map((server) => {
    const topics = placedTopics(scoreTopics({ server, name: '' })).map((score) => score.topic);
    const groups = Object.entries(config.groups)
      .filter(([, group]) => (group.topics ?? []).some((topic) => topics.includes(topic)))
      .map(([name]) => name);
    const modes = Object.values(config.modes)
      .filter((mode) => mode.groups.some((group) => groups.includes(group)))
      .map((mode) => mode.name);
    return { server, topics, groups, modes };
  });
}
