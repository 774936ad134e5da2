import { createMCPClient } from '@ai-sdk/mcp';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EventCounter, FIXTURES, referenceRc, serveHttpCli, serverEntry, stopAll, cliStdio } from '../harness/index.js';

/**
 * A fresh gateway without a lock listens at once, but its first answers wait for the
 * upstreams' initial start: every client's FIRST tools/list holds the upstream tools, whatever
 * its era, and no session hears a list_changed for the initial start. Each test starts its own
 * gateway process and connects as soon as it listens (before the upstreams are up).
 */
afterEach(() => stopAll());

const UPSTREAM_TOOLS = ['echo', 'create_entities', 'read_text_file'];

/**
 * A start timeout the silent fixture's stderr line beats on a busy machine: 5 s, or ten times what
 * starting it and hearing that line takes here now. With 1.5 s, under two suites on 2 cores, the
 * line came after the timeout (or the gateway, busy starting, read its pipe after the timer fired),
 * the message lacked it and the test waited for a line that never came.
 */
async function silentStartTimeout(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [FIXTURES.silent], { env: { ...process.env, SILENT_STDERR: 'up' }, stdio: ['pipe', 'ignore', 'pipe'] });
  try {
    await once(child.stderr, 'data');
    return Math.max(5_000, Math.ceil((10 * (performance.now() - started)) / 100) * 100);
  } finally {
    child.kill();
  }
}

describe('complete first answers', () => {
  it('2025 and pinned 2026-07-28 v2 clients and @ai-sdk/mcp, connecting at once over HTTP, get every upstream tool in their first tools/list', async () => {
    const { dir } = referenceRc({ defaultMode: 'all' });
    const gateway = await serveHttpCli([], { cwd: dir });
    const changes = new EventCounter();
    const legacy = new Client({ name: 'first-2025', version: '1.0.0' });
    legacy.setNotificationHandler('notifications/tools/list_changed', changes.hit);
    const modern = new Client({ name: 'first-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const [, , aisdk] = await Promise.all([
      legacy.connect(new StreamableHTTPClientTransport(new URL(gateway.url))),
      modern.connect(new StreamableHTTPClientTransport(new URL(gateway.url))),
      createMCPClient({ transport: { type: 'http', url: gateway.url } }),
    ]);
    try {
      const [first2025, first2026, firstAi] = await Promise.all([legacy.listTools(), modern.listTools(), aisdk.listTools()]);
      for (const list of [first2025, first2026, firstAi]) expect(list.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(UPSTREAM_TOOLS));
      expect(modern.getProtocolEra()).toBe('modern');
      // The benchmark harness's walk: list once, call echo.
      const echoed = (await legacy.callTool({ name: 'echo', arguments: { message: 'first' } })) as { content: Array<{ text: string }> };
      expect(echoed.content[0]?.text).toContain('first');
      const again = await legacy.listTools();
      expect(again.tools.length).toBe(first2025.tools.length);
      expect(changes.count).toBe(0);
    } finally {
      await Promise.allSettled([legacy.close(), modern.close(), aisdk.close()]);
    }
  });

  it('over stdio, the first tools/list holds every upstream tool and no list_changed follows', async () => {
    const { dir, file } = referenceRc({ defaultMode: 'all' });
    const changes = new EventCounter();
    const client = new Client({ name: 'first-stdio', version: '1.0.0' });
    client.setNotificationHandler('notifications/tools/list_changed', changes.hit);
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--config', file], { cwd: dir })));
    try {
      const first = await client.listTools();
      expect(first.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(UPSTREAM_TOOLS));
      await client.callTool({ name: 'echo', arguments: { message: 'x' } });
      expect(changes.count).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('a server that never answers initialize is given up after its start timeout; the others serve, and focus_mode and the log say why', async () => {
    const { dir, file } = referenceRc({ defaultMode: 'all' });
    const rc = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as { servers: Record<string, unknown> };
    const startTimeout = await silentStartTimeout();
    rc.servers = {
      memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
      silent: { command: process.execPath, args: [FIXTURES.silent], startTimeout, env: { SILENT_STDERR: 'getaddrinfo ENOTFOUND mcp.example.test' } },
    };
    writeFileSync(file, JSON.stringify(rc));
    const gateway = await serveHttpCli([], { cwd: dir });
    const client = new Client({ name: 'first-silent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      const first = await client.listTools();
      expect(first.tools.map((tool) => tool.name)).toContain('create_entities');
      // What it wrote on stderr while it kept the start waiting says why.
      const [given] = await gateway.stderrMatching(/upstream "silent" gave no answer within the start timeout[^]*?; serving the other servers without it/);
      expect(given).toBe(`upstream "silent" gave no answer within the start timeout (${startTimeout} ms); its stderr said:\ngetaddrinfo ENOTFOUND mcp.example.test; serving the other servers without it`);
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as { content: Array<{ text: string }> };
      expect(status.content[0]?.text).toMatch(/Servers down: silent \(upstream "silent" gave no answer within the start timeout/);
    } finally {
      await client.close();
    }
  });
});

describe('one server\'s problem stays that server\'s', () => {
  it('an unset ${VAR} in one server disables that server with the error on stderr and in focus_mode; the others serve', async () => {
    const { dir, file } = referenceRc({ defaultMode: 'all' });
    const rc = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as { servers: Record<string, unknown> };
    rc.servers = {
      memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
      needy: { command: process.execPath, args: [serverEntry('memory')], env: { API_TOKEN: '${LT_TEST_UNSET_19}' } },
    };
    writeFileSync(file, JSON.stringify(rc));
    const env = { ...process.env };
    delete env.LT_TEST_UNSET_19;
    const gateway = await serveHttpCli([], { cwd: dir, env });
    const client = new Client({ name: 'unset-var', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_entities');
      await gateway.stderrMatching(/upstream "needy" is disabled: .*servers\.needy\.env\.API_TOKEN: environment variable LT_TEST_UNSET_19 is not set/);
      const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as { content: Array<{ text: string }> };
      expect(status.content[0]?.text).toMatch(/Servers down: needy \(upstream "needy" is disabled: .*LT_TEST_UNSET_19 is not set/);
    } finally {
      await client.close();
    }
  });
});
