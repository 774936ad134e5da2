import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { argumentProblems, MAX_PROBLEM_CHARS, MAX_PROBLEMS } from '../../src/handlers/validate.js';

const tool = (inputSchema: Record<string, unknown>): ToolDefinition => ({ name: 't', inputSchema: inputSchema as ToolDefinition['inputSchema'] });

const sum = tool({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });

describe('execute_tool argument validation', () => {
  it('accepts arguments that fit', async () => {
    expect(await argumentProblems(sum, { a: 1, b: 2 })).toEqual([]);
    expect(await argumentProblems(tool({ type: 'object' }), {})).toEqual([]);
  });

  it('names each failing field, one line each, sorted', async () => {
    expect(await argumentProblems(sum, { a: 'two' })).toEqual(['a: must be number', 'b: required property is missing']);
    expect(await argumentProblems(sum, {})).toEqual(['a: required property is missing', 'b: required property is missing']);
  });

  it('names nested fields and array items by path', async () => {
    const schema = tool({
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        items: { type: 'array', items: { type: 'number' } },
      },
    });
    expect(await argumentProblems(schema, { owner: { name: 3 }, items: [1, 'x', 3, 'y'] })).toEqual(['items[1]: must be number', 'items[3]: must be number', 'owner.name: must be string']);
    expect(await argumentProblems(schema, { owner: {} })).toEqual(['owner.name: required property is missing']);
  });

  it('unescapes JSON Pointer segments in property names', async () => {
    const schema = tool({ type: 'object', properties: { 'a/b': { type: 'number' }, 'c~d': { type: 'number' } } });
    expect(await argumentProblems(schema, { 'a/b': 'x', 'c~d': 'y' })).toEqual(['a/b: must be number', 'c~d: must be number']);
  });

  it('names unknown properties and the allowed values of an enum', async () => {
    const schema = tool({ type: 'object', properties: { mode: { enum: ['fast', 'slow'] } }, additionalProperties: false });
    expect(await argumentProblems(schema, { mode: 'medium', extra: 1 })).toEqual(['extra: unknown property', 'mode: must be one of "fast", "slow"']);
  });

  it('names the arguments themselves when they are not an object', async () => {
    expect(await argumentProblems(sum, 'x')).toEqual(['(arguments): must be object']);
    expect(await argumentProblems(tool({ type: 'object', properties: {}, enum: [{}] }), { a: 1 })).toEqual(['(arguments): must be one of {}']);
  });

  it('reports each problem once', async () => {
    const schema = tool({ type: 'object', properties: { a: { type: 'number', minimum: 0 } }, allOf: [{ required: ['b'] }, { required: ['b'] }] });
    expect(await argumentProblems(schema, { a: -1 })).toEqual(['a: must be >= 0', 'b: required property is missing']);
  });

  it('does not enforce a schema it cannot compile (the upstream still validates)', async () => {
    const broken = tool({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } });
    expect(await argumentProblems(broken, { a: 'anything' })).toEqual([]);
    expect(await argumentProblems(tool({ type: 'no-such-type' }), 1)).toEqual([]);
  });

  it('stays bounded whatever the arguments or the schema: at most MAX_PROBLEMS lines, each cut, the rest counted', async () => {
    // An argument of 200,000 wrong items answered 200,000 lines (a million: 30 MB); an upstream
    // enum of 40,000 values, or 40,000 required properties, several MB; a 1 MB key, 1 MB.
    const list = tool({ type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } });
    const values = Array.from({ length: 40_000 }, (_, i) => `value-${i}-${'x'.repeat(200)}`);
    const cases: Array<[ToolDefinition, unknown]> = [
      [list, { items: new Array(200_000).fill(1) }],
      [tool({ type: 'object', properties: { v: { enum: values } } }), { v: 'nope' }],
      [tool({ type: 'object', required: Array.from({ length: 40_000 }, (_, i) => `field_${i}_${'y'.repeat(100)}`) }), {}],
      [tool({ type: 'object', additionalProperties: false }), { ['k'.repeat(1_000_000)]: 1 }],
    ];
    for (const [schema, args] of cases) {
      const problems = await argumentProblems(schema, args);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.length).toBeLessThanOrEqual(MAX_PROBLEMS + 1);
      for (const problem of problems) expect(problem.length).toBeLessThanOrEqual(MAX_PROBLEM_CHARS + 60);
    }
    const items = await argumentProblems(list, { items: new Array(200_000).fill(1) });
    expect(items.slice(0, 2)).toEqual(['items[0]: must be string', 'items[10]: must be string']);
    expect(items.at(-1)).toBe('… and 199980 more problems (fix these first; describe_tools gives the schema)');
    expect((await argumentProblems(cases[1]![0], { v: 'nope' }))[0]).toMatch(/^v: must be one of "value-0-x+… \[value cut by lazytools at 60 characters\], … \(40000 values\)$/);
  });
});
