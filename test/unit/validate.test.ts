import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { argumentProblems } from '../../src/handlers/validate.js';

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
});
