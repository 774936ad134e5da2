/**
 * `text` as one flat string. V8 keeps a string made by `+` or a template literal (13 characters
 * or more) as a rope: a 32-byte node per join, holding its pieces. Most are short-lived, but one
 * kept per tool for as long as the gateway runs costs several times its characters: at 10,000
 * tools, ropes were 9 MB of the heap. Array join copies two or more parts into one new string.
 */
export function flatString(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}

/** Distinct texts sharedString keeps at most; past it the pool starts afresh (texts stay valid). */
export const SHARED_STRINGS = 20_000;
let shared = new Map<string, string>();

/**
 * One flat copy of `text` for every equal text asked for: the reasons kept per tool (a topic's
 * evidence `field "owner"`, a write status, a group placement) repeat across a catalog (304
 * distinct among 43,750 at 10,000 tools), and each tool kept a copy of its own, 2.9 MB in all.
 * Bounded: a catalog of all-different reasons keeps at most SHARED_STRINGS in the pool.
 */
export function sharedString(text: string): string {
  let kept = shared.get(text);
  if (kept === undefined) {
    if (shared.size >= SHARED_STRINGS) shared = new Map();
    kept = flatString(text);
    shared.set(kept, kept);
  }
  return kept;
}

/**
 * Distinct string values shareStringValues pools at most; past it the pool starts afresh (what it
 * shared stays shared). A Map holds at most 2^24 entries: a 170 MB lock of 17 million distinct
 * strings (within the 256 MB file bound) threw "Map maximum size exceeded" after 23 s and serve
 * never started. Real catalogs hold far fewer (tens of thousands at 10,000 tools).
 */
export const SHARED_VALUES = 1_000_000;

/**
 * Makes equal string values in a tree JSON.parse just made (plain objects and arrays, no cycles)
 * one string each: JSON.parse gives every occurrence a copy of its own, and tool definitions
 * repeat field descriptions across tools ("Repository owner", "Page number"): 40-60% of the
 * string bytes of the real-world catalogs in test/fixtures, 6.5 MB of a 10,000-tool gateway's
 * heap, kept for as long as it serves them. Keys are left alone (JSON.parse shares them already).
 * Only for a tree the caller made: it assigns to its objects. `most`: distinct values pooled at
 * once (SHARED_VALUES).
 */
export function shareStringValues(root: unknown, most = SHARED_VALUES): void {
  let pool = new Map<string, string>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (typeof value === 'string') {
        const kept = pool.get(value);
        if (kept === undefined) {
          if (pool.size >= most) pool = new Map();
          pool.set(value, value);
        }
        // An own "__proto__" key (JSON.parse makes one) is data; assigning it would set the prototype.
        else if (key !== '__proto__') record[key] = kept;
      } else if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
}
