import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { Strategy } from '../../src/config/schema.js';
import { servedStrategy } from '../../src/focus/scope.js';
import { Gateway } from '../../src/app/gateway.js';
import { countToolTokens } from '../../src/util/tokens.js';
import { EventCounter, referenceRc, text, inMemoryClient } from '../harness/index.js';

const tokensOf = (tools: ToolDefinition[]) => tools.reduce((sum, tool) => sum + countToolTokens(tool), 0);

async function connect(gateway: Gateway, options: { strategy?: Strategy; client?: string } = {}) {
  const counter = new EventCounter();
  const client = await inMemoryClient((t) => gateway.createSession({ strategy: options.strategy }).connect(t), {
    name: options.client ?? 'strategy-test',
    prepare: (c) => c.setNotificationHandler(ToolListChangedNotificationSchema, counter.hit),
  });
  return { client, counter };
}

describe('strategies through the gateway with real reference servers', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    const { file } = referenceRc({ discovery: { maxEnabled: 2 } });
    const loaded = await loadConfig({ file });
    gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('notify lists focus_mode, search_tools and the mode', async () => {
    const { client } = await connect(gateway, { strategy: 'notify' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.slice(0, 2)).toEqual(['focus_mode', 'search_tools']);
    expect(names).not.toContain('execute_tool');
    expect(names).toContain('read_text_file');
  });

  it('hybrid adds execute_tool', async () => {
    const { client } = await connect(gateway, { strategy: 'hybrid' });
    expect((await client.listTools()).tools.map((t) => t.name).slice(0, 3)).toEqual(['focus_mode', 'search_tools', 'execute_tool']);
  });

  it('proxy serves a constant list of meta-tools within 1,000 tokens', async () => {
    const { client } = await connect(gateway, { strategy: 'proxy' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['focus_mode', 'search_tools', 'describe_tools', 'execute_tool', 'list_tool_groups']);
    expect(tokensOf(tools as ToolDefinition[])).toBeLessThanOrEqual(1000);
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'all' } });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
  });

  it('auto picks by client name', async () => {
    expect(servedStrategy('auto', 'legacy', 'claude-ai')).toBe('proxy');
    expect(servedStrategy('auto', 'legacy', 'cursor-vscode')).toBe('proxy');
    expect(servedStrategy('auto', 'legacy', 'Visual Studio Code')).toBe('notify');
    expect(servedStrategy('auto', 'legacy', 'claude-code')).toBe('hybrid');
    expect(servedStrategy('auto', 'legacy', 'something-new')).toBe('hybrid');
    const { client } = await connect(gateway, { strategy: 'auto', client: 'claude-ai' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_tools');
    const vscode = await connect(gateway, { strategy: 'auto', client: 'Visual Studio Code' });
    expect((await vscode.client.listTools()).tools.map((t) => t.name)).not.toContain('execute_tool');
  });

  it('finds a tool outside the mode with search_tools and runs it with execute_tool', async () => {
    const { client } = await connect(gateway, { strategy: 'hybrid' });
    // A mode that holds none of these servers' tools (development's typical tasks now bring get-sum in).
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'sales' } });
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'sum of two numbers' } })) as CallToolResult;
    const hits = (found.structuredContent as { tools: Array<{ name: string; inMode: boolean }> }).tools;
    expect(hits[0]).toMatchObject({ name: 'get-sum', inMode: false });
    const sum = await client.callTool({ name: 'execute_tool', arguments: { name: 'get-sum', arguments: { a: 2, b: 3 } } });
    expect(text(sum)).toContain('5');
  });

  it('answers invalid execute_tool arguments with each failing field', async () => {
    const { client } = await connect(gateway, { strategy: 'hybrid' });
    const result = (await client.callTool({ name: 'execute_tool', arguments: { name: 'get-sum', arguments: { a: 'two' } } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Invalid arguments for "get-sum":\n- a: must be number\n- b: required property is missing');
    const unknown = (await client.callTool({ name: 'execute_tool', arguments: { name: 'get-summ', arguments: {} } })) as CallToolResult;
    expect(text(unknown)).toContain('Did you mean "get-sum"');
  });

  it('describes tools with examples and related tools, and names unknown ones', async () => {
    const { client } = await connect(gateway, { strategy: 'proxy' });
    const result = await client.callTool({ name: 'describe_tools', arguments: { names: ['get-sum', 'read_grph'] } });
    const { tools } = JSON.parse(text(result)) as { tools: Array<Record<string, unknown>> };
    expect(tools[0]).toMatchObject({ name: 'get-sum', examples: [{ a: 1, b: 1 }] });
    expect(tools[0]?.related).toContain('echo');
    expect(tools[1]).toMatchObject({ name: 'read_grph', error: 'unknown tool' });
    expect((tools[1]?.closest as string[])[0]).toBe('read_graph');
    const graph = JSON.parse(text(await client.callTool({ name: 'describe_tools', arguments: { names: ['read_graph'] } }))) as { tools: Array<{ related: string[] }> };
    expect(graph.tools[0]?.related).toContain('search_nodes');
    expect(graph.tools[0]?.related).not.toContain('echo');
  });

  it('adds search results to the list under notify, up to the cap, with one list_changed', async () => {
    const { client, counter } = await connect(gateway, { strategy: 'notify' });
    await client.callTool({ name: 'search_tools', arguments: { query: 'echo my message', limit: 1 } });
    await client.callTool({ name: 'search_tools', arguments: { query: 'sum of two numbers', limit: 1 } });
    await client.callTool({ name: 'search_tools', arguments: { query: 'print environment variables', limit: 1 } });
    // Barrier: anything sent before the ping's answer has been handled by then.
    await client.ping();
    expect(counter.count).toBe(3);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get-env');
    expect(names).toContain('get-sum');
    expect(names).not.toContain('echo');
  });

  it('refuses a write tool through execute_tool in a read-only mode', async () => {
    const { client } = await connect(gateway, { strategy: 'proxy' });
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'security_review' } });
    const result = (await client.callTool({ name: 'execute_tool', arguments: { name: 'write_file', arguments: { path: 'x', content: 'y' } } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Mode "security_review" is read-only and "write_file" may write');
  });

  it('lists and reads the group resources', async () => {
    const { client } = await connect(gateway);
    // lazytools' own first, then the upstreams' (memory and everything offer resources).
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris[0]).toBe('lazytools://groups');
    expect(uris).toContain('memory://knowledge-graph');
    expect((await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)[0]).toBe('lazytools://groups/{group}');
    const body = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    const index = JSON.parse(await body('lazytools://groups')) as { groups: Array<{ name: string; tools: number }> };
    expect(index.groups.find((g) => g.name === 'memory')?.tools).toBe(9);
    const memory = JSON.parse(await body('lazytools://groups/memory')) as { tools: ToolDefinition[] };
    expect(memory.tools.map((t) => t.name)).toContain('read_graph');
    await expect(client.readResource({ uri: 'lazytools://groups/nope' })).rejects.toThrow(/Unknown resource/);
  });
});
