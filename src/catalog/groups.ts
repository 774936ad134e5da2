import type { GroupConfig } from '../config/schema.js';
import { globToRegExp } from '../util/glob.js';
import { normalized } from './text.js';

/** What a group filter sees of a tool. */
export interface GroupCandidate {
  id: string;
  server: string;
  /** Normalized name, title and summary (see `normalized`). */
  text: string;
  readOnly: boolean;
}

/** A group ready to test tools: the config plus its compiled filter pipeline. */
export interface CompiledGroup {
  name: string;
  description: string;
  config: GroupConfig;
  matches(tool: GroupCandidate): boolean;
}

type Filter = (tool: GroupCandidate) => boolean;

/**
 * Compiles a group to an ordered filter pipeline: `servers`, then `tools` or `keywords` (either
 * one matching keeps the tool), then `readOnly`, then `exclude`. An unset filter lets everything
 * through; an empty list lets nothing through, so `{}` is every tool and `{ tools: [] }` none.
 */
export function compileGroup(name: string, config: GroupConfig): CompiledGroup {
  const pipeline: Filter[] = [];
  if (config.servers) {
    const servers = config.servers.map(globToRegExp);
    pipeline.push((tool) => servers.some((glob) => glob.test(tool.server)));
  }
  if (config.tools || config.keywords) {
    const ids = anyOf((config.tools ?? []).map(toolGlob));
    const phrases = (config.keywords ?? []).map((keyword) => normalized(keyword).trimEnd());
    pipeline.push((tool) => ids.test(tool.id) || phrases.some((phrase) => tool.text.includes(phrase)));
  }
  if (config.readOnly === true) pipeline.push((tool) => tool.readOnly);
  if (config.exclude) {
    const excluded = anyOf(config.exclude.map(toolGlob));
    pipeline.push((tool) => !excluded.test(tool.id));
  }
  return {
    name,
    description: config.description ?? name,
    config,
    matches: (tool) => pipeline.every((filter) => filter(tool)),
  };
}

/** A glob without ":" applies to the tool part of "server:tool". */
export function toolGlob(glob: string): RegExp {
  return globToRegExp(glob.includes(':') ? glob : `*:${glob}`);
}

/** One case-insensitive RegExp matching what any of `globs` matches: one test per tool, not one per glob. */
function anyOf(globs: RegExp[]): RegExp {
  if (globs.length === 0) return /(?!)/;
  return new RegExp(globs.map((glob) => `(?:${glob.source})`).join('|'), 'i');
}
