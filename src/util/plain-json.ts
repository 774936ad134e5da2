import { types } from 'node:util';

/**
 * Most JSON a value may come to (characters, about): four times the largest rc file (config/find.ts
 * MAX_RC_BYTES), room for a YAML rc's aliases of a shared block, far below what would hold a start.
 */
export const MAX_PLAIN_JSON = 16 * 1024 * 1024;

/**
 * `value` as JSON when JSON shows all of it and that JSON is at most about `max` characters, else
 * undefined. Plain data is what a JSON or YAML document reads as: objects whose prototype is
 * Object's (or none), arrays, strings, finite numbers, booleans and null, each property its own,
 * enumerable, named by a string and holding a value (no getter). Anything else may be read
 * differently from what its JSON says: a class instance's getters and inherited keys are read by
 * a schema and left out by JSON.stringify, a getter may answer differently the next time, `toJSON`
 * says what it likes, `undefined`, NaN and holes turn into nothing or null, a Proxy may say anything.
 *
 * The size is counted before anything is written, each value as often as JSON would write it: a
 * YAML alias shares its anchor's value, and JSON writes it out at every alias (nine aliases of
 * nine aliases, 30 levels deep, is 1.7 KB of YAML and 9^30 values of JSON); a cycle never ends.
 * Without recursion (a document nested a million levels deep costs no stack), in time linear in
 * the JSON's size, so at most `max`.
 */
export function plainJson(value: unknown, max: number = MAX_PLAIN_JSON): string | undefined {
  let size = 0;
  const pending: unknown[] = [value];
  // What each object held when first met: an alias met again costs its count, not another look.
  const met = new WeakMap<object, { values: unknown[]; keys: number }>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (++size > max) return undefined;
    if (item === null || typeof item === 'boolean') continue;
    if (typeof item === 'string') {
      size += item.length;
      continue;
    }
    if (typeof item === 'number') {
      if (Number.isFinite(item)) continue;
      return undefined;
    }
    // undefined, a function, a symbol or a BigInt.
    if (typeof item !== 'object') return undefined;
    const children = met.get(item) ?? (types.isProxy(item) ? undefined : plainChildren(item));
    if (children === undefined) return undefined;
    met.set(item, children);
    // Its keys and a separator per value, counted before they are pushed: a shared array of a
    // million values met a million times is refused at its 16th meeting, the stack never past one.
    size += children.keys + children.values.length;
    if (size > max) return undefined;
    for (const child of children.values) pending.push(child);
  }
  try {
    return JSON.stringify(value);
  } catch {
    // Nested deeper than JSON.stringify's recursion reaches (about 10,000 levels).
    return undefined;
  }
}

/** An array's elements or a plain object's values and its keys' length, undefined when `item` is neither or JSON would not show all of it. */
function plainChildren(item: object): { values: unknown[]; keys: number } | undefined {
  const array = Array.isArray(item);
  const proto: unknown = Object.getPrototypeOf(item);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return undefined;
  // One call for all of an object's properties: a symbol key is one of them too.
  const properties = Object.getOwnPropertyDescriptors(item) as Record<PropertyKey, PropertyDescriptor>;
  const keys = Reflect.ownKeys(properties);
  // An array's own keys are its indexes and `length`: one more, or a hole, is something JSON leaves out.
  if (array && keys.length !== (item as unknown[]).length + 1) return undefined;
  const values: unknown[] = [];
  let length = 0;
  for (const key of keys) {
    if (array && key === 'length') continue;
    if (typeof key === 'symbol') return undefined;
    const property = properties[key]!;
    if (!property.enumerable || !('value' in property)) return undefined;
    values.push(property.value);
    if (!array) length += key.length;
  }
  return { values, keys: length };
}

/**
 * About how many characters `value` comes to written out as JSON, each value as often as it is
 * met (a YAML alias shares its anchor's value; written out it repeats), or undefined past `max`:
 * counted without recursion, stopping at `max`, so in time linear in the smaller of the two.
 */
export function writtenOutSize(value: unknown, max: number): number | undefined {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (++size > max) return undefined;
    if (typeof item === 'string') size += item.length;
    else if (typeof item === 'object' && item !== null) {
      const array = Array.isArray(item);
      for (const [key, child] of Object.entries(item)) {
        size += array ? 1 : key.length + 1;
        pending.push(child);
      }
    }
    if (size > max) return undefined;
  }
  return size;
}
