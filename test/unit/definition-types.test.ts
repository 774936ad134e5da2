import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * A client's SDK validates a whole list answer, and the gateway's lists merge every server's: on
 * the old main one upstream tool whose `annotations` was a string (or `readOnlyHint` "true",
 * `outputSchema` 5, `icons` "x", `_meta` "x", `execution` "x"), one prompt whose `arguments` was
 * not an array, or one resource without a string `name` made every client's tools/list (or
 * prompts/list, resources/list) fail: every tool of every server gone. A lock carrying such items
 * did the same before the servers started. Each such item is left out with a warning now.
 */

const cleanups = cleanupAfterEach();
const good = { name: 'read_record', description: 'Read a record.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
const BAD_TOOLS = [
  { ...good, name: 'annotations_string', annotations: 'x' },
  { ...good, name: 'hint_string', annotations: { readOnlyHint: 'true' } },
  { ...good, name: 'output_number', outputSchema: 5 },
  { ...good, name: 'icons_string', icons: 'x' },
  { ...good, name: 'icon_without_src', icons: [{ mimeType: 'image/png' }] },
  { ...good, name: 'meta_string', _meta: 'x' },
  { ...good, name: 'execution_string', execution: 'x' },
  { ...good, name: 'task_support_odd', execution: { taskSupport: 'sometimes' } },
  { ...good, name: 'properties_array', inputSchema: { type: 'object', properties: [1] } },
  { ...good, name: 'required_numbers', inputSchema: { type: 'object', required: [1] } },
];
const PROMPTS = [{ name: 'summarize' }, { name: 'arguments_string', arguments: 'x' }, { name: 'argument_unnamed', arguments: [{ required: true }] }];
const RESOURCES = [{ uri: 'note://1', name: 'one' }, { uri: 'note://2', name: 5 }, { uri: 'note://3' }];
const TEMPLATES = [{ uriTemplate: 'note://{id}', name: 'note' }, { uriTemplate: 'bad://{id}' }];

function oddServer(tools: unknown[]): Server {
  const app = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {}, resources: {} } });
  app.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }));
  app.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS as never }));
  app.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES as never }));
  app.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES as never }));
  app.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return app;
}

describe('definitions of the wrong types cost only themselves', () => {
  it('from a live upstream: clients list the good tools, prompts, resources and templates; the rest is warned about', async () => {
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => void warnings.push(message), error: (message: string) => void warnings.push(message) };
    const connect = async (tools: unknown[]) => {
      const curated = await curate(oddServer(tools), { name: 'odd', config: { defaultMode: 'all' }, strategy: 'hybrid', logger });
      cleanups.push(() => curated.close());
      return inMemoryClient((t) => curated.connect(t), { name: 'types', cleanups });
    };
    const tools = (await (await connect([good, ...BAD_TOOLS])).listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('read_record');
    for (const bad of BAD_TOOLS) expect(tools).not.toContain(bad.name);
    // An upstream's warnings are rate-limited (10 a second): the prompts and resources on a server of their own.
    const client = await connect([good]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['summarize']);
    expect((await client.listResources()).resources.map((resource) => resource.uri).filter((uri) => !uri.startsWith('lazytools:'))).toEqual(['note://1']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate).filter((uri) => !uri.startsWith('lazytools:'))).toEqual(['note://{id}']);
    const all = warnings.join("\n");
    for (const bad of BAD_TOOLS) expect(all).toContain(`tool "${bad.name}" skipped`);
    expect(all).toContain('tool "annotations_string" skipped: annotations: expected an object');
    expect(all).toMatch(/prompt "arguments_string" skipped: arguments: /);
    expect(all).toMatch(/resource "note:\/\/2" skipped: name: /);
    expect(all).toMatch(/resource template "bad:\/\/\{id\}" skipped: name: /);
  });

  it('from a lock: the same items are left out, each named with its key path', () => {
    const warnings: string[] = [];
    const [entry] = parseCatalog({ servers: { odd: { tools: [good, ...BAD_TOOLS], prompts: PROMPTS, resources: RESOURCES, resourceTemplates: TEMPLATES } } }, 'lazytools.lock.json', warnings);
    expect(entry?.tools.map((tool) => tool.name)).toEqual(['read_record']);
    expect(entry?.profile?.prompts?.map((prompt) => prompt.name)).toEqual(['summarize']);
    expect(entry?.profile?.resources?.map((resource) => resource.uri)).toEqual(['note://1']);
    expect(entry?.profile?.resourceTemplates?.map((template) => template.uriTemplate)).toEqual(['note://{id}']);
    expect(warnings).toContain('lazytools.lock.json: servers.odd.tools[1].annotations ("annotations_string"): expected an object; the tool is left out');
    expect(warnings.some((line) => line.startsWith('lazytools.lock.json: servers.odd.prompts[1]: arguments: '))).toBe(true);
    expect(warnings).toHaveLength(BAD_TOOLS.length + 2 + 2 + 1);
  });
});
