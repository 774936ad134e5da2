import { loadPresets } from '../config/presets.js';
import type { GroupConfig } from '../config/schema.js';
import { own } from '../util/own.js';
import { compileGlob, globList, type Glob, type GlobList } from '../util/glob.js';
import { indexOfName } from '../util/lookup.js';
import type { TopicScore } from './placement.js';
import type { ServerProfileMatch } from './profiles.js';
import type { GroupPlacement } from './types.js';
import { normalized } from './text.js';
import { sharedString } from '../util/flat.js';

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
    const globs = config.servers;
    const servers = globList(globs);
    const matches: Match[] = [];
    pipeline.push((tool) => {
      const index = servers.first(tool.server);
      return index >= 0 && (matches[index] ??= { reason: `server "${globs[index]}"` });
    });
  }
  if (config.tools || config.keywords || config.topics) {
    const globs = config.tools ?? [];
    const ids = toolGlobs(globs);
    const phrases = (config.keywords ?? []).map((keyword) => normalized(keyword).trimEnd());
    const phrase = phraseFinder(phrases);
    const topics = config.topics ?? [];
    const profiles = options.profiles === true;
    const byGlob: Match[] = [];
    const byPhrase: Match[] = [];
    const byProfile = new Map<string, Match>();
    pipeline.push((tool) => {
      const glob = globs.length > 0 ? ids.first(tool.id) : -1;
      if (glob >= 0) return (byGlob[glob] ??= { reason: `tool glob "${globs[glob] ?? ''}"` });
      const profiled = profiles && tool.profile !== undefined && tool.name !== undefined ? tool.profile.groups.get(name) : undefined;
      if (profiled && tool.name !== undefined && profiled.some((glob) => glob.test(tool.name ?? ''))) {
        const reason = `server profile ${tool.profile?.name ?? ''}`;
        let match = byProfile.get(reason);
        if (!match) byProfile.set(reason, (match = { reason }));
        return match;
      }
      const found = phrases.length > 0 ? phrase(tool.text) : -1;
      if (found >= 0) return (byPhrase[found] ??= { reason: `keyword "${phrases[found]?.trim() ?? ''}"` });
      let best: TopicScore | undefined;
      for (const topic of topics) {
        const score = tool.topics?.get(topic);
        if (score && (!best || score.score > best.score)) best = score;
      }
      return best !== undefined && { reason: sharedString(`topic ${best.topic} ${best.score} (${best.reason})`), score: best.score };
    });
  }
  if (config.readOnly === true) pipeline.push((tool) => tool.readOnly);
  if (config.exclude) {
    const excluded = toolGlobs(config.exclude);
    pipeline.push((tool) => excluded.first(tool.id) < 0);
  }
  if (config.excludeTopics) {
    const topics = config.excludeTopics;
    pipeline.push((tool) => !topics.some((topic) => tool.topics?.has(topic)));
  }
  // Matches without a score are this group's own shared objects (see groupPlacement): a tool of
  // every group of a large rc held one fresh reason per group, tools x groups of them.
  const everyTool: Match = { reason: 'every tool' };
  const explain = (tool: GroupCandidate): Match | undefined => {
    let match: Match = everyTool;
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

const placements = new WeakMap<Match, GroupPlacement>();

/**
 * The placement of a tool in `group` for `match` (what its `explain` returned). Matches without a
 * score are the group's own objects, one per selector, so their placements are made once and
 * shared by every tool they place (frozen): 5,000 rc groups over 3,000 tools are 15 million
 * placements, and a fresh object and reason each held gigabytes. A topic match (scored) is the
 * tool's own.
 */
export function groupPlacement(group: CompiledGroup, match: Match): GroupPlacement {
  if (match.score !== undefined) return { group: group.name, ...match };
  let placement = placements.get(match);
  if (!placement || placement.group !== group.name) placements.set(match, (placement = Object.freeze({ group: group.name, ...match })));
  return placement;
}

const compiledByGroups = new WeakMap<Readonly<Record<string, GroupConfig>>, CompiledGroup[]>();

/**
 * A config's groups compiled once for every catalog built from it: each upstream start rebuilds
 * the catalog, and an rc of 150,000 keywords and 100,000 tool globs took about 0.4 s to compile.
 */
export function compiledGroups(groups: Readonly<Record<string, GroupConfig>>): CompiledGroup[] {
  let compiled = compiledByGroups.get(groups);
  if (!compiled) {
    // Server profiles add tools to the preset groups only: an rc group of the same name is the user's.
    compiled = Object.entries(groups).map(([name, group]) => compileGroup(name, group, { profiles: own(loadPresets().groups, name) === group }));
    compiledByGroups.set(groups, compiled);
  }
  return compiled;
}

/** A glob without ":" applies to the tool part of "server:tool". */
export function toolGlob(glob: string): Glob {
  return compileGlob(toolPattern(glob));
}

function toolPattern(glob: string): string {
  return glob.includes(':') ? glob : `*:${glob}`;
}

/** `toolGlob` of each of `globs`, indexed (see `globList`). */
export function toolGlobs(globs: readonly string[]): GlobList {
  return globList(globs.map(toolPattern));
}

/**
 * Finds the first of `phrases` (in order) that a normalized text (" word word ") includes, as
 * `phrases.find((phrase) => text.includes(phrase))` does, without reading every phrase: a phrase
 * (normalized, end trimmed: " word word") can only start at a space of the text, so each start
 * looks up the text's slices of the phrases' lengths, going past a word only while the words so
 * far begin some phrase. An rc group of 150,000 keywords was 150,000 substring searches per tool
 * on every catalog build (seconds); now a tool costs a few lookups per word. Returns the index, or -1.
 */
function phraseFinder(phrases: readonly string[]): (text: string) => number {
  const first = new Map<string, number>();
  const heads = new Set<string>();
  const lengthSet = new Set<number>();
  // The two characters after a phrase's leading space, as one number: a start whose next two
  // characters begin no phrase is passed by without a lookup (most starts of a tool's text).
  const pairs = new Set<number>();
  let short = false;
  let best0 = Number.POSITIVE_INFINITY;
  phrases.forEach((phrase, index) => {
    if (phrase.length === 0) {
      best0 = Math.min(best0, index);
      return;
    }
    if (phrase.length >= 3) pairs.add(pairOf(phrase, 0));
    else short = true;
    if (!first.has(phrase)) first.set(phrase, index);
    lengthSet.add(phrase.length);
    for (let space = phrase.indexOf(' ', 1); space > 0; space = phrase.indexOf(' ', space + 1)) heads.add(phrase.slice(0, space));
  });
  const lengths = [...lengthSet].sort((a, b) => a - b);
  return (text) => {
    let best = best0;
    const { starts, keys } = startsOf(text);
    for (let at = 0; at < starts.length && best > 0; at++) {
      const start = starts[at] ?? 0;
      const key = keys[at] ?? -1;
      if (!short && key >= 0 && !pairs.has(key)) continue;
      let wordEnd = endOfWord(text, start);
      for (const length of lengths) {
        if (start + length > text.length) break;
        while (start + length > wordEnd && heads.has(text.slice(start, wordEnd))) wordEnd = endOfWord(text, wordEnd);
        if (start + length > wordEnd) break;
        const index = first.get(text.slice(start, start + length));
        if (index !== undefined && index < best) best = index;
      }
    }
    return best === Number.POSITIVE_INFINITY ? -1 : best;
  };
}

let lastText: string | undefined;
let lastStarts: { starts: number[]; keys: number[] } = { starts: [], keys: [] };

/**
 * The spaces of a normalized text and the pair (see pairOf) after each, -1 where fewer than two
 * characters follow; remembered for the last text, as a catalog build tests one tool against every
 * group in a row (each keyword group read the text's spaces and pairs again).
 */
function startsOf(text: string): { starts: number[]; keys: number[] } {
  if (text !== lastText) {
    const starts: number[] = [];
    const keys: number[] = [];
    for (let start = text.indexOf(' '); start >= 0; start = text.indexOf(' ', start + 1)) {
      starts.push(start);
      keys.push(start + 3 <= text.length ? pairOf(text, start) : -1);
    }
    lastText = text;
    lastStarts = { starts, keys };
  }
  return lastStarts;
}

/** The two characters after `text[at]` as one number (for phraseFinder's pairs). */
function pairOf(text: string, at: number): number {
  return text.charCodeAt(at + 1) * 0x10000 + text.charCodeAt(at + 2);
}

/** Where the word after the space at `space` ends: the next space, or the end of the text. */
function endOfWord(text: string, space: number): number {
  const next = text.indexOf(' ', space + 1);
  return next < 0 ? text.length : next;
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
  const position = indexOfName(groups);
  return placements.every((placement) => {
    const index = position.get(placement.group) ?? -1;
    if (index <= previous) return false;
    previous = index;
    const match = groups[index]?.explain(candidate);
    return match !== undefined && match.reason === placement.reason && match.score === placement.score;
  });
}
