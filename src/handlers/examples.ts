/**
 * Example arguments derived from a JSON Schema: required properties with a placeholder of the
 * right type (the first enum value, a default, or a typed stand-in). Shown by describe_tools when
 * the rc gives no examples.
 */
export function exampleArguments(schema: unknown): Record<string, unknown> {
  const s = schema as { properties?: Record<string, unknown>; required?: string[] };
  const out: Record<string, unknown> = {};
  for (const key of s.required ?? []) out[key] = exampleValue(s.properties?.[key], key);
  return out;
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
      return depth < 3 ? exampleArguments(s) : {};
    default:
      return `<${key}>`;
  }
}
