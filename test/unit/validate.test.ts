import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { argumentProblems, MAX_PROBLEM_CHARS, MAX_PROBLEMS, MAX_VALIDATED_SUBSCHEMAS } from '../../src/handlers/validate.js';

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

  it('compiles a schema that refers to one definition many times in time of its size, not of the refs times the definition', async () => {
    // ajv copied the definition into each of its 300 uses: this 16 KB schema took about 15 s to
    // compile (32 s on a loaded machine), and every client of the gateway waited (one event loop).
    const definition = { type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const schema = tool({ type: 'object', $defs: { definition }, properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`u${i}`, { $ref: '#/$defs/definition' }])) });
    const started = performance.now();
    expect(await argumentProblems(schema, { u0: { p1: 1 }, u299: { p299: 'ok' } })).toEqual(['u0.p1: must be string']);
    const ms = performance.now() - started;
    // Bounds here sit between the fixed code on a loaded 2-core machine (this one: up to 790 ms with
    // three CPU hogs beside a test run, a third of 3 s) and the old code on an idle one.
    expect(ms, `compiling 300 refs to a 300-property definition took ${Math.round(ms)} ms (inlined: about 15,000)`).toBeLessThan(5_000);
  });

  it(`leaves a schema of more than ${MAX_VALIDATED_SUBSCHEMAS} subschemas to the upstream, as one it cannot compile`, async () => {
    // 40,000 properties (1 MB, within an upstream definition's bound) took 7.4 s to compile.
    const huge = tool({ type: 'object', properties: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`p${i}`, { type: 'string' }])) });
    const started = performance.now();
    expect(await argumentProblems(huge, { p0: 1 })).toEqual([]);
    const ms = performance.now() - started;
    // Up to 270 ms on a loaded 2-core machine (three CPU hogs beside a test run).
    expect(ms, `a 40,000-property schema took ${Math.round(ms)} ms (compiled: about 7,400)`).toBeLessThan(2_500);
    // The root, its `properties` and one object per property: exactly the bound.
    const largest = tool({ type: 'object', properties: Object.fromEntries(Array.from({ length: MAX_VALIDATED_SUBSCHEMAS - 2 }, (_, i) => [`p${i}`, { type: 'string' }])) });
    expect(await argumentProblems(largest, { p0: 1 })).toEqual(['p0: must be string']);
  });

  it('lets go of the schemas of tools that are gone (an upstream re-listing makes new ones)', async () => {
    // One ajv instance kept every schema it compiled and its code: 2,000 re-listed schemas of 200
    // properties kept 228 MB for the gateway's life.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const made = (i: number) => tool({ type: 'object', properties: { [`gone_${i}`]: { type: 'number' } } });
    const refs: Array<WeakRef<object>> = [];
    for (let i = 0; i < 600; i++) {
      const definition = made(i);
      expect(await argumentProblems(definition, { [`gone_${i}`]: 'x' })).toEqual([`gone_${i}: must be number`]);
      if (i < 100) refs.push(new WeakRef(definition.inputSchema));
    }
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const kept = refs.filter((ref) => ref.deref() !== undefined).length;
    expect(kept, `${kept} of the first 100 compiled schemas still held after 500 more`).toBe(0);
  });

  it('checks unique items in time linear in the arguments: 50,000 objects at once, duplicates named as ajv names them', async () => {
    // ajv compared every pair of items not typed as scalars: 20,000 objects took 14 s, and a
    // 4 MB body holds 500,000 (hours of the gateway's one event loop).
    const unique = tool({ type: 'object', properties: { rows: { type: 'array', uniqueItems: true, items: { type: 'object' } }, any: { type: 'array', uniqueItems: true } } });
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, tags: ['a', i % 7] }));
    const started = performance.now();
    expect(await argumentProblems(unique, { rows, any: rows.map((row) => row.id) })).toEqual([]);
    const ms = performance.now() - started;
    // Up to 1,000 ms on a loaded 2-core machine (three CPU hogs beside a test run): a third of the 3 s this had.
    expect(ms, `50,000 unique objects took ${Math.round(ms)} ms (pairwise: about 90,000)`).toBeLessThan(10_000);
    expect(await argumentProblems(unique, { rows: [{ a: 1, b: [2, { c: 3 }] }, { x: 1 }, { b: [2, { c: 3 }], a: 1 }] })).toEqual(['rows: must NOT have duplicate items (items ## 0 and 2 are identical)']);
    expect(await argumentProblems(unique, { any: [1, '1', [1], { 1: 1 }, null, 'null', true] })).toEqual([]);
    expect(await argumentProblems(unique, { any: [0, -0] })).toEqual(['any: must NOT have duplicate items (items ## 0 and 1 are identical)']);
    expect(await argumentProblems(tool({ type: 'object', properties: { free: { type: 'array', uniqueItems: false } } }), { free: [1, 1] })).toEqual([]);
  });

  it('stops a validation whose work grows without bound: a recursive schema whose branches all recurse, and a 16-level argument', async () => {
    // Each level's three anyOf branches recurse into the next (ajv's allErrors goes on past a
    // failed `required`): 3^depth checks, so a 200-byte argument held the gateway's one event loop
    // 18.7 s at 14 levels and hours at 20 (fails before: minutes here). Past its step budget
    // validation gives up and the arguments go to the upstream, which validates them itself.
    const node = (need: string) => ({ type: 'object', properties: { a: { $ref: '#/$defs/n' } }, required: [need] });
    const branching = tool({ type: 'object', properties: { a: { $ref: '#/$defs/n' } }, $defs: { n: { anyOf: [node('x'), node('y'), node('z')] } } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 16; i++) deep = { a: deep };
    const started = performance.now();
    expect(await argumentProblems(branching, deep)).toEqual([]);
    const ms = performance.now() - started;
    expect(ms, `a 16-level argument took ${Math.round(ms)} ms (unbounded: about 170,000)`).toBeLessThan(5_000);
    // The same schema still checks what it can check within the budget.
    expect(await argumentProblems(branching, { a: { a: 'no' } })).not.toEqual([]);
    // A recursive schema with one path a level (a tree of fields) checks arguments of any depth.
    const tree = tool({ type: 'object', properties: { fields: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/properties/fields/items' } } }, required: ['name'] } } } });
    let fields: Record<string, unknown> = { name: 'leaf', children: [{}] };
    for (let i = 0; i < 12; i++) fields = { name: `level${i}`, children: [fields] };
    const problems = await argumentProblems(tree, { fields: [fields] });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/children\[0\]\.name: required property is missing$/);
  });

  it('counts pattern tests in the same budget: 1,000 patternProperties over an argument of 50,000 keys', async () => {
    // Each key is tested against each pattern: 50 million linear-time tests held the event loop
    // 15 s (fails before). Past the budget the arguments go to the upstream.
    const patterns = tool({ type: 'object', patternProperties: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`^p${i}_[a-z]+$`, { type: 'string' }])) });
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 1]));
    const started = performance.now();
    expect(await argumentProblems(patterns, keys)).toEqual([]);
    const ms = performance.now() - started;
    expect(ms, `50,000 keys x 1,000 patterns took ${Math.round(ms)} ms (unbounded: about 15,000)`).toBeLessThan(5_000);
    // A few keys are still checked.
    expect(await argumentProblems(patterns, { p7_abc: 1, k1: 1 })).toEqual(['p7_abc: must be string']);
  });

  it('checks an enum in time of the value, not of the enum: 40,000 allowed values over 20,000 items', async () => {
    // ajv compared each value with every allowed one: 40,000 values (within an upstream
    // definition's bounds) over 10,000 items took 4.3 s, over the 200,000 a body holds about 85 s.
    const allowed = Array.from({ length: 40_000 }, (_, i) => `v${i}`);
    const big = tool({ type: 'object', properties: { v: { type: 'array', items: { enum: allowed } } } });
    const started = performance.now();
    expect(await argumentProblems(big, { v: new Array(20_000).fill('v39999') })).toEqual([]);
    const ms = performance.now() - started;
    expect(ms, `20,000 items of a 40,000-value enum took ${Math.round(ms)} ms (pairwise: about 8,500)`).toBeLessThan(3_000);
    // Equal as JSON, whatever the key order; 1 is not "1"; the answer names the allowed values as before.
    const mixed = tool({ type: 'object', properties: { m: { enum: [1, 'two', { a: 1, b: [2] }, null] } } });
    expect(await argumentProblems(mixed, { m: { b: [2], a: 1 } })).toEqual([]);
    expect(await argumentProblems(mixed, { m: null })).toEqual([]);
    expect(await argumentProblems(mixed, { m: '1' })).toEqual(['m: must be one of 1, "two", {"a":1,"b":[2]}, null']);
    expect((await argumentProblems(big, { v: ['nope'] }))[0]).toMatch(/^v\[0\]: must be one of "v0", "v1", .*\(40000 values\)$/);
  });

  it('checks required names within the step budget: 40,000 required names over 300 empty objects', async () => {
    // ajv checked each name of each object and, with allErrors, kept an error for each missing one:
    // a 900-byte argument of 300 empty objects took 17.8 s and 3.4 GB (fails before).
    const wide = tool({ type: 'object', properties: { v: { type: 'array', items: { type: 'object', required: Array.from({ length: 40_000 }, (_, i) => `f${i}`) } } } });
    const started = performance.now();
    expect(await argumentProblems(wide, { v: Array.from({ length: 300 }, () => ({})) })).toEqual([]);
    const ms = performance.now() - started;
    expect(ms, `300 empty objects of 40,000 required names took ${Math.round(ms)} ms (unbounded: about 17,800)`).toBeLessThan(5_000);
    // Missing names are still named, each once, as ajv names them.
    expect(await argumentProblems(sum, { a: 1 })).toEqual(['b: required property is missing']);
    expect(await argumentProblems(tool({ type: 'object', required: ['x', 'x', 'y'] }), { y: 0 })).toEqual(['x: required property is missing']);
  });

  it('keeps errors of failing checks in time linear in their number: 5,000 objects missing 20 names, 50,000 items outside an enum', async () => {
    // ajv appends a keyword function's errors by copying all errors so far: 5,000 failing objects
    // took 8.8 s (fails before), 20,000 over 50 s. The first ones are named in full, then counted.
    const rows = tool({ type: 'object', properties: { v: { type: 'array', items: { type: 'object', required: Array.from({ length: 20 }, (_, i) => `f${i}`) } } } });
    const letters = tool({ type: 'object', properties: { v: { type: 'array', items: { enum: ['a', 'b'] } } } });
    const started = performance.now();
    const missing = await argumentProblems(rows, { v: Array.from({ length: 5_000 }, () => ({})) });
    const outside = await argumentProblems(letters, { v: new Array(50_000).fill('z') });
    const ms = performance.now() - started;
    expect(ms, `5,000 failing objects and 50,000 failing items took ${Math.round(ms)} ms (copied: about 9,000 and more)`).toBeLessThan(5_000);
    expect(missing[0]).toBe('v[0].f0: required property is missing');
    expect(missing.at(-1)).toMatch(/^… and \d+ more problems/);
    expect(outside[0]).toBe('v[0]: must be one of "a", "b"');
    expect(outside.at(-1)).toBe('… and 49980 more problems (fix these first; describe_tools gives the schema)');
  });
});
