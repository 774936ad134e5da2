/**
 * Example arguments derived from a JSON Schema: required properties with a placeholder of the
 * right type (the first enum value, a default, or a typed stand-in). Shown by describe_tools when
 * the rc gives no examples. The schema is an upstream's, checked at admission at its top level
 * only (catalog/admit.ts): a nested `required` that is no list of names, or a property named
 * `__proto__`, is read as data, never thrown on (one such tool failed a whole describe_tools call).
 * Nested arrays and objects are filled three levels deep, then left empty.
 */
export function exampleArguments(schema: unknown, depth = 0): Record<string, unknown> {
  const s = (schema ?? {}) as { properties?: unknown; required?: unknown };
  const required = Array.isArray(s.required) ? s.required.filter((key): key is string => typeof key === 'string') : [];
  const properties = typeof s.properties === 'object' && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
  // Own keys only, made as data properties (fromEntries): "__proto__" is a key like any other.
  return Object.fromEntries(required.map((key) => [key, exampleValue(Object.hasOwn(properties, key) ? properties[key] : undefined, key, depth)]));
}

function exampleValue(schema: unknown, key: string, depth = 0): unknown {
  const s = (schema ?? {}) as { type?: string | string[]; enum?: unknown[]; default?: unknown; examples?: unknown[]; items?: unknown };
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
      return depth < 3 ? [exampleValue(s.items, key, depth + 1)] : [];
    case 'object':
      // The depth goes on through objects too: it restarted at each, so nesting was never cut.
      return depth < 3 ? exampleArguments(s, depth + 1) : {};
    default:
      return `<${key}>`;
  }
}
