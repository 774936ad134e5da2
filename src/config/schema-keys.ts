import type { z } from 'zod';

/** The parts of a zod v4 schema definition that lead from a key path to an object's keys. */
interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: Schema;
  valueType?: Schema;
  element?: Schema;
  in?: Schema;
  options?: Schema[];
}
type Schema = { _zod: { def: Def } };

/**
 * The keys an object accepts at `path` in `schema` (records and arrays are stepped through by
 * their value type): what a "did you mean" picks from when a config has an unknown key there.
 */
export function keysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  const found = new Set<string>();
  const walk = (node: Schema | undefined, at: number): void => {
    const def = node?._zod.def;
    if (!def) return;
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'readonly':
        return walk(def.innerType, at);
      case 'pipe':
        return walk(def.in, at);
      case 'union':
        for (const option of def.options ?? []) walk(option, at);
        return;
      case 'object':
        if (at === path.length) for (const key of Object.keys(def.shape ?? {})) found.add(key);
        else walk((def.shape ?? {})[String(path[at])] as Schema | undefined, at + 1);
        return;
      case 'record':
        return at < path.length ? walk(def.valueType, at + 1) : undefined;
      case 'array':
        return at < path.length ? walk(def.element, at + 1) : undefined;
    }
  };
  walk(schema as unknown as Schema, 0);
  return [...found];
}
