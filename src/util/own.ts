/**
 * Name lookups that never see inherited keys. Mode, group, server and tool names come from rc
 * files, command lines, URL paths and tool arguments; on a plain object `toString`, `constructor`
 * or `__proto__` would resolve to `Object.prototype`'s members instead of "unknown".
 */

/** `record[key]` when `key` is the record's own property, else undefined. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

const nonEmpty = new WeakSet<object>();

/**
 * `record` when it has any property, else undefined: `own` of an empty rc section then returns at
 * once, where a fresh key (a tool id built per catalog) was hashed into V8's string table on every
 * lookup (fitting 10,000 tools in every mode looked up each tool's `tools.<id>` twice). Only a
 * record found non-empty is remembered (for-in lists every key of a large one): returning a record
 * is always right, as `own` reads it, while a remembered "empty" would hide keys added later.
 */
export function unlessEmpty<T extends object>(record: T | undefined): T | undefined {
  if (record === undefined) return undefined;
  if (nonEmpty.has(record)) return record;
  // for-in sees inherited enumerable keys too: such a record is kept, and `own` still reads own keys only.
  for (const key in record)
    if (key !== undefined) {
      nonEmpty.add(record);
      return record;
    }
  return undefined;
}

/** True when `key` is an own property of `record`. */
export function hasOwn(record: object | undefined, key: string): boolean {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key);
}

/**
 * A record without a prototype holding the given entries: indexing it with an inherited name
 * gives undefined, and a `__proto__` key is an ordinary entry.
 */
export function dictionary<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) setOwn(out, key, value);
  return out;
}

/**
 * Sets `record[key]` as an own property, also for `__proto__` (which plain assignment turns into
 * the prototype). Other names are assigned plainly, which V8 does far faster than defining them
 * (compacting 10,000 definitions: about a tenth of a cold start) and into shared shapes; names of
 * `Object.prototype`'s own members are defined too, so a frozen prototype cannot refuse them.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__' || Object.prototype.hasOwnProperty.call(Object.prototype, key)) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
