/**
 * Orders strings by UTF-16 code units, the same on every machine and locale (unlike
 * `localeCompare`): catalogs, locks and result ties sort with it so every list is deterministic.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
