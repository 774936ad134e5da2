/**
 * Values derived from an owner object (a catalog, its tool list) and kept per key while
 * the owner lives and its `version` (the config, the search rules) stays the same object: a new
 * version starts the owner's keys over. At most `max` keys per owner, the oldest going first, so
 * keys that come from requests (a bearer token's boundary, a view's focus) cannot grow memory.
 */
export class KeptPerOwner<V, K = string> {
  private readonly owners = new WeakMap<object, { version: unknown; byKey: Map<K, V> }>();

  constructor(private readonly max: number) {}

  /** The value kept for `key`, or `make()`'s, kept. */
  get(owner: object, version: unknown, key: K, make: () => V): V {
    let entry = this.owners.get(owner);
    if (!entry || entry.version !== version) this.owners.set(owner, (entry = { version, byKey: new Map() }));
    let value = entry.byKey.get(key);
    if (value === undefined) {
      value = make();
      if (entry.byKey.size >= this.max) entry.byKey.delete(entry.byKey.keys().next().value as K);
      entry.byKey.set(key, value);
    }
    return value;
  }
}
