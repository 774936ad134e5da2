import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { inMemoryClient, referenceSources } from '../harness/index.js';

/**
 * `auto` is the default strategy (bench/strategy-clients.mjs, README "Strategies"): a
 * client that ignores list_changed gets the constant proxy list without an rc line, a client the
 * table does not know still gets hybrid, and one that acts on list_changed gets notify.
 */
describe('the default strategy is auto', () => {
  it('serves each client by its clientInfo.name with no strategy in the rc', async () => {
    const config = resolveConfig({});
    expect(config.strategy).toBe('auto');
    const gateway = new Gateway({ config, upstreams: [], locked: await referenceSources() });
    const listed = async (name: string) => {
      const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name });
      try {
        return (await client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await client.close();
      }
    };
    // Claude Desktop's name through mcp-remote: the constant proxy list, nothing else.
    expect((await listed('claude-ai (via mcp-remote 0.15.1)')).sort()).toEqual(['describe_tools', 'execute_tool', 'focus_mode', 'list_tool_groups', 'search_tools']);
    const unknown = await listed('some-agent');
    expect(unknown).toEqual(expect.arrayContaining(['focus_mode', 'search_tools', 'execute_tool']));
    expect(unknown.length).toBeGreaterThan(5);
    const vscode = await listed('Visual Studio Code');
    expect(vscode).not.toContain('execute_tool');
    expect(vscode).toContain('search_tools');
  });
});
