import { compareStrings } from '../util/compare.js';

/** What ranking reads of a hit: its score, and its tool's exposed name for ties. */
interface Ranked {
  score: number;
  tool: { exposedName: string };
}

/** Best first: higher score, then exposed name, so results are deterministic. */
export function before(a: Ranked, b: Ranked): boolean {
  return a.score > b.score || (a.score === b.score && compareStrings(a.tool.exposedName, b.tool.exposedName) < 0);
}

/**
 * Keeps `top` the best `limit` hits in order, one insertion at a time: a query over 10,000 tools
 * may match thousands, and sorting them all to return five cost more than the scoring.
 */
export function keepTop<T extends Ranked>(top: T[], hit: T, limit: number): void {
  if (top.length >= limit && !before(hit, top[top.length - 1] as T)) return;
  let i = top.length;
  while (i > 0 && before(hit, top[i - 1] as T)) i--;
  top.splice(i, 0, hit);
  if (top.length > limit) top.pop();
}
