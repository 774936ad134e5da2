import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { compactDefinition, compactSchema, MAX_SCHEMA_DEPTH, SCHEMA_DESCRIPTION_MAX, TOOL_DESCRIPTION_MAX } from '../../src/catalog/compact.js';
import { shortenText } from '../../src/catalog/text.js';
import { countToolTokens } from '../../src/util/tokens.js';
import { argumentCases, seedOf } from '../schema-cases.js';
import { CATALOGS } from '../harness/index.js';

type Schema = Record<string, unknown>;
type Dialect = 'draft-07' | '2019-09' | '2020-12';

const FIXTURES = ['real-world.json', 'github-mcp-server.json', 'reference-servers.json', 'developer-stack.json'];

function fixtureTools(file: string): Array<{ id: string; tool: ToolDefinition }> {
  const parsed = JSON.parse(readFileSync(path.join(CATALOGS, file), 'utf8')) as { servers: Record<string, { tools: ToolDefinition[] }> };
  return Object.entries(parsed.servers).flatMap(([server, { tools }]) => tools.map((tool) => ({ id: `${server}:${tool.name}`, tool })));
}

// One validator instance per dialect; `addUsedSchema: false` so schemas with the same $id do not clash.
const options = { strict: false, validateSchema: false, addUsedSchema: false, logger: false } as const;
const validators: Record<Dialect, Ajv> = { 'draft-07': new Ajv(options), '2019-09': new Ajv2019(options), '2020-12': new Ajv2020(options) };
// Formats asserted (ajv alone ignores them), rough but deterministic: a dropped `format` would show.
const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/,
  date: /^\d{4}-\d\d-\d\d$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};
for (const ajv of Object.values(validators)) for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);

/** The dialects a client may read a schema in: the one its `$schema` names, or any when it names none. */
function dialectsOf(schema: Schema): Dialect[] {
  const named = schema.$schema;
  if (named === undefined) return ['draft-07', '2020-12'];
  if (typeof named === 'string' && named.includes('2020-12')) return ['2020-12'];
  if (typeof named === 'string' && named.includes('2019-09')) return ['2019-09'];
  return ['draft-07'];
}

function compile(schema: Schema, dialect: Dialect): ValidateFunction | 'error' {
  try {
    return validators[dialect].compile(schema);
  } catch {
    return 'error';
  }
}

/** accept / reject per case, or "error" when the schema does not compile in that dialect. */
function verdicts(validate: ValidateFunction | 'error', cases: readonly unknown[]): string {
  if (validate === 'error') return 'error';
  return cases.map((value) => (validate(value) ? '1' : '0')).join('');
}

/** Verdict strings of the original and the compact schema on the same cases; differences named. */
interface Comparison {
  changed: boolean;
  compared: number;
  accepted: number;
  rejected: number;
  uncompiled: number;
  differences: string[];
}

function compare(id: string, tool: ToolDefinition): Comparison {
  const result: Comparison = { changed: false, compared: 0, accepted: 0, rejected: 0, uncompiled: 0, differences: [] };
  const original = tool.inputSchema as Schema;
  const compacted = compactDefinition(tool).inputSchema as Schema;
  if (compacted === original) return result; // the same object: nothing can differ
  result.changed = true;
  const cases = argumentCases(original, seedOf(id));
  // The original is read in the dialect it names; a compact schema that dropped `$schema` must
  // agree whatever dialect the client then assumes (MCP's default is 2020-12).
  for (const originalDialect of dialectsOf(original)) {
    const expected = verdicts(compile(original, originalDialect), cases);
    if (expected === 'error') result.uncompiled++;
    const compactDialects = original.$schema === undefined ? [originalDialect] : dialectsOf(compacted);
    for (const dialect of compactDialects) {
      const actual = verdicts(compile(compacted, dialect), cases);
      result.compared += cases.length;
      if (actual !== expected) result.differences.push(`${id} (${originalDialect} -> ${dialect}): ${firstDifference(expected, actual, cases)}`);
    }
    result.accepted += [...expected].filter((v) => v === '1').length;
    result.rejected += [...expected].filter((v) => v === '0').length;
  }
  return result;
}

