import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { curate } from '../../src/app/curate.js';
import { argumentProblems, riskyPattern } from '../../src/handlers/validate.js';
import { cleanupAfterEach, inMemoryClient, text } from '../harness/index.js';

/**
 * Adversarial pass (hadv3): execute_tool checks arguments against the upstream's JSON Schema in
 * the gateway's one event loop, so an upstream `pattern` that backtracks without bound (a sloppy
 * e-mail regex will do) let any client block every other: on the old main `^(a+)+$` against 27
 * characters took 11 s, doubling with each more. Such patterns are left to the upstream now.
 */

const cleanups = cleanupAfterEach();
const EVIL = '^(a+)+$';
const EMAIL = '^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$';

describe('riskyPattern', () => {
  it('refuses repeated groups that repeat or alternate inside, and backreferences', () => {
    for (const pattern of [EVIL, EMAIL, '(a|aa)*', '(\\w+\\s?)*$', '((ab)*)+', '(?:x+y?)+', '(a)\\1', 'x'.repeat(1_001)]) expect([pattern, riskyPattern(pattern)]).toEqual([pattern, true]);
  });
  it('runs ordinary patterns', () => {
    for (const pattern of ['^[a-z0-9-]+$', '^\\d{4}-\\d{2}-\\d{2}$', '^(?:[a-z]+)$', '(ab)+', '^[^()+*]+$', '^([A-Z]{2})-(\\d+)$', '^(?<year>\\d{4})$', '[(+*]+', '^(ab){3}$'])
      expect([pattern, riskyPattern(pattern)]).toEqual([pattern, false]);
  });
  it('safe patterns are still enforced; risky ones are left to the upstream', async () => {
    const schema = (pattern: string): ToolDefinition => ({ name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string', pattern } } } });
    expect(await argumentProblems(schema('^[a-z]+$'), { a: 'A1' })).toEqual(['a: must match pattern "^[a-z]+$"']);
    expect(await argumentProblems(schema(EVIL), { a: `${'a'.repeat(28)}b` })).toEqual([]);
  });
});

describe('through execute_tool', () => {
  it('a backtracking upstream pattern does not hold the gateway: the call reaches the upstream', async () => {
    const server = new Server({ name: 'forms', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'subscribe', description: 'Subscribe an address.', inputSchema: { type: 'object', properties: { handle: { type: 'string', pattern: EVIL } } } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'upstream answered' }] }));
    const curated = await curate(server, { name: 'forms', config: { groups: { forms: { servers: ['forms'] } }, modes: { work: { groups: ['forms'] } }, defaultMode: 'work' }, strategy: 'hybrid' });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'redos-test', cleanups });
    const result = (await client.callTool({ name: 'execute_tool', arguments: { name: 'subscribe', arguments: { handle: `${'a'.repeat(28)}b` } } })) as CallToolResult;
    expect(text(result)).toBe('upstream answered');
  });
});
