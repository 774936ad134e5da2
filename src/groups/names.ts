/**
 * Group names on the wire of the `io.modelcontextprotocol/groups` draft extension: 1 to 64
 * characters, lowercase letters, digits and hyphens, no leading, trailing or consecutive hyphen
 * (the Agent Skills naming rule). lazytools' group and server names are freer (`pull_requests`,
 * `My Server`), so they are mapped: lowercased, every run of other characters becomes one
 * hyphen, hyphens trimmed, cut to 64. Names that map alike are told apart with `-2`, `-3`...
 * in the order they are assigned (deterministic for a given catalog and config). Names that start
 * with `mode-` belong to modes (focus/mode-groups.ts): a tool group whose name maps to one (or to
 * `mode`) gets `group-` in front (`mode_x` -> `group-mode-x`), so no tool group can take a mode's name.
 */

/** The draft's rule for a group name. */
export const GROUP_NAME_RULE = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

const MAX = 64;

/** The wire form of a lazytools name (`pull_requests` -> `pull-requests`); `group` when nothing is left. */
export function wireName(name: string): string {
  const mapped = trimHyphens(name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, MAX));
  return mapped === '' ? 'group' : mapped;
}

/** The prefix of every mode's group name (`mode-security-review`); no tool group's name starts with it. */
export const MODE_PREFIX = 'mode-';

/**
 * The wire name of a tool group: `base` mapped, with `group-` in front when it would start as a
 * mode's does, or is `mode` (whose second taker would get `mode-2`, a mode's name).
 */
export function toolGroupName(base: string): string {
  const name = wireName(base);
  return name === 'mode' || name.startsWith(MODE_PREFIX) ? wireName(`group-${name}`) : name;
}

/** The wire name of a mode's group: `mode-` and the mode's name mapped (`security_review` -> `mode-security-review`). */
export function modeGroupName(mode: string): string {
  return wireName(`${MODE_PREFIX}${wireName(mode)}`);
}

/**
 * Hands out unique wire names: the first taker of a name keeps it, later ones get `-2`, `-3`...
 * `wire` maps a base to its wire name (tool groups: toolGroupName; modes: modeGroupName).
 */
export class NameTable {
  private readonly taken = new Set<string>();

  constructor(private readonly wire: (base: string) => string = wireName) {}

  /** A unique wire name for `base` (already a wire name, or a lazytools name to map). */
  claim(base: string): string {
    const name = this.wire(base);
    if (!this.taken.has(name)) {
      this.taken.add(name);
      return name;
    }
    for (let n = 2; ; n++) {
      const suffix = `-${n}`;
      const candidate = `${trimHyphens(name.slice(0, MAX - suffix.length))}${suffix}`;
      if (!this.taken.has(candidate)) {
        this.taken.add(candidate);
        return candidate;
      }
    }
  }
}

function trimHyphens(text: string): string {
  return text.replace(/^-+|-+$/g, '');
}