describe('compact definitions accept and reject exactly what the upstream schema does', () => {
  for (const file of FIXTURES) {
    // An upper bound only (about 10 s for real-world.json on a busy 2-core machine: ajv compiles each schema).
    it(`every tool of ${file}, on generated argument cases, in every dialect a client may assume`, { timeout: 120_000 }, () => {
      const tools = fixtureTools(file);
      const results = tools.map(({ id, tool }) => compare(id, tool));
      const sum = (key: 'compared' | 'accepted' | 'rejected' | 'uncompiled') => results.reduce((total, r) => total + r[key], 0);
      const differences = results.flatMap((r) => r.differences);
      const changed = results.filter((r) => r.changed).length;
      expect(differences, `${file}: ${tools.length} tools, ${changed} compacted, ${sum('compared')} verdicts compared`).toEqual([]);
      // Not vacuous: schemas did change, and the cases reach both verdicts.
      expect(changed).toBeGreaterThan(0);
      expect(sum('accepted')).toBeGreaterThan(sum('compared') / 20);
      expect(sum('rejected')).toBeGreaterThan(sum('compared') / 5);
      expect(sum('uncompiled')).toBeLessThan(changed / 20);
    });
  }

  it('schemas written to catch a wrong rule: dialects, refs, unevaluated, tuples, pydantic', () => {
    const noise = { title: 'Thing', description: ' ', $comment: 'noise', examples: [1, 2] };
    const schemas: Record<string, Schema> = {
      pydantic: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: 'pydanticArguments',
        $defs: { Kind: { title: 'Kind', type: 'string', enum: ['a', 'b'] } },
        properties: {
          kind: { $ref: '#/$defs/Kind', description: 'The kind.' },
          limit: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], default: null, title: 'Limit' },
          tags: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2, uniqueItems: true, title: 'Tags' },
        },
        required: ['kind'],
      },
      unevaluated: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', ...noise, allOf: [{ properties: { a: { type: 'string' } }, additionalProperties: true }], unevaluatedProperties: false },
      tuple: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', ...noise, properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } }, required: ['pair'] },
      refSiblings: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', ...noise, definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s', maxLength: 2 } } },
      dependencies: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', ...noise, properties: { a: { type: 'string' }, b: { type: 'string' } }, dependencies: { a: ['b'] } },
      conditional: { type: 'object', ...noise, properties: { mode: { enum: ['x', 'y'] }, n: { type: 'number' } }, if: { properties: { mode: { const: 'x' } } }, then: { required: ['n'], ...noise }, else: { not: { required: ['n'] } } },
      unusedDefs: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { a: { type: 'object', properties: { p: { $ref: '#/$defs/b' } }, required: ['p'] }, b: { type: 'string', maxLength: 3 }, unused: { type: 'number' } },
        definitions: { alsoUnused: { type: 'boolean' } },
        properties: { x: { $ref: '#/$defs/a' } },
        required: ['x'],
      },
      patterns: { type: 'object', ...noise, patternProperties: { '^x_': { type: 'integer', ...noise } }, propertyNames: { pattern: '^[a-z_]+$' }, additionalProperties: { type: 'string', minLength: 2, ...noise } },
    };
    const differences = Object.entries(schemas).flatMap(([id, inputSchema]) => compare(id, { name: id, inputSchema: inputSchema as ToolDefinition['inputSchema'] }).differences);
    expect(differences).toEqual([]);
    // $schema stays as written (SEP-1613), so a client reads the compact schema in the same dialect.
    for (const [id, schema] of Object.entries(schemas)) expect((compactSchema(schema, id) as Schema).$schema).toBe(schema.$schema);
    expect(compactSchema(schemas.unevaluated, 'unevaluated')).toMatchObject({ allOf: [{ additionalProperties: true }] });
  });
});

function firstDifference(expected: string, actual: string, cases: readonly unknown[]): string {
  if (expected === 'error' || actual === 'error') return `compiles: ${expected !== 'error'} vs ${actual !== 'error'}`;
  const index = [...expected].findIndex((v, i) => actual[i] !== v);
  return `${JSON.stringify(cases[index]).slice(0, 200)}: ${expected[index]} vs ${actual[index]}`;
}

