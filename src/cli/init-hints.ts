import { serverHints } from '../catalog/explain.js';
import { own } from '../util/own.js';
import { resolveConfig } from '../config/resolve.js';
import type { RcConfig } from '../config/schema.js';

/**
 * Lines `lazytools init` prints after writing an rc: per imported server, the preset groups and
 * modes its tools are likely to join (from its name and package), and for servers no preset group
 * is likely to take, the rc change that puts their tools in a mode. JSON rc files have no comments,
 * so this is printed, not written.
 */
export function initHints(rc: RcConfig, file: string): string[] {
  const config = resolveConfig(rc, file);
  const hints = serverHints(config);
  const mode = own(config.modes, config.defaultMode);
  const lines: string[] = [];
  const placed = hints.filter((hint) => hint.modes.length > 0);
  const unplaced = hints.filter((hint) => hint.topics.length === 0);
  for (const hint of placed) lines.push(`  ${hint.server}: likely ${hint.groups.join(', ')} (modes ${hint.modes.join(', ')})`);
  for (const hint of unplaced) {
    lines.push(`  ${hint.server}: no preset group is likely to take its tools; to show them, add its group "${hint.server}" to a mode:`);
    if (mode) lines.push(`    ${JSON.stringify({ modes: { [mode.name]: { groups: [...mode.groups, hint.server] } } })}`);
  }
  if (lines.length === 0) return [];
  return ['Placement of your servers\' tools (check after `lazytools lock` with `lazytools groups --unplaced`):', ...lines];
}
