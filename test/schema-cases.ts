/**
 * Argument cases generated from a JSON Schema, for checking that two schemas accept and reject
 * the same arguments (test/unit/compact.test.ts). Deterministic: the only randomness is a seeded
 * sample when a schema yields more cases than asked for.
 *
 * Each case starts from a plausible valid value (required properties with values of their type,
 * the first enum member, the lower bound of a range...) and varies one thing: a missing required
 * property, a value of each other type, a non-member of an enum, values at and past each bound,
 * an extra property, and the same, one level down, for each property, item and branch.
 */

type Schema = Record<string, unknown>;

/** Values of each JSON type: the wrong-type candidates for any field. */
const ONE_OF_EACH_TYPE: readonly unknown[] = ['text', 7, 2.5, true, null, ['x'], { k: 1 }];

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-01-02T03:04:05Z',
  date: '2026-01-02',
  time: '03:04:05Z',
  email: 'someone@example.com',
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  'uri-reference': '/a/b',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

/** mulberry32: a small seeded generator, so a sample is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a string (FNV-1a). */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * At most `limit` argument objects for a tool's input schema, the first ones always kept (the
 * valid base case, the empty object) and the rest sampled with `seed`.
 */
export function argumentCases(root: Schema, seed: number, limit = 200): unknown[] {
  const generator = new Cases(root);
  const all = dedupe([{}, ...generator.cases(root, 0)]);
  if (all.length <= limit) return all;
  const random = seeded(seed);
  const head = all.slice(0, 3);
  const rest = all.slice(3);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [...head, ...rest.slice(0, limit - head.length)];
}

const MAX_DEPTH = 4;
/** Cases taken from one property, item or branch (the seeded sample thins the total later). */
const PER_CHILD = 24;

class Cases {
  constructor(private readonly root: Schema) {}

