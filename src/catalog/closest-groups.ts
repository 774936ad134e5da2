import type { CompiledGroup } from './groups.js';
import type { CatalogTool } from './types.js';

/**
 * The groups an unplaced tool came closest to: groups whose topics the tool scored for (below
 * the threshold, or above it in a read-only group the tool is not for), best score first, at most
 * three, as `group (score)`; a read-only group says so when the tool may write, else a score
 * over the threshold reads as a mistake.
 */
export function closestGroups(
  groups: ReadonlyArray<Pick<CompiledGroup, 'name' | 'config'>>,
  withReasons = false,
): (tool: Pick<CatalogTool, 'topics' | 'readOnly'>) => string[] {
  const byTopic = new Map<string, Array<Pick<CompiledGroup, 'name' | 'config'>>>();
  for (const group of groups) for (const topic of group.config.topics ?? []) byTopic.set(topic, [...(byTopic.get(topic) ?? []), group]);
  return (tool) => {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const score of tool.topics)
      for (const group of byTopic.get(score.topic) ?? [])
        if (!seen.has(group.name) && out.length < 3) {
          seen.add(group.name);
          const readOnly = group.config.readOnly === true && !tool.readOnly ? ', read-only group: this tool may write' : '';
          out.push(withReasons ? `${group.name} ${score.score} (${score.reason}${readOnly})` : `${group.name} ${score.score}${readOnly ? ' (read-only group)' : ''}`);
        }
    return out;
  };
}
