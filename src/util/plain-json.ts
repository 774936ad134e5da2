import { types } from 'node:util';

/**
 * `value` as JSON when JSON shows all of it and it is a tree, else undefined. Plain data is what
 * a JSON or YAML document reads as: objects whose prototype is Object's (or none), arrays,
 * strings, finite numbers, booleans and null, each property its own, enumerable, named by a
 * string and holding a value (no getter). Anything else may be read differently from what its
 * JSON says: a class instance's getters and inherited keys are read by a schema and left out by
 * JSON.stringify, a getter may answer differently the next time, `toJSON` says what it likes,
 * `undefined`, NaN and holes turn into nothing or null, a Proxy may say anything.
 *
 * A value reached twice is no tree: a YAML alias shares its anchor's value, and JSON would write
 * it out at every alias (nine aliases of nine aliases, 30 levels deep, is 1.7 KB of YAML and
 * 9^30 values of JSON). Each object is looked at once, without recursion, so this takes time
 * linear in the value's size; a value nested deeper than JSON.stringify recurses has no JSON either.
 */
export function plainJson(value: unknown): string | undefined {
  const seen = new WeakSet<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (Number.isFinite(item)) continue;
      return undefined;
    }
    // undefined, a function, a symbol or a BigInt.
    if (typeof item !== 'object' || types.isProxy(item) || seen.has(item)) return undefined;
    seen.add(item);
    const children = plainChildren(item);
    if (children === undefined) return undefined;
    for (const child of children) pending.push(child);
  }
  try {
    return JSON.stringify(value);
  } catch {
    // Nested deeper than JSON.stringify's recursion reaches (about 10,000 levels).
    return undefined;
  }
}

/** An array's elements or a plain object's values, undefined when `item` is neither or JSON would not show all of it. */
function plainChildren(item: object): unknown[] | undefined {
  const array = Array.isArray(item);
  const proto: unknown = Object.getPrototypeOf(item);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return undefined;
  // One call for all of an object's properties: a symbol key is one of them too.
  const properties = Object.getOwnPropertyDescriptors(item) as Record<PropertyKey, PropertyDescriptor>;
  const keys = Reflect.ownKeys(properties);
  // An array's own keys are its indexes and `length`: one more, or a hole, is something JSON leaves out.
  if (array && keys.length !== (item as unknown[]).length + 1) return undefined;
  const children: unknown[] = [];
  for (const key of keys) {
    if (array && key === 'length') continue;
    if (typeof key === 'symbol') return undefined;
    const property = properties[key]!;
    if (!property.enumerable || !('value' in property)) return undefined;
    children.push(property.value);
  }
  return children;
}
