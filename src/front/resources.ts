import { McpError, ErrorCode, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { sumTokens } from '../catalog/catalog.js';
import type { FrontSession } from './session.js';

/** Resources for clients that browse them: the group index and each group's tool definitions. */
export const RESOURCES: Resource[] = [
  { uri: 'lazytools://groups', name: 'groups', title: 'Tool groups', description: 'Tool groups with descriptions, tool counts and tokens', mimeType: 'application/json' },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: 'lazytools://groups/{group}', name: 'group', title: 'Tool group', description: 'Tool definitions of one group', mimeType: 'application/json' },
];

export function readResource(session: FrontSession, uri: string): ReadResourceResult {
  const catalog = session.gateway.catalog;
  if (uri === 'lazytools://groups') {
    const groups = [...catalog.groups.values()].map((group) => ({
      name: group.name,
      description: group.description,
      tools: group.tools.length,
      tokens: sumTokens(group.tools),
    }));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ mode: session.focus.mode, groups }) }] };
  }
  const match = /^lazytools:\/\/groups\/([^/]+)$/.exec(uri);
  const group = match ? catalog.groups.get(decodeURIComponent(match[1] ?? '')) : undefined;
  if (!group) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${uri}". Read lazytools://groups for the group names.`);
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ name: group.name, description: group.description, tools: group.tools.map((tool) => tool.definition) }) }],
  };
}
