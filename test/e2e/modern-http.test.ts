import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { EventCounter, serverEntry, tempTree, text, suiteGateway } from '../harness/index.js';

const MODERN = '2026-07-28';
const VARIANT = 'io.modelcontextprotocol/server-variant';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An rc with the memory server, two modes (one read-only), variants on and a read-only CI token. */
function rc(extraModes: Record<string, unknown> = {}) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
    groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true } },
    modes: {
      notes: { description: 'Write and read knowledge graph notes', aliases: ['take notes'], groups: ['notes'] },
      audit: { description: 'Read-only audit of the knowledge graph', aliases: ['audit', 'security review'], groups: ['reading'], readOnly: true },
      ...extraModes,
    },
    defaultMode: 'notes',
    variants: { enabled: true, modes: ['notes', 'audit'] },
    auth: { tokens: { ci: { sha256: sha256('ci-token'), modes: ['audit'], description: 'CI bot' } } },
  };
}

async function modernClient(url: string, token = 'admin') {
  const client = new Client({ name: 'modern-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe('the 2026-07-28 front over HTTP (a v2 Client pinned to 2026-07-28)', () => {
  let file = '';
  const suite = suiteGateway(() => {
    const dir = tempTree({ 'package.json': '{}' });
    file = path.join(dir, '.lazytoolsrc.json');
    writeFileSync(file, JSON.stringify(rc()));
    return file;
  }, { http: { token: 'admin' }, watch: true });

  it('discovers: 2026-07-28, tools, the variants extension ranked by hints, instructions', async () => {
    const client = await modernClient(suite.url);
    const discover = client.getDiscoverResult() as Record<string, unknown> & { capabilities: Record<string, unknown> };
    expect(discover.supportedVersions).toEqual([MODERN]);
    expect(discover.capabilities.tools).toBeDefined();
    // The reference implementation's keys: availableVariants under capabilities.experimental.
    const variants = (discover.capabilities.experimental as Record<string, { availableVariants: Array<{ id: string; description: string; hints: { useCase: string[] } }>; default: string }>)[
      'io.modelcontextprotocol/server-variants'
    ];
    expect(variants?.availableVariants.map((v) => v.id)).toEqual(['notes', 'audit']);
    expect(variants?.default).toBe('notes');
    expect(variants?.availableVariants[1]).toMatchObject({ id: 'audit', description: 'Read-only audit of the knowledge graph', hints: { useCase: ['audit', 'security review'] } });
    expect(String(discover.instructions)).toContain('focus_mode');
    await client.close();
  });

  it.each([
    ['the client capabilities\' experimental variantHints.hints (the reference keys)', { experimental: { 'io.modelcontextprotocol/server-variants': { variantHints: { hints: { useCase: 'audit the knowledge graph' } } } } }, {}],
    ['the earlier _meta key', {}, { 'io.modelcontextprotocol/server-variant-hints': { useCase: 'audit the knowledge graph' } }],
  ])('ranks the variants by the useCase hint a server/discover carries in %s', async (_where, capabilities, extra) => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };
    const answer = await fetch(suite.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer admin', 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { ...envelope, ...extra } } }),
    });
    const body = (await answer.json()) as { result: { capabilities: { experimental: Record<string, { availableVariants: Array<{ id: string }>; default: string }> } } };
    const variants = body.result.capabilities.experimental['io.modelcontextprotocol/server-variants'];
    expect(variants?.default).toBe('audit');
    expect(variants?.availableVariants.map((v) => v.id)).toEqual(['audit', 'notes']);
  });

  it('answers a JSON exchange whole, with its length (not chunked), and a bodyless one empty', async () => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer admin', 'mcp-protocol-version': MODERN };
    const answer = await fetch(suite.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'read_graph' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'whole', method: 'tools/call', params: { name: 'read_graph', arguments: {}, _meta: envelope } }),
    });
    const body = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', id: 'whole', result: { content: [{ type: 'text' }] } });
    // A notification has no answer body: 202, nothing after the headers.
    const note = await fetch(suite.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-method': 'notifications/cancelled' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone', _meta: envelope } }),
    });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
  });

  it('lists the default mode with ttlMs and cacheScope, in a deterministic order, and calls a tool', async () => {
    const client = await modernClient(suite.url);
    const first = (await client.listTools()) as unknown as { tools: Array<{ name: string }>; ttlMs: number; cacheScope: string };
    const second = (await client.listTools()) as unknown as { tools: Array<{ name: string }> };
    expect(first.tools.map((t) => t.name)).toEqual(second.tools.map((t) => t.name));
    expect(first.tools.map((t) => t.name).slice(0, 3)).toEqual(['focus_mode', 'search_tools', 'execute_tool']);
    expect(first.tools.map((t) => t.name)).toContain('create_entities');
    expect(first.ttlMs).toBe(60_000);
    // The rc maps tokens: the answer depends on the token, so shared caches must not keep it.
    expect(first.cacheScope).toBe('private');
    const created = await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'lazytools', entityType: 'project', observations: ['serves 2026-07-28'] }] } });
    expect(created.isError).toBeFalsy();
    const read = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(text(read)).toContain('serves 2026-07-28');
    await client.close();
  });

  it('searches without adding to the list, and execute_tool runs what search found', async () => {
    const client = await modernClient(suite.url);
    const before = (await client.listTools()).tools.map((t) => t.name);
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'delete entities', enable: true } });
    const answer = found.structuredContent as { tools: Array<{ name: string }>; enabled: boolean; inList?: string[] };
    // The mode lists it already: named apart from the hits, the places going to tools the list lacks.
    expect([...answer.tools.map((t) => t.name), ...(answer.inList ?? [])]).toContain('delete_entities');
    expect((found.structuredContent as { enabled: boolean }).enabled).toBe(false);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(before);
    const run = await client.callTool({ name: 'execute_tool', arguments: { name: 'search_nodes', arguments: { query: 'lazytools' } } });
    expect(run.isError).toBeFalsy();
    await client.close();
  });

  it('focus_mode resolves an intent and says how to reach the mode, without changing the list', async () => {
    const client = await modernClient(suite.url);
    const before = (await client.listTools()).tools.map((t) => t.name);
    const answer = await client.callTool({ name: 'focus_mode', arguments: { intent: 'audit the knowledge graph' } });
    const reach = (answer.structuredContent as { target: string; reach: { variant?: string; url?: string } });
    expect(reach.target).toBe('audit');
    expect(reach.reach).toEqual({ variant: 'audit', url: `${suite.url}/audit` });
    expect(text(answer)).toContain('io.modelcontextprotocol/server-variant');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(before);
    const groups = await client.callTool({ name: 'focus_mode', arguments: { enable_group: 'notes' } });
    expect(groups.isError).toBe(true);
    await client.close();
  });

  it('switches mode by variant: the read-only variant lists and runs only read tools', async () => {
    const client = await modernClient(suite.url);
    const list = await client.listTools({ _meta: { [VARIANT]: 'audit' } });
    const names = list.tools.map((t) => t.name);
    expect(names).toContain('read_graph');
    expect(names).not.toContain('create_entities');
    const refused = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['lazytools'] }, _meta: { [VARIANT]: 'audit' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('read-only');
    await client.close();
  });

  it('switches mode by endpoint: /mcp/audit is its own server, fixed to audit', async () => {
    const client = await modernClient(`${suite.url}/audit`);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('focus_mode');
    expect(names).not.toContain('create_entities');
    // tools/call, not a second tools/list: the client caches list answers for their ttlMs.
    await expect(client.callTool({ name: 'read_graph', arguments: {}, _meta: { [VARIANT]: 'notes' } })).rejects.toThrow(/serves mode "audit" only/);
    await client.close();
  });

  it('switches mode by token: the CI token gets audit and cannot widen it by endpoint or variant', async () => {
    const client = await modernClient(suite.url, 'ci-token');
    // Discover offers only the variants the token may use.
    const experimental = client.getDiscoverResult()!.capabilities.experimental as Record<string, { availableVariants: Array<{ id: string }> }>;
    expect(experimental['io.modelcontextprotocol/server-variants']?.availableVariants.map((v) => v.id)).toEqual(['audit']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_graph');
    expect(names).not.toContain('create_entities');
    expect(names).not.toContain('focus_mode');
    const write = await client.callTool({ name: 'create_entities', arguments: { entities: [] } });
    expect(write.isError).toBe(true);
    const viaExecute = await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_entities', arguments: { entityNames: ['lazytools'] } } });
    expect(viaExecute.isError).toBe(true);
    await expect(client.callTool({ name: 'read_graph', arguments: {}, _meta: { [VARIANT]: 'notes' } })).rejects.toThrow(/may use mode\(s\) audit only/);
    await client.close();
    await expect(modernClient(`${suite.url}/notes`, 'ci-token')).rejects.toThrow(/403|Forbidden/);
  });

  it('refuses an unknown token with 401, for both eras', async () => {
    await expect(modernClient(suite.url, 'wrong')).rejects.toThrow(/401|Unauthorized/);
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await expect(legacy.connect(new LegacyTransport(new URL(suite.url), { requestInit: { headers: { Authorization: 'Bearer wrong' } } }))).rejects.toThrow(/401|Unauthorized/);
  });

  it('a legacy session with the CI token is pinned to audit (no focus_mode, no write tools)', async () => {
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(new LegacyTransport(new URL(suite.url), { requestInit: { headers: { Authorization: 'Bearer ci-token' } } }));
    const names = (await legacy.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('focus_mode');
    expect(names).not.toContain('create_entities');
    await legacy.close();
  });

  it('a legacy session keeps needing the token it was opened with (no widening by swapping tokens)', async () => {
    const transport = new LegacyTransport(new URL(suite.url), { requestInit: { headers: { Authorization: 'Bearer ci-token' } } });
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(transport);
    const answer = await fetch(suite.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer admin', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_entities', arguments: { entities: [] } } }),
    });
    expect(answer.status).toBe(404);
    await legacy.close();
  });

  it('receives tools/list_changed on subscriptions/listen when the rc is reloaded', async () => {
    const client = await modernClient(suite.url);
    const changes = new EventCounter();
    client.setNotificationHandler('notifications/tools/list_changed', changes.hit);
    const subscription = await client.listen({ toolsListChanged: true });
    writeFileSync(file, JSON.stringify(rc({ extra: { description: 'Another mode', groups: ['reading'] } })));
    await changes.reached(1);
    const list = await client.callTool({ name: 'focus_mode', arguments: { mode: 'extra' } });
    expect(list.isError).toBeFalsy();
    await subscription.close();
    await client.close();
  });
});
