import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { curate } from '../../src/front/curate.js';
import { argumentProblems } from '../../src/handlers/validate.js';
import { ecmaClasses, linearRegExp } from '../../src/util/linear-regexp.js';
import { cleanupAfterEach, inMemoryClient, text } from '../harness/index.js';

/**
 * execute_tool checks arguments against the upstream's JSON Schema in the gateway's one event
 * loop, so an upstream `pattern` that backtracks without bound let any client block every other.
 * A guard that looked at the pattern missed exact-count repeats (`^(?:\w+){8}$`: 9.8 s on 47
 * characters) and adjacent quantifiers (`^(?:a+){12}$`: 88 s); patterns now run on a linear-time
 * engine, with ECMAScript's meaning, and what it cannot run is left to the upstream.
 */

const cleanups = cleanupAfterEach();
const EVIL = '^(a+)+$';
const EMAIL = '^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$';
const schema = (pattern: string): ToolDefinition => ({ name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string', pattern } } } });
const problem = (pattern: string) => [`a: must match pattern "${pattern}"`];

describe('patterns run in linear time', () => {
  it('enforces patterns that backtrack without bound in V8 (nested, exact-count and adjacent repeats), answering at once', async () => {
    for (const [pattern, input] of [
      [EVIL, `${'a'.repeat(40)}b`],
      [EMAIL, `${'a'.repeat(40)}@${'b.'.repeat(20)}!`],
      ['^(?:\\w+){8}$', `${'a'.repeat(47)}!`],
      ['^(?:a+){12}$', `${'a'.repeat(40)}b`],
      ['^\\w+\\w+\\w+\\w+\\w+\\w+\\w+\\w+$', `${'a'.repeat(60)}!`],
      ['\\d+\\.\\d+', '1'.repeat(100_000)],
    ] as const)
      expect(await argumentProblems(schema(pattern), { a: input }), pattern).toEqual(problem(pattern));
    expect(await argumentProblems(schema('^(?:\\w+){8}$'), { a: 'a'.repeat(47) })).toEqual([]);
  });

  it('keeps what ECMAScript means by \\s, \\S and .', async () => {
    expect(await argumentProblems(schema('^\\s*$'), { a: '\u00a0\u3000 ' })).toEqual([]);
    expect(await argumentProblems(schema('^\\S+$'), { a: 'a\u00a0b' })).toEqual(problem('^\\S+$'));
    expect(await argumentProblems(schema('^[^\\s@]+@x$'), { a: '\u2028@x' })).toEqual(problem('^[^\\s@]+@x$'));
    expect(await argumentProblems(schema('^.+$'), { a: 'a\rb' })).toEqual(problem('^.+$'));
    expect(await argumentProblems(schema('^[a-z0-9_-]{1,64}$'), { a: 'my_label-1' })).toEqual([]);
    expect(await argumentProblems(schema('^\\u00e9\\/x$'), { a: 'é/x' })).toEqual([]);
  });

  it('leaves to the upstream what it cannot run in linear time (backreferences, lookaround) or what is over 1,000 characters', async () => {
    for (const pattern of ['^(a)\\1$', '^(?!.*x).*$', 'x'.repeat(1_001)]) expect(await argumentProblems(schema(pattern), { a: 'y' }), pattern.slice(0, 20)).toEqual([]);
  });

  it('writes \\s, \\S and . as the classes ECMAScript means, inside classes too', () => {
    expect(ecmaClasses('a.b\\.c')).toBe('a[^\\n\\r\\u2028\\u2029]b\\.c');
    expect(ecmaClasses('[\\s@]')).toMatch(/^\[\\t\\n\\v\\f\\r \\u00a0.*@\]$/);
    expect(() => ecmaClasses('[\\S]')).toThrow();
    expect(linearRegExp(RE2JS, '^[.]$').test('.')).toBe(true);
    expect(linearRegExp(RE2JS, '^[.]$').test('x')).toBe(false);
    // Named like a RegExp: ajv shares compiled patterns by that name.
    expect(String(linearRegExp(RE2JS, '^a$'))).not.toBe(String(linearRegExp(RE2JS, '^b$')));
  });
});

describe('through execute_tool', () => {
  it('an exact-count repeat that held V8 for minutes is answered at once: the call is refused with the pattern', async () => {
    const server = new Server({ name: 'forms', version: '1.0.0' }, { capabilities: { tools: {} } });
    const pattern = '^(?:a+){12}$';
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'subscribe', description: 'Subscribe an address.', inputSchema: { type: 'object', properties: { handle: { type: 'string', pattern } } } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'upstream answered' }] }));
    const curated = await curate(server, { name: 'forms', config: { groups: { forms: { servers: ['forms'] } }, modes: { work: { groups: ['forms'] } }, defaultMode: 'work' }, strategy: 'hybrid' });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'redos-test', cleanups });
    const refused = (await client.callTool({ name: 'execute_tool', arguments: { name: 'subscribe', arguments: { handle: `${'a'.repeat(40)}b` } } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(`handle: must match pattern "${pattern}"`);
    const answered = (await client.callTool({ name: 'execute_tool', arguments: { name: 'subscribe', arguments: { handle: 'a'.repeat(40) } } })) as CallToolResult;
    expect(text(answered)).toBe('upstream answered');
  });
});
