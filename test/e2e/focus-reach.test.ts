import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventCounter, MCP_REMOTE, referenceRc, suiteGateway, text } from '../harness/index.js';

/**
 * A focus switch reaches the model in every client. Where the list cannot change (a 2026-07-28
 * request; the proxy list `auto` gives Claude Desktop), focus_mode answers with the target mode's
 * tools in callable form, and execute_tool runs one at once (no search in between); a 2025 client
 * that re-lists gets list_changed, a terse reply and the new list. The clients: the v2 SDK client
 * pinned to 2026-07-28, and under `versionNegotiation: auto` (what @ai-sdk/mcp 2.x does by default;
 * it needs Node 22, so the SDK client stands for it on Node 20), mcp-remote presenting itself as
 * Claude Desktop, and a v1 SDK client named as VS Code.
 */

const { dir, file } = referenceRc({
  groups: { notes: { description: 'A knowledge graph', servers: ['memory'] }, files: { description: 'Project files', servers: ['filesystem'] } },
  modes: {
    files_only: { description: 'Read and write the project files', groups: ['files'] },
    notes_only: { description: 'Remember things: a knowledge graph of entities, their relations and observations', aliases: ['memory'], groups: ['notes'] },
  },
  defaultMode: 'files_only',
  strategy: 'auto',
});
const suite = suiteGateway(() => file);
const MODERN = '2026-07-28';
const entity = (name: string) => ({ entities: [{ name, entityType: 'person', observations: ['likes tea'] }] });

/** The definitions a client of mode notes_only receives (its fixed endpoint lists them). */
async function notesDefinitions(): Promise<number> {
  const client = new ClientV2({ name: 'definitions', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${suite.url}/notes_only`)));
  try {
    return JSON.stringify((await client.listTools()).tools).length;
  } finally {
    await client.close();
  }
}

/** focus_mode to the notes, then create_entities through execute_tool as the reply says. */
async function switchAndCall(client: { callTool(args: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> }, name: string, withMode: boolean) {
  const reply = (await client.callTool({ name: 'focus_mode', arguments: { intent: 'remember things' } })) as { content: unknown[]; structuredContent?: { tools?: Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }> } };
  const said = text(reply);
  expect(said).toMatch(/^- create_entities\(entities: object\[\]\): /m);
  expect(said.length).toBeLessThanOrEqual(await notesDefinitions());
  expect(reply.structuredContent?.tools?.find((tool) => tool.name === 'create_entities')?.arguments).toEqual([{ name: 'entities', type: 'object[]', required: true }]);
  const called = await client.callTool({ name: 'execute_tool', arguments: { name: 'create_entities', arguments: entity(name), ...(withMode ? { mode: 'notes_only' } : {}) } });
  expect((called as { isError?: boolean }).isError).not.toBe(true);
  expect(text(called)).toContain(name);
}

describe('a focus switch reaches the model in every client', () => {
  it('2026-07-28, the v2 SDK client pinned: the reply names the mode\'s tools and execute_tool runs one with its mode', async () => {
    const client = new ClientV2({ name: 'pinned', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      await switchAndCall(client, 'Ada', true);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 by discovery (versionNegotiation auto, as @ai-sdk/mcp 2.x): the same', async () => {
    const client = new ClientV2({ name: 'ai-sdk-like', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      // It discovered 2026-07-28: the gateway answered server/discover.
      expect(client.getDiscoverResult()).toBeDefined();
      await switchAndCall(client, 'Grace', true);
    } finally {
      await client.close();
    }
  });

  it('mcp-remote as Claude Desktop (the proxy list): the reply names the tools; execute_tool runs one at once', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_REMOTE, suite.url, '--transport', 'http-only'], env: { ...process.env, MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth') } as Record<string, string>, stderr: 'ignore' });
    const client = new Client({ name: 'claude-ai', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toEqual(['focus_mode', 'search_tools', 'describe_tools', 'execute_tool', 'list_tool_groups']);
      await switchAndCall(client, 'Alan', false);
    } finally {
      await client.close();
    }
  });

  it('a 2025 client that re-lists (VS Code): list_changed, a reply under 1,500 characters, the new list', async () => {
    const changes = new EventCounter();
    const client = new Client({ name: 'Visual Studio Code', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, changes.hit);
    await client.connect(new StreamableHTTPClientTransportV1(new URL(suite.url)));
    try {
      const reply = await client.callTool({ name: 'focus_mode', arguments: { intent: 'remember things' } });
      await changes.reached(1);
      expect(text(reply).length).toBeLessThan(1_500);
      expect(text(reply)).not.toContain('create_entities(');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_entities');
    } finally {
      await client.close();
    }
  });
});
