import { compareStrings } from './compare.js';

/** The largest array index (2^32 - 2): keys up to it are the ones JavaScript lists first, by value. */
const MAX_INDEX = 4_294_967_294;

/**
 * JSON with each object's keys sorted: equal content, equal text, whatever order the keys came in.
 * The one canonical JSON of lazytools: a lock's per-server hash and its drift are taken over it
 * (its bytes are part of every lock written, so they never change), and `uniqueItems` compares
 * arguments by it (JSON Schema equality, where key order does not matter).
 *
 * The text is what `JSON.stringify` writes for the value with every object rebuilt from its
 * entries sorted by compareStrings, which is how locks were hashed from the first: keys that are
 * array indices ("0", "9", "10") come first in numeric order, as JavaScript lists them in any
 * object, then the others by UTF-16 code units. Everything else is JSON.stringify's: `toJSON`
 * honoured, `undefined`, functions and symbols left out of objects and null in arrays, NaN and
 * Infinity null, -0 as 0, a bigint refused. Written out rather than through a JSON.stringify
 * replacer, which builds a sorted copy of every object: over half a million objects in an argument
 * (what a 4 MB body holds) it took twice the time. Recursive: callers' values are bounded in depth
 * (util/bounds.ts), as they were for JSON.stringify's own recursion.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '') ?? 'null';
}

/** One value's canonical text, or undefined where JSON.stringify leaves the value out. */
function write(input: unknown, key: string): string | undefined {
  let value = input;
  if ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(write((value as unknown[])[i], String(i)) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const name of sortedKeys(record)) {
    const text = write(record[name], name);
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** An object's own enumerable keys: array indices first by value, then the rest by compareStrings. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const indices: string[] = [];
  const names: string[] = [];
  for (const key of Object.keys(record)) (isArrayIndex(key) ? indices : names).push(key);
  if (names.length > 1) names.sort(compareStrings);
  if (indices.length === 0) return names;
  // Already in numeric order as Object.keys lists them (a sorted run is one pass); a Proxy may list them otherwise.
  if (indices.length > 1) indices.sort((a, b) => Number(a) - Number(b));
  return [...indices, ...names];
}

/** True for the canonical decimal of an integer from 0 to 2^32 - 2, a key JavaScript lists by value. */
function isArrayIndex(key: string): boolean {
  if (key.length === 0 || key.length > 10 || (key.charCodeAt(0) === 0x30 && key.length > 1)) return false;
  for (let i = 0; i < key.length; i++) {
    const digit = key.charCodeAt(i);
    if (digit < 0x30 || digit > 0x39) return false;
  }
  return Number(key) <= MAX_INDEX;
}
