import type { ServerProfile } from './types.js';
import { valueTooBig } from '../util/bounds.js';
import { isObject } from '../util/json.js';
import { PRIMITIVE_LISTS, usableItems } from './admit.js';

/** The keys a lock's server entry carries besides `hash` and `tools`. */
const LIST_KEYS = (Object.keys(PRIMITIVE_LISTS) as Array<keyof typeof PRIMITIVE_LISTS>).map((key) => [key, PRIMITIVE_LISTS[key].id] as const);

/**
 * Reads the profile a lock recorded beside a server's tools, keeping only well-formed parts: a
 * lock edited by hand (or by an older lazytools) loses what does not fit and never fails. A value
 * nested too deep or too large (util/bounds.ts) is left out with a warning through `warn` (its key
 * path under the server), so it never reaches a walk or JSON.stringify that would overflow.
 */
export function readProfile(entry: Record<string, unknown>, warn: (message: string) => void = () => {}): ServerProfile | undefined {
  const fits = (key: string, value: unknown): boolean => {
    const problem = valueTooBig(value);
    if (problem !== undefined) warn(`${key}: ${problem}; left out`);
    return problem === undefined;
  };
  const profile: ServerProfile = {};
  if (isObject(entry.capabilities) && fits('capabilities', entry.capabilities)) profile.capabilities = entry.capabilities;
  if (typeof entry.instructions === 'string') profile.instructions = entry.instructions;
  const protocol = entry.protocol;
  if (isObject(protocol) && protocol.era === 'legacy') profile.protocol = { era: 'legacy' };
  // A verdict whose discover result is malformed is forgotten: the server is probed afresh.
  else if (isObject(protocol) && protocol.era === 'modern' && wellFormedDiscover(protocol.discover) && fits('protocol.discover', protocol.discover))
    profile.protocol = { era: 'modern', discover: protocol.discover };
  for (const [key] of LIST_KEYS) {
    const list = entry[key];
    if (Array.isArray(list)) profile[key] = usableItems(key, list, (_id, reason, index) => warn(`${key}[${index}]: ${reason}; left out`)) as never;
  }
  return Object.keys(profile).length > 0 ? profile : undefined;
}

/** The profile as a lock writes it: only what the server has, in a fixed key order. */
export function writeProfile(profile: ServerProfile | undefined): Record<string, unknown> {
  if (!profile) return {};
  const out: Record<string, unknown> = {};
  if (profile.protocol) out.protocol = profile.protocol;
  if (profile.capabilities) out.capabilities = profile.capabilities;
  if (profile.instructions) out.instructions = profile.instructions;
  for (const [key] of LIST_KEYS) if (profile[key]?.length) out[key] = profile[key];
  return out;
}

/** What of a profile a client reads and pinning covers (capabilities and the era are not content). */
export type ProfileContent = Pick<ServerProfile, 'instructions' | 'prompts' | 'resources' | 'resourceTemplates'>;

/**
 * The items of a profile's content, each under a key that names it for a person (`instructions`,
 * `prompt "x"`, `resource "file:///a"`, `resource template "t/{id}"`), with where it is: what pin
 * checks and `lock --check` compare one by one. Absent and empty are the same.
 */
export function profileItems(profile: ProfileContent | undefined): Array<[key: string, value: unknown]> {
  return itemsOf(profile).map(([key, value]) => [key, value]);
}

/** A profile's content with only the items `keep` accepts (by profileItems key). */
export function profileWith(profile: ProfileContent | undefined, keep: (key: string) => boolean): ProfileContent {
  const out: ProfileContent = { prompts: [], resources: [], resourceTemplates: [] };
  for (const [key, value, list] of itemsOf(profile)) {
    if (!keep(key)) continue;
    if (list === undefined) out.instructions = value as string;
    else (out[list] as unknown[]).push(value);
  }
  return out;
}

function itemsOf(profile: ProfileContent | undefined): Array<[string, unknown, (typeof LIST_KEYS)[number][0] | undefined]> {
  const items: Array<[string, unknown, (typeof LIST_KEYS)[number][0] | undefined]> = [];
  if (profile?.instructions) items.push(['instructions', profile.instructions, undefined]);
  for (const [key, id] of LIST_KEYS) for (const item of profile?.[key] ?? []) items.push([`${PRIMITIVE_LISTS[key].label} ${JSON.stringify((item as Record<string, unknown>)[id])}`, item, key]);
  return items;
}

/** A server/discover result as the client can reuse it: versions, capabilities and server info of the right types. */
function wellFormedDiscover(discover: unknown): discover is Record<string, unknown> {
  if (!isObject(discover)) return false;
  if ((discover.capabilities !== undefined && !isObject(discover.capabilities)) || (discover.serverInfo !== undefined && !isObject(discover.serverInfo))) return false;
  const versions = discover.supportedVersions;
  return Array.isArray(versions) && versions.length > 0 && versions.every((version) => typeof version === 'string');
}
