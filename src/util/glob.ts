/**
 * Compiles a glob over tool ids (`server:tool`) to a RegExp: `*` matches any run of characters,
 * `?` one character; everything else is literal. Matching is case-insensitive.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i');
}

/** True when `id` matches one of `globs` (a glob without `:` matches the tool part of the id). */
export function matchesAny(id: string, globs: readonly RegExp[]): boolean {
  for (const glob of globs) if (glob.test(id)) return true;
  return false;
}
