import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import type { RcConfig } from '../../src/config/schema.js';
import { curate } from '../../src/app/curate.js';
import { ModernRequest } from '../../src/callers/request.js';
import { countToolTokens } from '../../src/util/tokens.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, inMemoryClient, text, toolList } from '../harness/index.js';

const LONG = `Look up one record by id.\n\n${'Records are kept for ninety days, then archived; archived ones need the archive flag. '.repeat(8)}`;

/** The upstream's definition, as it lists it: a long description and a noisy, strict schema. */
const LOOKUP: ToolDefinition = {
  name: 'lookup_record',
  description: LONG,
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: 'lookup_recordArguments',
    properties: {
      id: { type: 'string', title: 'Id', pattern: '^r-[0-9]+$', description: 'Record id, like r-42.' },
      archive: { type: 'boolean', default: false, description: '' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

/** A low-level SDK server (no schema rewriting) whose tool answers with the arguments it received. */
function recordServer(): Server {
  const server = new Server({ name: 'records', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [LOOKUP] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
  return server;
}

const rc = (extra: RcConfig = {}): RcConfig => ({ groups: { records: { servers: ['records'] } }, modes: { records: { groups: ['records'] } }, defaultMode: 'records', ...extra });

const cleanups = cleanupAfterEach();

async function session(config: RcConfig, strategy?: 'hybrid' | 'proxy') {
  const curated = await curate(recordServer(), { config, strategy });
  cleanups.push(() => curated.close());
  let front!: Awaited<ReturnType<typeof curated.connect>>;
  const client = await inMemoryClient(async (t) => (front = await curated.connect(t)), { name: 'compact-test', cleanups });
  return { client, gateway: curated.gateway, front };
}

describe('compact definitions where clients receive tool definitions', () => {
  it('lists the compact definition by default (2025 session and 2026-07-28 view), calls pass through verbatim', async () => {
    const { client, gateway, front } = await session(rc());
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'lookup_record');
    expect(listed?.description).toBe('Look up one record by id. …');
    expect(listed?.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { id: { type: 'string', pattern: '^r-[0-9]+$', description: 'Record id, like r-42.' }, archive: { type: 'boolean', default: false } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(listed?.annotations).toEqual({ readOnlyHint: true });
    // A 2026-07-28 request's view lists the same object.
    const view = new ModernRequest(gateway, {}, { mode: 'records', fixedMode: undefined, boundary: boundaryOf({}) });
    expect(toolList(view).find((tool) => tool.name === 'lookup_record')).toBe(gateway.catalog.byId.get('records:lookup_record')?.listed);
    // The upstream receives the arguments as sent.
    const args = { id: 'r-7', archive: true };
    expect(JSON.parse(text(await client.callTool({ name: 'lookup_record', arguments: args })))).toEqual(args);
    // Token counts are what the client received: focus_mode status against the list sent (which
    // the client got whole; its SDK only reorders schema keys).
    const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })).structuredContent as { tokens: number; totalTokens: number };
    const sent = toolList(front);
    expect((await client.listTools()).tools).toEqual(sent);
    expect(status.tokens).toBe(sent.reduce((sum, tool) => sum + countToolTokens(tool), 0));
    expect(status.totalTokens).toBe(countToolTokens(LOOKUP));
    // search_tools with detail "schema" returns the full text and schema.
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'lookup record', detail: 'schema' } })).structuredContent as { tools: Array<Record<string, unknown>> };
    expect(found.tools[0]).toMatchObject({ name: 'lookup_record', description: LONG, inputSchema: LOOKUP.inputSchema });
  });

  it('describe_tools returns the verbatim definition, and execute_tool validates with it', async () => {
    const { client } = await session(rc(), 'proxy');
    const described = JSON.parse(text(await client.callTool({ name: 'describe_tools', arguments: { names: ['lookup_record'] } }))) as { tools: Array<Record<string, unknown>> };
    expect(described.tools[0]).toMatchObject({ name: 'lookup_record', description: LONG, inputSchema: LOOKUP.inputSchema });
    const refused = await client.callTool({ name: 'execute_tool', arguments: { name: 'lookup_record', arguments: { id: 'nope' } } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('id: must match pattern');
  });

  it('passes the upstream definition through under definitions: verbatim', async () => {
    const { client, gateway } = await session(rc({ definitions: 'verbatim' }));
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'lookup_record');
    expect(listed).toEqual(LOOKUP);
    expect(gateway.catalog.byId.get('records:lookup_record')?.tokens).toBe(countToolTokens(LOOKUP));
    const resource = await client.readResource({ uri: 'lazytools://groups/records' });
    expect((JSON.parse((resource.contents[0] as { text: string }).text) as { tools: unknown[] }).tools).toEqual([LOOKUP]);
  });
});
