import { own, setOwn } from '../util/own.js';

/** Values (properties and items) one example holds at most: describe_tools' work per tool stays bounded. */
export const MAX_EXAMPLE_VALUES = 200;
/** Objects and arrays an example nests at most. */
const MAX_EXAMPLE_DEPTH = 4;

/**
 * Example arguments derived from a JSON Schema: required properties with a placeholder of the
 * right type (the first enum value, a default, or a typed stand-in). Shown by describe_tools when
 * the rc gives no examples. The schema is the upstream's: each required name counts once, the
 * nesting and the values made are bounded (MAX_EXAMPLE_DEPTH, MAX_EXAMPLE_VALUES), and a
 * `required` that is not a list of names is read as none. Walked per required name, a 737-byte
 * schema of ten levels each requiring the same name ten times took 3.4 s (ten to the depth), and
 * twelve levels never ended.
 */
export function exampleArguments(schema: unknown): Record<string, unknown> {
  return exampleObject(schema, { values: 0 }, 0);
}

function exampleObject(schema: unknown, budget: { values: number }, depth: number): Record<string, unknown> {
  const s = (schema ?? {}) as { properties?: unknown; required?: unknown };
  const out: Record<string, unknown> = {};
  if (!Array.isArray(s.required)) return out;
  const properties = typeof s.properties === 'object' && s.properties !== null ? (s.properties as Record<string, unknown>) : undefined;
  for (const key of new Set(s.required)) {
    if (typeof key !== 'string') continue;
    if (budget.values++ >= MAX_EXAMPLE_VALUES) break;
    setOwn(out, key, exampleValue(own(properties, key), key, budget, depth));
  }
  return out;
}

function exampleValue(schema: unknown, key: string, budget: { values: number }, depth: number): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as { type?: unknown; enum?: unknown[]; default?: unknown; examples?: unknown[]; items?: unknown };
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return depth < MAX_EXAMPLE_DEPTH && budget.values++ < MAX_EXAMPLE_VALUES ? [exampleValue(s.items, key, budget, depth + 1)] : [];
    case 'object':
      return depth < MAX_EXAMPLE_DEPTH ? exampleObject(s, budget, depth + 1) : {};
    default:
      return `<${key}>`;
  }
}
