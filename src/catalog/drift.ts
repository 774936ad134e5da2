import type { ServerProfile, ServerTools, ToolDefinition } from './types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { profileItems, profileWith, type ProfileContent } from './profile.js';

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

const canonicalCache = new WeakMap<object, string>();

/** A definition's canonical text, once per definition object (live lists keep their objects). */
function canonicalOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return canonicalJson(value);
  let text = canonicalCache.get(value);
  if (text === undefined) canonicalCache.set(value, (text = canonicalJson(value)));
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

/** What drift checking (and rc `pin`) makes of a server's instructions, prompts and resources (profile.ts names the items). */
export interface ProfileDriftCheck {
  /** What may be served: with `pin`, only the items the lock holds as they are; else all of them. */
  served: ProfileContent;
  /** Items whose live value differs from the lock's. */
  changed: string[];
  /** Live items the lock does not hold. */
  added: string[];
}

/**
 * Compares what a server shows besides tools (instructions, prompts, resources, templates) with
 * what the lock recorded, item by item: a changed or new item is drift, as for tools, and `pin`
 * holds it back. A server the lock lacks (`locked` undefined) has every item added.
 */
export function checkProfileDrift(live: ProfileContent, locked: ServerProfile | undefined, pin: boolean): ProfileDriftCheck {
  const before = new Map(profileItems(locked));
  const changed: string[] = [];
  const added: string[] = [];
  for (const [key, value] of profileItems(live)) {
    const old = before.get(key);
    if (old === undefined) added.push(key);
    else if (old !== value && canonicalOf(old) !== canonicalOf(value)) changed.push(key);
  }
  const drifted = new Set([...changed, ...added]);
  return { served: pin && drifted.size > 0 ? profileWith(live, (key) => !drifted.has(key)) : live, changed, added };
}
