/**
 * Membership and position lookups over readonly lists the config and catalog hold for their whole
 * life (a mode's groups, a tool's groups, the compiled groups): built once per list object, so a
 * test that ran `list.includes(x)` inside a loop over another list (tools x groups x groups on an
 * rc of thousands of groups) costs one hash lookup. The lists must not change after the first
 * lookup; every caller passes a resolved config's or a built catalog's own arrays, which never do.
 */

const sets = new WeakMap<readonly unknown[], ReadonlySet<unknown>>();
const indexes = new WeakMap<readonly unknown[], ReadonlyMap<unknown, number>>();

/** The items of `list` as a set, made once per list object. */
export function setOf<T>(list: readonly T[]): ReadonlySet<T> {
  let set = sets.get(list) as ReadonlySet<T> | undefined;
  if (!set) sets.set(list, (set = new Set(list)));
  return set;
}

const byName = new WeakMap<readonly unknown[], ReadonlyMap<string, number>>();

/** Per item of `list`, the index of its first occurrence (`list.indexOf`), made once per list object. */
export function indexOf<T>(list: readonly T[]): ReadonlyMap<T, number> {
  let map = indexes.get(list) as ReadonlyMap<T, number> | undefined;
  if (!map) indexes.set(list, (map = firstIndexes(list, (item) => item)));
  return map;
}

/** Per name of the items of `list`, the index of the first item so named (`findIndex` by name), made once per list object. */
export function indexOfName(list: readonly { readonly name: string }[]): ReadonlyMap<string, number> {
  let map = byName.get(list);
  if (!map) byName.set(list, (map = firstIndexes(list, (item) => item.name)));
  return map;
}

function firstIndexes<T, K>(list: readonly T[], key: (item: T) => K): Map<K, number> {
  const made = new Map<K, number>();
  list.forEach((item, index) => {
    const k = key(item);
    if (!made.has(k)) made.set(k, index);
  });
  return made;
}
