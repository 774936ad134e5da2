import { createMCPClient, ElicitationRequestSchema, type MCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { serveHttp, type HttpFront } from '../../src/transports/http.js';
import { BIN, FIXTURES, MCP_REMOTE, tempTree, text, cliStdio } from '../harness/index.js';

// Real clients: the MCP SDK's v2 Client and, beyond the SDK, through lazytools in front of the kitchen-sink fixture:
// the Vercel AI SDK's MCP client (HTTP and stdio) and mcp-remote (the stdio bridge Claude Desktop
// uses for HTTP servers), each through list, focus switch, a prompt, a resource and an elicitation.
const FIXTURE = FIXTURES.kitchenSink;
const dir = tempTree({ 'package.json': '{}' });
const file = path.join(dir, '.lazytoolsrc.json');
writeFileSync(
  file,
  JSON.stringify({
    servers: { kitchen: { command: process.execPath, args: [FIXTURE] } },
    groups: { basics: { description: 'Plain content tools', tools: ['kitchen:test_simple_text', 'kitchen:test_elicitation'] } },
    modes: { basic: { description: 'Only the plain content tools', groups: ['basics'] } },
    defaultMode: 'all',
    strategy: 'notify',
  }),
);

const ACCEPT = { action: 'accept' as const, content: { username: 'grace', email: 'grace@example.com' } };

let gateway: Gateway;
let http: HttpFront;
beforeAll(async () => {
  const loaded = await loadConfig({ file });
  gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
  await gateway.start();
  http = await serveHttp(gateway, { port: 0 });
});
afterAll(async () => {
  await http?.close();
  await gateway?.close();
});

/** The same walk for any client: list, focus switch, prompt, resource, elicitation. */
interface Walkable {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(args: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getPrompt(args: { name: string; arguments?: Record<string, string> }): Promise<{ messages: Array<{ content: unknown }> }>;
  readResource(args: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>;
}

async function walk(client: Walkable): Promise<void> {
  const all = (await client.listTools()).tools.map((t) => t.name);
  expect(all).toContain('focus_mode');
  expect(all).toContain('test_sampling');
  const switched = await client.callTool({ name: 'focus_mode', arguments: { mode: 'basic' } });
  expect(text(switched)).toContain('basic');
  const basic = (await client.listTools()).tools.map((t) => t.name);
  expect(basic).toContain('test_simple_text');
  expect(basic).not.toContain('test_sampling');
  const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
  const resource = await client.readResource({ uri: 'test://static-text' });
  expect(resource.contents[0]).toMatchObject({ text: 'This is the content of the static text resource.' });
  const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
  expect(text(elicited)).toBe('User response: action=accept, content={"username":"grace","email":"grace@example.com"}');
}

describe('Vercel AI SDK MCP client (@ai-sdk/mcp)', () => {
  // @ai-sdk/mcp 1.x (the newest line for Node 20) is used as AI SDK apps use it: a call goes
  // through the tool set `tools()` builds from the current list, a prompt through experimental_getPrompt.
  const adapt = (client: MCPClient): Walkable => ({
    listTools: () => client.listTools(),
    callTool: async ({ name, arguments: args = {} }) => {
      const tool = (await client.tools())[name] as { execute(input: unknown, options: unknown): Promise<unknown> } | undefined;
      if (!tool) throw new Error(`the AI SDK tool set has no ${name}`);
      return tool.execute(args, { toolCallId: name, messages: [] });
    },
    getPrompt: (args) => client.experimental_getPrompt(args),
    readResource: (args) => client.readResource(args) as never,
  });

  it('walks list, focus switch, prompt, resource and elicitation over HTTP', async () => {
    // The 2025 walk (a focus switch changes the list; elicitation): 1.x opens with initialize.
    const client = await createMCPClient({ transport: { type: 'http', url: http.url }, capabilities: { elicitation: {} } });
    try {
      client.onElicitationRequest(ElicitationRequestSchema, () => ACCEPT);
      await walk(adapt(client));
    } finally {
      await client.close();
    }
  });

  it('walks the same over stdio', async () => {
    const transport = new Experimental_StdioMCPTransport({ command: process.execPath, args: [BIN, 'serve', '--config', file], env: { ...process.env } as Record<string, string> });
    const client = await createMCPClient({ transport, capabilities: { elicitation: {} } });
    try {
      client.onElicitationRequest(ElicitationRequestSchema, () => ACCEPT);
      await walk(adapt(client));
    } finally {
      await client.close();
    }
  });
});

describe('mcp-remote (stdio bridge to the HTTP front)', () => {
  it('walks list, focus switch, prompt, resource and elicitation', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, http.url, '--transport', 'http-only'],
      env: { ...process.env, MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth') } as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'mcp-remote-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ACCEPT);
    await client.connect(transport);
    try {
      await walk(client as unknown as Walkable);
    } finally {
      await client.close();
    }
  });
});

describe('MCP TypeScript SDK v2 Client (@modelcontextprotocol/client)', () => {
  async function v2Walk(transport: Parameters<ClientV2['connect']>[0]) {
    const client = new ClientV2({ name: 'v2-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', () => ACCEPT);
    await client.connect(transport);
    try {
      await walk(client as unknown as Walkable);
    } finally {
      await client.close();
    }
  }

  it('walks list, focus switch, prompt, resource and elicitation over HTTP', async () => {
    await v2Walk(new StreamableHTTPClientTransport(new URL(http.url)));
  });

  it('walks the same over stdio', async () => {
    await v2Walk(new StdioClientTransportV2(cliStdio(['serve', '--config', file])));
  });
});