describe('compactDefinition', () => {
  it('cuts tokens on every fixture', () => {
    for (const file of FIXTURES) {
      const tools = fixtureTools(file).map(({ tool }) => tool);
      const verbatim = tools.reduce((sum, tool) => sum + countToolTokens(tool), 0);
      const compact = tools.reduce((sum, tool) => sum + countToolTokens(compactDefinition(tool)), 0);
      // The figures: bench/compact.mjs (BENCHMARKS.md, Compact definitions).
      expect(compact, `${file}: ${verbatim} -> ${compact} tokens`).toBeLessThan(verbatim * 0.9);
    }
  });

  it('keeps the first paragraph of a long tool description, and what a call accepts', () => {
    const tool: ToolDefinition = {
      name: 'search_issues',
      title: 'Search issues',
      description: `Search issues by query.\n\n${'Usage notes that go on. '.repeat(30)}`,
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        title: 'search_issuesArguments',
        properties: {
          query: { type: 'string', title: 'Query', description: 'What to find.', minLength: 1, pattern: '^[^\\n]+$' },
          max_results: { type: 'integer', title: 'Max Results', minimum: 1, maximum: 100, default: 10, description: '' },
          state: { type: 'string', enum: ['open', 'closed'], title: 'Issue state', $comment: 'kept in sync with the API' },
          labels: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, uniqueItems: true, examples: [['a'], ['b']] },
          filters: { type: 'object', additionalProperties: true, properties: { x: { const: 1 } } },
        },
        required: ['query'],
        additionalProperties: false,
      },
      outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', title: 'Out' },
      annotations: { readOnlyHint: true },
      _meta: { 'example/key': 1 },
    };
    const out = compactDefinition(tool);
    expect(out.description).toBe('Search issues by query. …');
    expect(out.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to find.', minLength: 1, pattern: '^[^\\n]+$' },
        max_results: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
        state: { type: 'string', enum: ['open', 'closed'], title: 'Issue state' },
        labels: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, uniqueItems: true, examples: [['a']] },
        filters: { type: 'object', properties: { x: { const: 1 } } },
      },
      required: ['query'],
      additionalProperties: false,
    });
    // Everything outside the input schema and description passes through as the same objects.
    expect(out.outputSchema).toBe(tool.outputSchema);
    expect(out.annotations).toBe(tool.annotations);
    expect(out._meta).toBe(tool._meta);
    expect(out.title).toBe('Search issues');
    // The input is never modified.
    expect((tool.inputSchema.properties as Schema).query).toHaveProperty('title', 'Query');
  });

  it('returns the same object when there is nothing to compact', () => {
    const tool: ToolDefinition = { name: 'ping', description: 'Ping.', inputSchema: { type: 'object', properties: { n: { type: 'number', description: 'How many.' } } } };
    expect(compactDefinition(tool)).toBe(tool);
  });

  it('keeps a property named __proto__ (parsed JSON makes it an own key)', () => {
    const schema = JSON.parse('{"type":"object","title":"t","properties":{"__proto__":{"type":"string","title":"__proto__","maxLength":2}},"required":["__proto__"]}') as Schema;
    const out = compactSchema(schema, 't') as Schema;
    expect(Object.keys(out.properties as object)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"type":"object","properties":{"__proto__":{"type":"string","maxLength":2}},"required":["__proto__"]}');
  });

  it('drops root definitions no ref reaches (through the ones reached), and keeps them all when refs resolve otherwise', () => {
    const chain = { type: 'object', $defs: { a: { type: 'object', properties: { p: { $ref: '#/$defs/b' } } }, b: { type: 'string' }, unused: { type: 'number' } }, properties: { x: { $ref: '#/$defs/a' } } };
    expect(Object.keys((compactSchema(chain, 't') as Schema).$defs as Schema)).toEqual(['a', 'b']);
    // A pointer deeper into a definition reaches it whole.
    const deep = { type: 'object', definitions: { a: { properties: { p: { type: 'string' } } }, unused: { type: 'number' } }, properties: { x: { $ref: '#/definitions/a/properties/p' } } };
    expect(Object.keys((compactSchema(deep, 't') as Schema).definitions as Schema)).toEqual(['a']);
    // No ref at all: every definition goes, and the section with them.
    expect(compactSchema({ type: 'object', $defs: { unused: { type: 'number' } }, properties: {} }, 't')).toEqual({ type: 'object', properties: {} });
    // Anchors, dynamic refs and refs that are not plain pointers to a root definition keep every definition.
    const anchored = { type: 'object', $defs: { a: { $anchor: 'A', type: 'string' }, unused: { type: 'number' } }, properties: { x: { $ref: '#A' } } };
    expect(compactSchema(anchored, 't')).toBe(anchored);
    const escaped = { type: 'object', $defs: { 'a~1b': { type: 'string' }, unused: { type: 'number' } }, properties: { x: { $ref: '#/$defs/a~1b' } } };
    expect(compactSchema(escaped, 't')).toBe(escaped);
    // Generated servers ship one shared $defs block in every tool: Notion's query keeps the one it uses.
    const notion = fixtureTools('developer-stack.json').find(({ id }) => id === 'notion:API-query-data-source')?.tool;
    expect(Object.keys((compactSchema(notion?.inputSchema, 'API-query-data-source') as Schema).$defs as Schema)).toEqual(['sortObject']);
  });

  it('keeps additionalProperties: true beside unevaluatedProperties', () => {
    const unevaluated = { type: 'object', allOf: [{ additionalProperties: true }], unevaluatedProperties: false };
    expect(compactSchema(unevaluated, 't')).toBe(unevaluated);
  });

  it('leaves a schema verbatim when a $ref points into something a rule rewrites', () => {
    const schema = { type: 'object', properties: { a: { type: 'object', additionalProperties: true, description: ' ' }, b: { $ref: '#/properties/a/additionalProperties' } } };
    expect(compactSchema(schema, 't')).toBe(schema);
    // A property named like a keyword is a name, not the keyword.
    const named = { type: 'object', properties: { description: { type: 'string', title: 'Description' }, copy: { $ref: '#/properties/description' } } };
    expect(compactSchema(named, 't')).toEqual({ type: 'object', properties: { description: { type: 'string' }, copy: { $ref: '#/properties/description' } } });
    // An absolute ref naming this schema by its $id is read against the root too.
    const absolute = { $id: 'https://example.com/s', type: 'object', properties: { a: { additionalProperties: true }, b: { $ref: 'https://example.com/s#/properties/a/additionalProperties' } } };
    expect(compactSchema(absolute, 't')).toBe(absolute);
    // Under a nested $id, "#/…" is relative to that subschema: refs there are not second-guessed.
    const nested = { type: 'object', title: 'T', properties: { a: { $id: 'https://example.com/a', type: 'object', title: 'A', properties: { x: { additionalProperties: true } }, allOf: [{ $ref: '#/properties/x/additionalProperties' }] } } };
    expect(compactSchema(nested, 't')).toBe(nested);
  });

  it('leaves a hostile 20,000-level schema verbatim without overflowing the stack', () => {
    const leaf: Schema = { type: 'string', title: 'leaf' };
    let deep: Schema = leaf;
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', description: `level ${i}`.repeat(20), properties: { next: deep } };
    const tool: ToolDefinition = { name: 'deep', description: 'x'.repeat(1_000), inputSchema: deep as ToolDefinition['inputSchema'] };
    const out = compactDefinition(tool);
    expect(out.inputSchema).toBe(tool.inputSchema);
    expect(out.description?.length).toBeLessThanOrEqual(TOOL_DESCRIPTION_MAX);
    // Just inside the bound it is compacted.
    let fits: Schema = { type: 'string', description: ' ' };
    for (let i = 0; i < MAX_SCHEMA_DEPTH - 1; i++) fits = { type: 'object', properties: { next: fits } };
    expect(compactSchema(fits, 'fits')).not.toBe(fits);
  });
});

describe('shortenText', () => {
  it('keeps short text whole, tidied', () => {
    expect(shortenText('  Terminate a process.\n\n                Use with caution.  ', 300)).toBe('Terminate a process.\n\nUse with caution.');
  });

  it('keeps the first paragraph, else whole sentences, else a cut at a word', () => {
    const long = 'First sentence, e.g. this one. Second sentence is here. Third one.';
    expect(shortenText(`${long}\n\n${'more '.repeat(100)}`, 100)).toBe(`${long} …`);
    expect(shortenText(long, 40)).toBe('First sentence, e.g. this one. …');
    const words = 'word '.repeat(50);
    const cut = shortenText(words, SCHEMA_DESCRIPTION_MAX);
    expect(cut.length).toBeLessThanOrEqual(SCHEMA_DESCRIPTION_MAX);
    expect(cut).toMatch(/^(word )+word …$/);
  });
});
