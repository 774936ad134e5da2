import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { allText, serverEntry, serveHttpGateway, rcProject, suiteGateway } from '../harness/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A token's modes bound a 2025 session on every path: the memory server's tools are
 * modes `notes` and `audit` (read-only), the everything server's are mode `demo`. Tokens: `notes`
 * (one mode), `audit` (one read-only mode), `multi` (notes and audit), `admin` (the shared token).
 */
function rc() {
  return {
    servers: {
      memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } },
      everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] },
    },
    groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true }, demo: { servers: ['everything'] } },
    modes: {
      notes: { description: 'Write and read knowledge graph notes', groups: ['notes'] },
      audit: { description: 'Read-only audit of the knowledge graph', groups: ['reading'], readOnly: true },
      demo: { description: 'The everything demo server', groups: ['demo'] },
    },
    defaultMode: 'demo',
    auth: {
      tokens: {
        notes: { sha256: sha256('notes-token'), modes: ['notes'] },
        audit: { sha256: sha256('audit-token'), modes: ['audit'] },
        multi: { sha256: sha256('multi-token'), modes: ['notes', 'audit'] },
      },
    },
  };
}

describe('a bearer token bounds 2025 sessions on every path (v2 Client, legacy, over HTTP)', () => {
  const suite = suiteGateway(() => rcProject(rc()).file, { http: { token: 'admin' } });
  const clients: Client[] = [];

  async function legacy(token: string, endpoint = suite.url): Promise<Client> {
    const client = new Client({ name: 'boundary-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
  });

  it('the admin token reaches every mode (the control: the tools exist and run)', async () => {
    const admin = await legacy('admin');
    expect((await admin.listResourceTemplates()).resourceTemplates.some((t) => t.uriTemplate.startsWith('demo://'))).toBe(true);
    expect((await admin.readResource({ uri: 'demo://resource/static/document/architecture.md' })).contents.length).toBeGreaterThan(0);
    const echo = await admin.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(echo.isError).toBeFalsy();
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toContain('simple-prompt');
    expect(admin.getInstructions()).toContain('## everything');
    expect(Object.keys(admin.getServerCapabilities() ?? {})).toEqual(expect.arrayContaining(['tools', 'prompts', 'completions', 'logging']));
  });

  it('initialize advertises only what the token\'s servers offer: no prompts, completions or logging of another mode\'s server', async () => {
    // The memory server (mode notes) offers tools only; the everything server (mode demo) offers
    // prompts, completions and logging. A notes session is told of none of them, as its
    // instructions name only memory: a capability it cannot use would send the client to list
    // nothing, and would say what servers outside its modes offer.
    const notes = await legacy('notes-token');
    const capabilities = notes.getServerCapabilities() ?? {};
    expect(capabilities.tools).toBeDefined();
    expect(capabilities.resources).toBeDefined();
    expect(capabilities.prompts).toBeUndefined();
    expect(capabilities.completions).toBeUndefined();
    expect(capabilities.logging).toBeUndefined();
    // The SDK client lists nothing without asking; a client that asks anyway is told there is no such method.
    expect((await notes.listPrompts()).prompts).toEqual([]);
    await expect(notes.getPrompt({ name: 'simple-prompt' })).rejects.toThrow(/Method not found/);
  });

  it('a token of one mode cannot call another mode\'s tool: by name, by id, through execute_tool', async () => {
    const notes = await legacy('notes-token');
    const names = (await notes.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_entities');
    expect(names).not.toContain('echo');
    for (const name of ['echo', 'everything:echo']) {
      const result = await notes.callTool({ name, arguments: { message: 'hi' } });
      expect(result.isError, name).toBe(true);
      expect(allText(result)).not.toContain('demo');
    }
    const via = await notes.callTool({ name: 'execute_tool', arguments: { name: 'echo', arguments: { message: 'hi' } } });
    expect(via.isError).toBe(true);
    expect(allText(via)).toMatch(/Unknown tool "echo"/);
    // Its own mode's writer still runs.
    const own = await notes.callTool({ name: 'create_entities', arguments: { entities: [] } });
    expect(own.isError).toBeFalsy();
  });

  it('a read-only token runs neither a writer nor another mode\'s tool, whatever the path', async () => {
    const audit = await legacy('audit-token');
    const names = (await audit.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('read_graph');
    expect(names).not.toContain('create_entities');
    for (const [name, args] of [
      ['create_entities', { entities: [] }],
      ['memory:create_entities', { entities: [] }],
      ['echo', { message: 'hi' }],
      ['get-sum', { a: 1, b: 2 }],
      ['everything:get-sum', { a: 1, b: 2 }],
    ] as const) {
      expect((await audit.callTool({ name, arguments: args })).isError, name).toBe(true);
      expect((await audit.callTool({ name: 'execute_tool', arguments: { name, arguments: args } })).isError, `execute_tool ${name}`).toBe(true);
    }
    expect((await audit.callTool({ name: 'read_graph', arguments: {} })).isError).toBeFalsy();
  });

  it('search, describe and the group index show only the token\'s tools (no schema of another mode)', async () => {
    const notes = await legacy('notes-token');
    const search = await notes.callTool({ name: 'search_tools', arguments: { query: 'echo message back', detail: 'schema', limit: 50 } });
    const hits = (search.structuredContent as { tools: Array<{ name: string; server: string }> }).tools;
    expect(hits.every((hit) => hit.server === 'memory')).toBe(true);
    expect(hits.map((hit) => hit.name)).not.toContain('echo');
    const proxy = await legacy('notes-token', `${suite.url}?strategy=proxy`);
    const describe = await proxy.callTool({ name: 'describe_tools', arguments: { names: ['echo', 'everything:echo'] } });
    expect(allText(describe)).not.toContain('inputSchema');
    expect(allText(describe)).toContain('unknown tool');
    const groups = allText(await proxy.callTool({ name: 'list_tool_groups', arguments: {} }));
    expect(groups).toContain('notes');
    expect(groups).not.toContain('demo');
    expect((await proxy.callTool({ name: 'list_tool_groups', arguments: { group: 'demo' } })).isError).toBe(true);
  });

  it('a token of several modes switches only among them, and refusals name only those', async () => {
    const multi = await legacy('multi-token');
    const before = (await multi.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('focus_mode');
    expect(before).toContain('create_entities');
    const refused = await multi.callTool({ name: 'focus_mode', arguments: { mode: 'demo' } });
    expect(refused.isError).toBe(true);
    expect(allText(refused)).toContain('notes');
    expect(allText(refused)).not.toMatch(/development|daily_checkin/);
    const switched = await multi.callTool({ name: 'focus_mode', arguments: { mode: 'audit' } });
    expect(switched.isError).toBeFalsy();
    const after = (await multi.listTools()).tools.map((tool) => tool.name);
    expect(after).toContain('read_graph');
    expect(after).not.toContain('create_entities');
    // In the read-only mode the writer is refused, and the demo mode stays out of reach.
    expect((await multi.callTool({ name: 'create_entities', arguments: { entities: [] } })).isError).toBe(true);
    expect((await multi.callTool({ name: 'echo', arguments: { message: 'hi' } })).isError).toBe(true);
    // Enabling another mode's group adds nothing outside the token's modes.
    await multi.callTool({ name: 'focus_mode', arguments: { mode: 'notes', enable_group: 'demo' } });
    expect((await multi.listTools()).tools.map((tool) => tool.name)).not.toContain('echo');
    expect((await multi.callTool({ name: 'echo', arguments: { message: 'hi' } })).isError).toBe(true);
  });

  it('prompts, resources and completions of servers outside the token\'s modes are not there', async () => {
    const notes = await legacy('notes-token');
    expect(notes.getInstructions() ?? '').not.toContain('## everything');
    await expect(notes.getPrompt({ name: 'simple-prompt' })).rejects.toThrow(/Method not found/);
    const resources = (await notes.listResources()).resources.map((r) => r.uri);
    expect(resources).toContain('lazytools://groups');
    expect(resources.filter((uri) => uri.startsWith('demo://'))).toEqual([]);
    const templates = (await notes.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates.filter((uri) => uri.startsWith('demo://'))).toEqual([]);
    await expect(notes.readResource({ uri: 'demo://resource/static/document/architecture.md' })).rejects.toThrow(/not found/i);
    await expect(notes.readResource({ uri: 'lazytools://groups/demo' })).rejects.toThrow(/Unknown resource/);
    const index = JSON.parse(((await notes.readResource({ uri: "lazytools://groups" })).contents[0] as { text: string }).text) as { groups: Array<{ name: string }> };
    expect(index.groups.map((g) => g.name)).not.toContain('demo');
    await expect(notes.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } })).rejects.toThrow(/Method not found/);
  });

  it('2026-07-28 requests with the token get the same boundary: search, prompts, resources', async () => {
    const modern = new Client({ name: 'boundary-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(suite.url), { requestInit: { headers: { Authorization: 'Bearer notes-token' } } }));
    clients.push(modern);
    const search = await modern.callTool({ name: 'search_tools', arguments: { query: 'echo message back', detail: 'schema', limit: 50 } });
    expect((search.structuredContent as { tools: Array<{ server: string }> }).tools.every((hit) => hit.server === 'memory')).toBe(true);
    expect((await modern.callTool({ name: 'execute_tool', arguments: { name: 'echo', arguments: { message: 'hi' } } })).isError).toBe(true);
    // server/discover, as initialize, offers only what the token's servers offer.
    expect(modern.getServerCapabilities()?.prompts).toBeUndefined();
    expect(modern.getServerCapabilities()?.completions).toBeUndefined();
    expect((await modern.listPrompts()).prompts).toEqual([]);
    await expect(modern.getPrompt({ name: 'simple-prompt' })).rejects.toThrow(/Method not found/);
    await expect(modern.readResource({ uri: 'demo://resource/static/document/architecture.md' })).rejects.toThrow(/not found/i);
  });

  it('an unknown endpoint names only the token\'s modes', async () => {
    const answer = await fetch(`${suite.url}/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer notes-token' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(answer.status).toBe(404);
    const body = await answer.text();
    expect(body).toContain('notes');
    expect(body).not.toContain('demo');
  });
});

describe('a reload that changes a token\'s modes', () => {
  it('ends the reach of sessions opened under the old modes (they must start again)', async () => {
    const { file } = rcProject(rc());
    const served = await serveHttpGateway(file, { http: { token: 'admin' }, watch: true });
    const client = new Client({ name: 'reload', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(served.http!.url), { requestInit: { headers: { Authorization: 'Bearer notes-token' } } });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_entities');
      const changed = rc();
      changed.auth.tokens.notes.modes = ['audit'];
      const reloaded = new Promise<void>((resolve) => served.gateway.listChangeListeners.add((kind) => kind === 'tools' && served.gateway.config.tokens.some((grant) => grant.label === 'notes' && grant.modes.includes('audit')) && resolve()));
      writeFileSync(file, JSON.stringify(changed));
      await reloaded;
      const answer = await fetch(served.http!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer notes-token', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_entities', arguments: { entities: [] } } }),
      });
      expect(answer.status).toBe(404);
    } finally {
      await client.close().catch(() => {});
      await served.close();
    }
  });
});
