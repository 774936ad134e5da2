/**
 * `1 tool`, `2 tools`: counts in log and CLI lines read as English ("1 tools from 1 servers" was
 * the first thing a new user with one server saw). Regular plurals only, which is all lazytools counts.
 */
export function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}
