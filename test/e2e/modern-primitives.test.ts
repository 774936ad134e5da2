import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served } from '../../src/app/serve.js';
import { serverEntry, serveHttpGateway, rcProject, rawPost } from '../harness/index.js';

const MODERN = '2026-07-28';
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A raw POST with the 2026-07-28 headers (the method header from the body when it has one). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const method = /"method":"([^"]+)"/.exec(body.slice(0, 200))?.[1];
  return rawPost(url, body, { 'mcp-protocol-version': MODERN, ...(method ? { 'mcp-method': method } : {}), ...headers });
}

describe('2026-07-28 front: prompts, resources, completions, the proxy list, and hostile requests', () => {
  let served: Served;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    const { file } = rcProject({ servers: { everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] } }, defaultMode: 'all' });
    served = await serveHttpGateway(file, { http: { maxBodyBytes: 256 * 1024 } });
    url = served.http!.url;
    client = new Client({ name: 'modern-primitives', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it('advertises what the upstream offers and answers lists as public (no token mapping)', async () => {
    const caps = client.getDiscoverResult()!.capabilities;
    expect(caps.prompts).toBeDefined();
    expect(caps.completions).toBeDefined();
    // No server variants (rc switch off); the groups extension is always offered.
    expect(Object.keys(caps.extensions ?? {})).toEqual(['io.modelcontextprotocol/groups']);
    const prompts = (await client.listPrompts()) as unknown as { prompts: Array<{ name: string }>; cacheScope: string };
    expect(prompts.cacheScope).toBe('public');
    expect(prompts.prompts.map((p) => p.name)).toContain('simple-prompt');
  });

  it('routes prompts/get, resources/read (own and upstream) and completion/complete', async () => {
    const prompt = await client.getPrompt({ name: 'simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
    const resources = await client.listResources();
    const upstream = resources.resources.find((r) => !r.uri.startsWith('lazytools://'))!;
    const read = await client.readResource({ uri: upstream.uri });
    expect(read.contents[0]?.uri).toBe(upstream.uri);
    const own = await client.readResource({ uri: 'lazytools://groups' });
    expect(JSON.parse((own.contents[0] as { text: string }).text).mode).toBe('all');
    await expect(client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(/Resource not found/);
    const completable = (await client.listPrompts()).prompts.find((p) => (p.arguments ?? []).length > 0)!;
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: completable.name }, argument: { name: completable.arguments![0]!.name, value: '' } });
    expect(Array.isArray(completion.completion.values)).toBe(true);
  });

  it('answers an unknown resource as a 2025 session does: invalid params, data.uri, the URI echoed cut short', async () => {
    const uri = `nowhere://${'x'.repeat(1_500)}`;
    const refused = await client.readResource({ uri }).then(
      () => undefined,
      (error: { code?: number; data?: { uri?: string }; message: string }) => error,
    );
    expect(refused).toMatchObject({ code: -32602, data: { uri } });
    expect(refused?.message).toContain('Resource not found: no server lists "nowhere://xxx');
    expect(refused?.message).toContain('[name cut by lazytools at 200 characters]');
    expect(refused!.message.length).toBeLessThan(400);
    // A URI past 2,048 characters is no real address: data.uri gives it back cut (a 2 MB one came back whole).
    const long = `nowhere://${'x'.repeat(5_000)}`;
    const cut = await client.readResource({ uri: long }).then(
      () => undefined,
      (error: { data?: { uri?: string } }) => error,
    );
    expect(cut?.data?.uri).toBe(`${long.slice(0, 2_048)}… [URI cut by lazytools at 2048 characters]`);
  });

  it('?strategy=proxy serves the constant meta-tool list; execute_tool still runs within the mode', async () => {
    const proxy = new Client({ name: 'modern-proxy', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await proxy.connect(new StreamableHTTPClientTransport(new URL(`${url}?strategy=proxy`)));
    expect((await proxy.listTools()).tools.map((t) => t.name)).toEqual(['focus_mode', 'search_tools', 'describe_tools', 'execute_tool', 'list_tool_groups']);
    const echo = await proxy.callTool({ name: 'execute_tool', arguments: { name: 'echo', arguments: { message: 'hi' } } });
    expect(JSON.stringify(echo.content)).toContain('hi');
    await proxy.close();
  });

  it('answers hostile requests with clear errors and keeps serving', async () => {
    const proto = await post(`${url}/__proto__`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }));
    expect(proto.status).toBe(404);
    expect(JSON.parse(proto.body).error.message).toMatch(/Unknown mode "__proto__"|__proto__/);
    const forged = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...envelope, 'io.modelcontextprotocol/server-variant': 'all' } } }));
    expect(forged.body).toContain('Server variants are not enabled');
    const malformed = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 42 } } }));
    expect(malformed.body).toMatch(/-32602|Invalid/);
    const huge = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { ...envelope, junk: 'x'.repeat(300 * 1024) } } }));
    expect(huge.status).toBe(413);
    const unsupported = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }));
    expect(unsupported.body).toMatch(/2026-07-28/);
    const bareDiscover = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'server/discover' }), { 'mcp-protocol-version': '' });
    expect(bareDiscover.body).toMatch(/2026-07-28/);
    const notJson = await post(url, '{"jsonrpc":');
    expect(notJson.status).toBe(400);
    // Still serving.
    expect((await client.callTool({ name: 'echo', arguments: { message: 'still here' } })).isError).toBeFalsy();
  });
});
