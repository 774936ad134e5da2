/**
 * A score to two decimals: priorities, closeness and intent confidence are printed (`status
 * --explain`, focus_mode's answer) and compared, and the value compared must be the value shown.
 */
export function hundredths(value: number): number {
  return Math.round(value * 100) / 100;
}
