import type { ServerTools, ToolDefinition } from './types.js';
import { canonical } from './lock.js';

/**
 * Tool pinning (rug-pull and tool-poisoning defence): the lock records each server's tool
 * definitions as reviewed; a live definition that differs from it, or a tool the lock lacks, is
 * drift. Drift is always reported; with rc `pin: true` the drifted tools are held back (not
 * listed, not callable) until `lazytools lock` records them again.
 */
export interface DriftCheck {
  /** The live tools that may be served (all of them unless pinned). */
  tools: readonly ToolDefinition[];
  /** Names of live tools whose definition differs from the lock's. */
  changed: string[];
  /** Names of live tools the lock does not list. */
  added: string[];
}

const canonicalCache = new WeakMap<ToolDefinition, string>();

/** A definition's canonical text, once per definition object (live lists keep their objects). */
function canonicalOf(tool: ToolDefinition): string {
  let text = canonicalCache.get(tool);
  if (text === undefined) canonicalCache.set(tool, (text = canonical(tool)));
  return text;
}

/** Compares a server's live tools with its locked ones; `pin` drops the drifted ones. */
export function checkDrift(live: readonly ToolDefinition[], locked: ServerTools, pin: boolean): DriftCheck {
  const lockedByName = new Map(locked.tools.map((tool) => [tool.name, tool]));
  const changed: string[] = [];
  const added: string[] = [];
  const kept: ToolDefinition[] = [];
  for (const tool of live) {
    const before = lockedByName.get(tool.name);
    if (before === undefined) added.push(tool.name);
    else if (before !== tool && canonicalOf(before) !== canonicalOf(tool)) changed.push(tool.name);
    else {
      kept.push(tool);
      continue;
    }
    if (!pin) kept.push(tool);
  }
  return { tools: changed.length + added.length > 0 ? kept : live, changed, added };
}

/** What is said of each drifted tool (logged once; with `pin`, the reason a call of it is refused). */
export function driftMessages(server: string, check: DriftCheck, pin: boolean): Array<{ name: string; message: string }> {
  const then = pin ? '; held back (rc pin: true) until `lazytools lock` records it' : '; run `lazytools lock` after reviewing it';
  return [
    ...check.changed.map((name) => ({ name, message: `tool "${name}" of server "${server}": its definition differs from the lock${then}` })),
    ...check.added.map((name) => ({ name, message: `tool "${name}" of server "${server}": the lock does not list it${then}` })),
  ];
}
