import { describe, expect, it } from 'vitest';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { serverProfiles } from '../../src/catalog/profiles.js';
import { resolveConfig } from '../../src/config/resolve.js';

// Per-server profiles (vocabulary/servers.json): knowledge of one server's tool names, applied to
// whichever server lists enough of them, whatever the rc calls it.
const tool = (name: string, description = ''): ToolDefinition => ({ name, description, inputSchema: { type: 'object' } });
const memoryLike = ['create_entities', 'create_relations', 'add_observations', 'read_graph'].map((name) => tool(name));

describe('server profiles', () => {
  it('apply to a server by the tools it lists, not by its name', () => {
    expect(serverProfiles([{ server: 'kg', tools: memoryLike }]).get('kg')?.name).toBe('memory');
    expect(serverProfiles([{ server: 'memory', tools: memoryLike.slice(0, 2) }]).has('memory')).toBe(false);
  });

  it('add the server\'s tools to preset groups, with the profile as the reason', () => {
    const config = resolveConfig({});
    const { catalog } = buildCatalog([{ server: 'kg', tools: memoryLike }], config);
    const graph = catalog.byId.get('kg:read_graph');
    expect(graph?.placements.find((p) => p.group === 'memory')?.reason).toBe('server profile memory');
  });

  it('leave an rc group of the same name to the user', () => {
    const config = resolveConfig({ groups: { memory: { tools: ['nothing_here'] } } });
    const { catalog } = buildCatalog([{ server: 'kg', tools: memoryLike }], config);
    expect(catalog.byId.get('kg:read_graph')?.groups).not.toContain('memory');
  });
});
