import type { GroupConfig } from '../config/schema.js';
import { anyGlob, compileGlob, type Glob } from '../util/glob.js';
import type { TopicScore } from './placement.js';
import type { ServerProfileMatch } from './profiles.js';
import { normalized } from './text.js';

/** What a group filter sees of a tool. */
export interface GroupCandidate {
  id: string;
  server: string;
  /** Normalized name, title and summary (see `normalized`). */
  text: string;
  readOnly: boolean;
  /** Topics placement put the tool in (score at or above the threshold), by topic name. */
  topics?: ReadonlyMap<string, TopicScore>;
  /** The tool's upstream name and its server's profile (vocabulary/servers.json), when one matched. */
  name?: string;
  profile?: ServerProfileMatch | undefined;
}

/** A group ready to test tools: the config plus its compiled filter pipeline. */
export interface CompiledGroup {
  name: string;
  description: string;
  config: GroupConfig;
  matches(tool: GroupCandidate): boolean;
  /** Why the group keeps `tool` ("tool glob \"get_viewer\"", "topic browser 7 (...)"), or undefined when it does not. */
  explain(tool: GroupCandidate): Match | undefined;
}

/** Why a group keeps a tool: the selector that matched, and the placement score when a topic did. */
export interface Match {
  reason: string;
  /** The topic score for topic placements; undefined for globs, keywords and catch-all groups. */
  score?: number;
}

type Filter = (tool: GroupCandidate) => Match | boolean;

/**
 * Compiles a group to an ordered filter pipeline: `servers`, then `tools`, `keywords` or `topics`
 * (any one matching keeps the tool; for a preset group, `profiles`, also a server profile that
 * puts the tool in it), then `readOnly`, then `exclude` and `excludeTopics`. An unset filter lets
 * everything through; an empty list lets nothing through, so `{}` is every tool and
 * `{ tools: [] }` none.
 */
export function compileGroup(name: string, config: GroupConfig, options: { profiles?: boolean } = {}): CompiledGroup {
  const pipeline: Filter[] = [];
  if (config.servers) {
    const servers = config.servers.map(compileGlob);
    const globs = config.servers;
    pipeline.push((tool) => {
      const index = servers.findIndex((glob) => glob.test(tool.server));
      return index >= 0 && { reason: `server "${globs[index]}"` };
    });
  }
  if (config.tools || config.keywords || config.topics) {
    const globs = config.tools ?? [];
    const each = globs.map(toolGlob);
    const ids = anyGlob(each);
    const phrases = (config.keywords ?? []).map((keyword) => normalized(keyword).trimEnd());
    const topics = config.topics ?? [];
    const profiles = options.profiles === true;
    pipeline.push((tool) => {
      if (globs.length > 0 && ids.test(tool.id)) return { reason: `tool glob "${globs[each.findIndex((glob) => glob.test(tool.id))] ?? ''}"` };
      const profiled = profiles && tool.profile !== undefined && tool.name !== undefined ? tool.profile.groups.get(name) : undefined;
      if (profiled && tool.name !== undefined && profiled.some((glob) => glob.test(tool.name ?? ''))) return { reason: `server profile ${tool.profile?.name ?? ''}` };
      const phrase = phrases.length > 0 ? phrases.find((p) => tool.text.includes(p)) : undefined;
      if (phrase !== undefined) return { reason: `keyword "${phrase.trim()}"` };
      let best: TopicScore | undefined;
      for (const topic of topics) {
        const score = tool.topics?.get(topic);
        if (score && (!best || score.score > best.score)) best = score;
      }
      return best !== undefined && { reason: `topic ${best.topic} ${best.score} (${best.reason})`, score: best.score };
    });
  }
  if (config.readOnly === true) pipeline.push((tool) => tool.readOnly);
  if (config.exclude) {
    const excluded = anyGlob(config.exclude.map(toolGlob));
    pipeline.push((tool) => !excluded.test(tool.id));
  }
  if (config.excludeTopics) {
    const topics = config.excludeTopics;
    pipeline.push((tool) => !topics.some((topic) => tool.topics?.has(topic)));
  }
  const explain = (tool: GroupCandidate): Match | undefined => {
    let match: Match = { reason: 'every tool' };
    for (const filter of pipeline) {
      const result = filter(tool);
      if (result === false) return undefined;
      if (result !== true) match = result;
    }
    return match;
  };
  return {
    name,
    description: config.description ?? name,
    config,
    matches: (tool) => explain(tool) !== undefined,
    explain,
  };
}

/** A glob without ":" applies to the tool part of "server:tool". */
export function toolGlob(glob: string): Glob {
  return compileGlob(glob.includes(':') ? glob : `*:${glob}`);
}

/**
 * True when each cached placement (a lock's, see placement-cache.ts) is one its group gives
 * `candidate` now, with the same reason and score, and the placements name their groups once
 * each in config order, as matching writes them: cached placements are confirmed, never
 * trusted, so a forged lock cannot move a tool into a group, nor list it twice in one (a group
 * named twice put the tool twice in that group's tools). One group test per placement, not one
 * per group.
 */
export function confirmsPlacements(placements: ReadonlyArray<{ group: string; reason: string; score?: number }>, groups: readonly CompiledGroup[], candidate: GroupCandidate): boolean {
  let previous = -1;
  return placements.every((placement) => {
    const index = groups.findIndex((group) => group.name === placement.group);
    if (index <= previous) return false;
    previous = index;
    const match = groups[index]?.explain(candidate);
    return match !== undefined && match.reason === placement.reason && match.score === placement.score;
  });
}
