import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, serveHttpCli, serverEntry, stopAll, tempTree, rcProject } from '../harness/index.js';

/**
 * Operators' endpoints over real HTTP. /healthz answers while the process is up;
 * /readyz says whether the initial starts settled and how each server is (503 until settled);
 * /metrics (opt-in) is Prometheus text from prom-client, behind the bearer token when one is set.
 */
afterEach(() => stopAll());

const KITCHEN = FIXTURES.kitchenSink;
const SILENT = FIXTURES.silent;

async function get(url: string, token?: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('health, readiness and metrics', () => {
  it('/healthz is 200 at once; /readyz is 503 until the initial starts settled, then 200 with each server up or failed and why', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    writeFileSync(
      path.join(dir, '.lazytoolsrc.json'),
      JSON.stringify({
        servers: {
          memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
          silent: { command: process.execPath, args: [SILENT], startTimeout: 8000 },
        },
      }),
    );
    const gateway = await serveHttpCli([], { cwd: dir });
    const base = gateway.url.replace(/\/mcp$/, '');
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    const early = await get(`${base}/readyz`);
    expect(early.status).toBe(503);
    expect(JSON.parse(early.body)).toMatchObject({ ready: false });
    await gateway.stderrMatching(/upstream "silent" gave no answer within the start timeout/);
    const ready = await get(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({
      ready: true,
      servers: [
        { name: 'memory', state: 'up' },
        { name: 'silent', state: 'failed', reason: 'upstream "silent" gave no answer within the start timeout (8000 ms)' },
      ],
    });
    // Metrics are opt-in.
    expect((await get(`${base}/metrics`)).status).toBe(404);
  });

  it('/metrics (rc metrics: true) counts calls, errors and latency per server and tool, sessions, list_changed and tokens per mode, to the operator token only', async () => {
    const token = 'metrics-token-19';
    const operator = 'operator-token-35';
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const dir = tempTree({ 'package.json': '{}' });
    writeFileSync(
      path.join(dir, '.lazytoolsrc.json'),
      JSON.stringify({
        servers: { kitchen: { command: process.execPath, args: [KITCHEN] } },
        auth: { tokens: { ops: { sha256: sha256(token), modes: ['all', 'debugging'] } }, operator: { sha256: sha256(operator) } },
        metrics: true,
        strategy: 'notify',
      }),
    );
    const gateway = await serveHttpCli([], { cwd: dir });
    const base = gateway.url.replace(/\/mcp$/, '');
    expect((await get(`${base}/metrics`)).status).toBe(401);
    expect((await get(`${base}/healthz`)).status).toBe(200);
    // A mode token does not see past its modes: every server's state and every token's calls are not its to read.
    for (const endpoint of ['metrics', 'readyz']) expect((await get(`${base}/${endpoint}`, token)).status).toBe(403);
    // 503 while the server is still starting, else 200: either way, answered.
    expect([200, 503]).toContain((await get(`${base}/readyz`, operator)).status);
    for (const endpoint of ['metrics', 'readyz', 'healthz']) {
      const posted = await fetch(`${base}/${endpoint}`, { method: 'POST', headers: { authorization: `Bearer ${operator}` }, body: '{}' });
      expect([endpoint, posted.status, posted.headers.get('allow')]).toEqual([endpoint, 405, 'GET, HEAD']);
    }
    const client = new Client({ name: 'metrics', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      await client.callTool({ name: 'test_simple_text', arguments: {} });
      await client.callTool({ name: 'test_simple_text', arguments: {} });
      const failed = (await client.callTool({ name: 'test_error_handling', arguments: {} })) as { isError?: boolean };
      expect(failed.isError).toBe(true);
      const metrics = await get(`${base}/metrics`, operator);
      expect(metrics.status).toBe(200);
      expect(metrics.type).toContain('text/plain');
      expect(metrics.body).toContain('lazytools_tool_calls_total{server="kitchen",tool="test_simple_text"} 2');
      expect(metrics.body).toContain('lazytools_tool_calls_total{server="kitchen",tool="test_error_handling"} 1');
      expect(metrics.body).toContain('lazytools_tool_call_errors_total{server="kitchen",tool="test_error_handling"} 1');
      expect(metrics.body).not.toContain('lazytools_tool_call_errors_total{server="kitchen",tool="test_simple_text"}');
      expect(metrics.body).toContain('lazytools_tool_call_duration_seconds_count{server="kitchen",tool="test_simple_text"} 2');
      expect(metrics.body).toMatch(/lazytools_tool_call_duration_seconds_bucket\{le="\+Inf",server="kitchen",tool="test_simple_text"\} 2/);
      expect(metrics.body).toContain('lazytools_sessions 1');
      expect(metrics.body).toMatch(/lazytools_visible_tokens\{mode="all"\} \d+/);
      expect(metrics.body).toContain('lazytools_server_up{server="kitchen"} 1');
      expect(metrics.body).toContain('lazytools_list_changed_sent_total 0');
    } finally {
      await client.close();
    }
  });
});

describe('server names on the operator endpoints', () => {
  it('/readyz and /metrics describe a server named with a token, as logs and errors do, and show an ordinary name like hf_hub as it is', async () => {
    const token = `ghp_${randomBytes(18).toString('hex')}`;
    const described = `<a ${token.length}-character name that looks like a secret, not shown>`;
    const { dir } = rcProject({
      servers: { hf_hub: { command: process.execPath, args: [KITCHEN] }, [token]: { command: process.execPath, env: { A: '${LT_UNSET_READYZ_NAME}' } } },
      defaultMode: 'all',
      metrics: true,
    });
    const gateway = await serveHttpCli([], { cwd: dir });
    const base = gateway.url.replace(/\/mcp$/, '');
    const client = new Client({ name: 'readyz-names', version: '1.0.0' });
    // The first request waits for the initial starts to settle.
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      await client.callTool({ name: 'test_simple_text', arguments: {} });
      const ready = await get(`${base}/readyz`);
      expect(ready.body).not.toContain(token.slice(4));
      expect(JSON.parse(ready.body)).toEqual({
        ready: true,
        servers: [
          { name: `${described} #${createHash('sha256').update(token).digest('hex').slice(0, 8)}`, state: 'failed', reason: `upstream "${described}" is disabled: servers.${described}.env.A: environment variable LT_UNSET_READYZ_NAME is not set (referenced as \${LT_UNSET_READYZ_NAME})` },
          { name: 'hf_hub', state: 'up' },
        ],
      });
      const metrics = (await get(`${base}/metrics`)).body;
      expect(metrics).not.toContain(token.slice(4));
      // A label tells two such servers apart by a digest suffix (8 hex digits of sha256), never the name.
      expect(metrics).toContain(`lazytools_server_up{server="${described} #${createHash('sha256').update(token).digest('hex').slice(0, 8)}"} 0`);
      expect(metrics).toContain('lazytools_server_up{server="hf_hub"} 1');
      expect(metrics).toContain('lazytools_tool_calls_total{server="hf_hub",tool="test_simple_text"} 1');
      expect(gateway.stderr()).not.toContain(token.slice(4));
    } finally {
      await client.close();
    }
  });
});

describe('metrics by flag', () => {
  it('serve --metrics counts list_changed sent on a focus switch', async () => {
    const { dir } = rcProject({ servers: { kitchen: { command: process.execPath, args: [KITCHEN] } }, defaultMode: 'all', strategy: 'notify' });
    const gateway = await serveHttpCli(['--metrics'], { cwd: dir });
    const base = gateway.url.replace(/\/mcp$/, '');
    const client = new Client({ name: 'metrics-flag', version: '1.0.0' });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      await client.listTools();
      expect((await get(`${base}/metrics`)).body).toContain('lazytools_list_changed_sent_total 0');
      await client.callTool({ name: 'focus_mode', arguments: { mode: 'debugging' } });
      await changed;
      expect((await get(`${base}/metrics`)).body).toContain('lazytools_list_changed_sent_total 1');
    } finally {
      await client.close();
    }
  });
});
