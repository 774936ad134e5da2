/**
 * Compiles a glob over tool ids (`server:tool`) to a RegExp: `*` matches any run of characters,
 * `?` one character; everything else is literal. Matching is case-insensitive.
 */
export function globToRegExp(glob: string): RegExp {
  // A leading or trailing `*` drops the anchor instead of adding `.*`: the same matches, and
  // the engine need not backtrack over every id (group matching runs tools x globs times).
  const open = glob.startsWith('*');
  const closed = !glob.endsWith('*');
  const body = glob.replace(/^\*+/, '').replace(/\*+$/, '');
  let source = '';
  for (const char of body) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${open ? '' : '^'}${source}${closed ? '$' : ''}`, 'i');
}
