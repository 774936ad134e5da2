/**
 * Group names on the wire of the `io.modelcontextprotocol/groups` draft extension: 1 to 64
 * characters, lowercase letters, digits and hyphens, no leading, trailing or consecutive hyphen
 * (the Agent Skills naming rule). lazytools' group and server names are freer (`pull_requests`,
 * `My Server`), so they are mapped: lowercased, every run of other characters becomes one
 * hyphen, hyphens trimmed, cut to 64. Names that map alike are told apart with `-2`, `-3`...
 * in the order they are assigned (deterministic for a given catalog and config).
 */

/** The draft's rule for a group name. */
export const GROUP_NAME_RULE = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

const MAX = 64;

/** The wire form of a lazytools name (`pull_requests` -> `pull-requests`); `group` when nothing is left. */
export function wireName(name: string): string {
  const mapped = trimHyphens(name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, MAX));
  return mapped === '' ? 'group' : mapped;
}

/** Hands out unique wire names: the first taker of a name keeps it, later ones get `-2`, `-3`... */
export class NameTable {
  private readonly taken = new Set<string>();

  /** A unique wire name for `base` (already a wire name, or a lazytools name to map). */
  claim(base: string): string {
    const name = wireName(base);
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
