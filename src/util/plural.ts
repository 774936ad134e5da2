/**
 * `1 tool`, `2 tools`: counts in log and CLI lines read as English ("1 tools from 1 servers" was
 * the first thing a new user with one server saw). Regular plurals only, which is all lazytools counts.
 */
export function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

/**
 * The first `max` items joined with commas, and how many more: a list a line quotes (tools of a
 * warning, servers init imported) stays readable and bounded whatever the catalog or the client
 * config holds (20,000 imported servers made one 298 KB line).
 */
export function listSome(items: readonly string[], max = 10): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** The first `max` of `lines`, then one line saying how many more of `what` were left out (listSome for a list a line each). */
export function firstLines(lines: readonly string[], max: number, what: string): string[] {
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more ${what}`] : [...lines];
}
