/**
 * `text.replace(pattern, replace)` for a pattern of references that each end at a `}` (`${VAR}`,
 * `${VAR:-default}`, `${env:X}`), in time linear in `text`. Such a pattern reads from each `${` to
 * the next `}`: where none follows (`${${${…`), every start reads to the end of the text, so a
 * 400 KB rc value held `status` past a minute and a 4 MB one (what an rc may be) for hours. No
 * match ends past the last `}`, so only the text up to it is searched; there every start finds its
 * `}`.
 */
export function replaceBraced(text: string, pattern: RegExp, replace: (match: string, ...groups: string[]) => string): string {
  const end = text.lastIndexOf('}') + 1;
  if (end === 0) return text;
  const searched = end === text.length ? text : text.slice(0, end);
  const replaced = searched.replace(pattern, replace as (match: string, ...rest: unknown[]) => string);
  return end === text.length ? replaced : replaced + text.slice(end);
}
