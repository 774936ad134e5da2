/**
 * Open things counted per key (a token, a remote address) against a share, so one key cannot
 * fill a table meant for everyone: `take` counts one in when the key is under `max`.
 */
export class Shares<K> {
  private readonly counts = new Map<K, number>();

  /** Counts one in for `key` and returns true, or returns false when it already holds `max`. */
  take(key: K, max: number): boolean {
    const held = this.counts.get(key) ?? 0;
    if (held >= max) return false;
    this.counts.set(key, held + 1);
    return true;
  }

  /** Counts one out for `key`. */
  release(key: K): void {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}
