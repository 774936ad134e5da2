import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/app/serve.js';
import { silentLogger } from '../../src/util/log.js';
import { serverEntry, tempTree, startCli, stopAll } from '../harness/index.js';

const MODERN = '2026-07-28';
/** Both clients declare the groups extension, so groups/get is served to each. */
const capabilities = { extensions: { 'io.modelcontextprotocol/groups': {} } };
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** One POST; the answer from a JSON body or the first `data:` line of an event stream. */
async function post(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ headers: Headers; message: { result?: unknown; error?: RpcError } | undefined }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return { headers: response.headers, message: json ? (JSON.parse(json) as { result?: unknown; error?: RpcError }) : undefined };
}

/** Sends one request in each era over real HTTP: a 2025 session (initialize first) and a 2026-07-28 enveloped request. */
async function bothEras(url: string, method: string, params: Record<string, unknown>): Promise<{ legacy: RpcError | undefined; modern: RpcError | undefined }> {
  const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'parity', version: '1' } } });
  const session = init.headers.get('mcp-session-id') ?? '';
  const legacyHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders);
  const legacy = await post(url, { jsonrpc: '2.0', id: 2, method, params }, legacyHeaders);
  const name = params.uri ?? params.name;
  const modernHeaders = { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) };
  const modern = await post(url, { jsonrpc: '2.0', id: 2, method, params: { ...params, _meta: envelope } }, modernHeaders);
  return { legacy: legacy.message?.error, modern: modern.message?.error };
}

describe('era parity: the same failure gets the same JSON-RPC error in both eras', () => {
  let served: Served;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    dir = tempTree({ 'package.json': '{}' });
    const file = path.join(dir, '.lazytoolsrc.json');
    writeFileSync(file, JSON.stringify({ servers: { everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] } }, defaultMode: 'all' }));
    served = await serve({ config: file, http: { port: 0 }, logger: silentLogger });
    url = served.http!.url;
  }, 120_000);
  afterAll(async () => {
    await stopAll();
    await served?.close();
  });

  it.each([
    ['an unknown upstream resource', 'resources/read', { uri: 'test://no/such/resource' }],
    ['an unknown lazytools resource', 'resources/read', { uri: 'lazytools://groups/no-such-group' }],
    ['an unknown prompt', 'prompts/get', { name: 'no-such-prompt' }],
    ['an invalid cursor', 'tools/list', { cursor: 'not-a-cursor' }],
    ['an unknown group', 'groups/get', { name: 'no-such-group' }],
  ])('%s', async (_what, method, params) => {
    const { legacy, modern } = await bothEras(url, method, params);
    expect(legacy).toBeDefined();
    expect({ code: modern?.code, data: modern?.data }).toEqual({ code: legacy?.code, data: legacy?.data });
  });

  it('an initialize carrying a 2026-07-28 envelope claim is one era over stdio and HTTP (the SDK classifier: modern)', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'parity', version: '1' }, _meta: envelope } };
    const overHttp = (await post(url, initialize, { 'mcp-protocol-version': MODERN, 'mcp-method': 'initialize' })).message;
    const cli = startCli(['serve'], { cwd: dir, env: { LAZYTOOLS_QUIET: '1' } });
    const lines = createInterface({ input: cli.child.stdout });
    const answered = new Promise<string>((resolve) => lines.once('line', resolve));
    cli.child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const overStdio = JSON.parse(await answered) as { result?: unknown; error?: RpcError };
    // Today's HTTP front answers it as a 2026-07-28 request (no legacy session: no initialize result).
    expect(overHttp?.error?.code).toBeDefined();
    expect({ code: overStdio.error?.code, result: overStdio.result }).toEqual({ code: overHttp?.error?.code, result: overHttp?.result });
  });
});
