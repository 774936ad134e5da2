import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { PAGE_MAX_BYTES } from '../../src/handlers/paging.js';
import { MAX_DEFINITION_BYTES, definitionTooBig } from '../../src/util/bounds.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * One upstream definition of any size was taken whole (descriptions are cut, but not a title, a
 * property's description, `_meta` or `outputSchema`), and every answer that carries it is at
 * least its size: a 12 MB title made each tools/list page holding it, describe_tools and
 * search_tools {detail: "schema"} answer 12 MB, over the 10 MiB an SDK stdio client takes before
 * it closes the connection (every server's tools gone for that client). A definition over
 * MAX_DEFINITION_BYTES serialized is left out now, with a warning, like one nested too deep.
 */

const cleanups = cleanupAfterEach();
const huge = 'Zork '.repeat(500_000); // 2.5 MB
const small = (name: string, extra: object) => ({ name, description: `Ship the ${name}.`, inputSchema: { type: 'object', properties: {} }, ...extra });
const TOOLS = [
  small('parcel', {}),
  small('title_tool', { title: huge }),
  small('annotated_tool', { annotations: { title: huge } }),
  small('meta_tool', { _meta: { note: huge } }),
  small('output_tool', { outputSchema: { type: 'object', description: huge } }),
  { name: 'property_tool', description: 'Ship the crate.', inputSchema: { type: 'object', properties: { a: { type: 'string', description: huge } } } },
  // A long description alone is cut (16 KiB), never a reason to leave the tool out.
  small('long_description', { description: huge }),
  // Escaped characters count as they are sent: 200,000 control characters are 1.2 MB of JSON.
  small('escaped_title', { title: '\u0001'.repeat(200_000) }),
];

async function connect(warnings: string[]) {
  const server = new Server({ name: 'bulky', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS as never }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: 'brief' }, { name: 'essay', description: huge }] }));
  const logger = { info: () => {}, warn: (message: string) => void warnings.push(message), error: () => {} };
  const curated = await curate(server, { config: { definitions: 'verbatim' }, strategy: 'proxy', logger: logger as never });
  cleanups.push(() => curated.close());
  return inMemoryClient((t) => curated.connect(t), { name: 'definition-size', cleanups });
}

describe('upstream definitions have a bounded size', () => {
  it('a tool or prompt over the bound is left out with a warning; every answer stays near the page bound', async () => {
    const warnings: string[] = [];
    const client = await connect(warnings);
    const alone = await client.callTool({ name: 'describe_tools', arguments: { names: ['title_tool'] } });
    expect(Buffer.byteLength(JSON.stringify(alone))).toBeLessThan(PAGE_MAX_BYTES);
    const names = TOOLS.map((tool) => tool.name);
    const described = await client.callTool({ name: 'describe_tools', arguments: { names } });
    expect(Buffer.byteLength(JSON.stringify(described))).toBeLessThan(PAGE_MAX_BYTES + 64 * 1024);
    const text = JSON.parse((described.content as Array<{ text: string }>)[0]?.text ?? '{}') as { tools: Array<{ name: string; error?: string }> };
    const known = text.tools.filter((tool) => tool.error === undefined).map((tool) => tool.name);
    expect(known.sort()).toEqual(['long_description', 'parcel']);
    const searched = await client.callTool({ name: 'search_tools', arguments: { query: 'ship zork', detail: 'schema' } });
    expect(Buffer.byteLength(JSON.stringify(searched))).toBeLessThan(PAGE_MAX_BYTES + 64 * 1024);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['brief']);
    for (const name of ['title_tool', 'annotated_tool', 'meta_tool', 'output_tool', 'property_tool', 'escaped_title', 'essay'])
      expect(warnings.some((warning) => warning.includes(name) && warning.includes('bytes'))).toBe(true);
  });

  it('definitionTooBig measures the JSON a definition is sent as', () => {
    expect(definitionTooBig(TOOLS[0])).toBeUndefined();
    expect(definitionTooBig({ name: 'x', title: 'a'.repeat(MAX_DEFINITION_BYTES - 100) })).toBeUndefined();
    expect(definitionTooBig({ name: 'x', title: 'a'.repeat(MAX_DEFINITION_BYTES) })).toMatch(/bytes/);
    // Keys count too, and multi-byte characters by their UTF-8 bytes.
    expect(definitionTooBig({ [`k${'é'.repeat(MAX_DEFINITION_BYTES / 2)}`]: 1 })).toMatch(/bytes/);
    expect(definitionTooBig({ list: new Array(40_000).fill('abcdefghijklmnopqrstuvwxyz') })).toMatch(/bytes/);
  });
});