  /** A plausible valid value of the schema. */
  value(input: unknown, depth: number): unknown {
    const schema = this.resolve(input);
    if (schema === undefined) return 'x';
    if (depth > MAX_DEPTH) return typeOf(schema) === 'object' ? {} : 'x';
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches) && branches.length > 0 && !schema.type && !schema.properties) {
      const nonNull = branches.find((branch) => typeOf(this.resolve(branch) ?? {}) !== 'null') ?? branches[0];
      return this.value(nonNull, depth + 1);
    }
    const merged = Array.isArray(schema.allOf) ? this.mergeAll(schema) : schema;
    switch (typeOf(merged)) {
      case 'string': {
        if (typeof merged.format === 'string' && FORMAT_SAMPLES[merged.format]) return FORMAT_SAMPLES[merged.format];
        const min = num(merged.minLength) ?? 1;
        const max = num(merged.maxLength) ?? Math.max(min, 5);
        return 'a'.repeat(Math.min(Math.max(min, 1), max, 64));
      }
      case 'integer':
      case 'number': {
        const low = num(merged.minimum) ?? (num(merged.exclusiveMinimum) !== undefined ? Math.floor(num(merged.exclusiveMinimum) as number) + 1 : undefined);
        const high = num(merged.maximum) ?? (num(merged.exclusiveMaximum) !== undefined ? Math.ceil(num(merged.exclusiveMaximum) as number) - 1 : undefined);
        return low ?? (high !== undefined ? Math.min(high, 1) : 1);
      }
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array': {
        const count = Math.min(num(merged.minItems) ?? 1, 8);
        const items = merged.items;
        if (Array.isArray(items)) return items.map((item) => this.value(item, depth + 1));
        if (Array.isArray(merged.prefixItems)) return merged.prefixItems.map((item) => this.value(item, depth + 1));
        return Array.from({ length: count }, (_, i) => (merged.uniqueItems ? uniqueVariant(this.value(items, depth + 1), i) : this.value(items, depth + 1)));
      }
      case 'object': {
        const out: Record<string, unknown> = {};
        const properties = (merged.properties ?? {}) as Record<string, unknown>;
        for (const name of required(merged)) out[name] = Object.prototype.hasOwnProperty.call(properties, name) ? this.value(properties[name], depth + 1) : 'x';
        return out;
      }
      default:
        return 'x';
    }
  }

  /** Values around the schema: the valid one and variants that each break or probe one rule. */
  cases(input: unknown, depth: number): unknown[] {
    const schema = this.resolve(input);
    const base = this.value(input, depth);
    if (schema === undefined) return [base, ...ONE_OF_EACH_TYPE];
    const out: unknown[] = [base, ...ONE_OF_EACH_TYPE];
    if (depth > MAX_DEPTH) return out;
    if ('const' in schema) out.push(schema.const, 'not-the-const');
    if (Array.isArray(schema.enum)) out.push(...schema.enum.slice(0, 6), '__not_in_enum__', 12_345);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) for (const branch of branches.slice(0, 4)) out.push(...this.cases(branch, depth + 1).slice(0, PER_CHILD));
    }
    const merged = Array.isArray(schema.allOf) ? this.mergeAll(schema) : schema;
    const types = typesOf(merged);
    if (types.includes('string')) out.push(...stringProbes(merged));
    if (types.includes('number') || types.includes('integer')) out.push(...numberProbes(merged));
    if (types.includes('array') || merged.items !== undefined) out.push(...this.arrayProbes(merged, depth));
    if (types.includes('object') || merged.properties !== undefined) out.push(...this.objectProbes(merged, base, depth));
    return out;
  }

  private objectProbes(schema: Schema, base: unknown, depth: number): unknown[] {
    const out: unknown[] = [{}];
    const properties = isObject(schema.properties) ? schema.properties : {};
    const start = isObject(base) ? base : {};
    const names = Object.keys(properties);
    const full: Record<string, unknown> = { ...start };
    for (const name of names) if (!(name in full)) full[name] = this.value(properties[name], depth + 1);
    out.push(full, { ...start, __extra__: 1 }, { ...full, zz_unknown: 'x' });
    for (const name of required(schema)) {
      const without = { ...start };
      delete without[name];
      out.push(without);
    }
    for (const name of names) {
      for (const variant of this.cases(properties[name], depth + 1).slice(0, PER_CHILD)) out.push({ ...start, [name]: variant });
    }
    if (isObject(schema.patternProperties)) for (const child of Object.values(schema.patternProperties).slice(0, 2)) out.push({ ...start, p_1: this.value(child, depth + 1) });
    if (isObject(schema.additionalProperties)) for (const variant of this.cases(schema.additionalProperties, depth + 1).slice(0, 8)) out.push({ ...start, extra_key: variant });
    if (schema.propertyNames !== undefined) out.push({ ...start, 'Bad Name!': 1 });
    return out;
  }

  private arrayProbes(schema: Schema, depth: number): unknown[] {
    const item = this.value(Array.isArray(schema.items) ? schema.items[0] : schema.items, depth + 1);
    const out: unknown[] = [[], [item], [item, item]];
    const min = num(schema.minItems);
    const max = num(schema.maxItems);
    if (min !== undefined) out.push(Array.from({ length: Math.max(min - 1, 0) }, () => item), Array.from({ length: min }, () => item));
    if (max !== undefined && max < 50) out.push(Array.from({ length: max }, () => item), Array.from({ length: max + 1 }, () => item));
    if (!Array.isArray(schema.items) && schema.items !== undefined) for (const variant of this.cases(schema.items, depth + 1).slice(0, PER_CHILD)) out.push([variant]);
    return out;
  }

  /** Follows local `$ref`s (a few hops); booleans become `{}` (true) or a schema nothing fits. */
  private resolve(input: unknown, hops = 0): Schema | undefined {
    if (input === true || input === undefined) return {};
    if (input === false) return { not: {} };
    if (!isObject(input)) return undefined;
    if (typeof input.$ref === 'string' && input.$ref.startsWith('#') && hops < 8) {
      const target = pointer(this.root, input.$ref);
      const { $ref: _ref, ...rest } = input;
      const resolved = this.resolve(target, hops + 1);
      return resolved ? { ...resolved, ...rest } : undefined;
    }
    return input;
  }

  /** allOf branches folded into one schema (properties and required joined). */
  private mergeAll(schema: Schema): Schema {
    let out: Schema = { ...schema };
    for (const branch of schema.allOf as unknown[]) {
      const part = this.resolve(branch) ?? {};
      out = {
        ...part,
        ...out,
        properties: { ...((part.properties as object) ?? {}), ...((out.properties as object) ?? {}) },
        required: [...required(part), ...required(out)],
      };
    }
    return out;
  }
}

function stringProbes(schema: Schema): unknown[] {
  const out: unknown[] = ['', 'a', 'Zz-09_ä', '  spaced  ', 'not-a-valid-format', '2026-01-02T03:04:05Z', 'https://example.com'];
  for (const key of ['minLength', 'maxLength'] as const) {
    const bound = num(schema[key]);
    if (bound !== undefined && bound < 10_000) out.push('b'.repeat(Math.max(bound - 1, 0)), 'b'.repeat(bound), 'b'.repeat(bound + 1));
  }
  return out;
}

function numberProbes(schema: Schema): unknown[] {
  const out: unknown[] = [0, -1, 1, 1.5, 1e9, -1e9];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
    const bound = num(schema[key]);
    if (bound !== undefined) out.push(bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1);
  }
  return out;
}

function uniqueVariant(value: unknown, index: number): unknown {
  if (typeof value === 'string') return `${value}${index}`;
  if (typeof value === 'number') return value + index;
  return value;
}

function pointer(root: Schema, ref: string): unknown {
  if (ref === '#') return root;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function typeOf(schema: Schema): string | undefined {
  return typesOf(schema).find((type) => type !== 'null') ?? typesOf(schema)[0];
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
  if (schema.properties !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  return [];
}

function required(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
