import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliStdio, FIXTURES, httpFixture, rcProject, runCli, text } from '../harness/index.js';

// Servers that still speak only the deprecated HTTP+SSE transport (GET /sse, then POSTs to the
// endpoint it announces): the v1 SDK's SSEServerTransport, in test/fixtures/remote-server.mjs
// `--sse-only` (a POST to /sse answers 404, as such servers do). A plain `url` tries Streamable
// HTTP first and falls back; rc `transport` forces either.

describe('HTTP+SSE upstreams', () => {
  let sse: { child: ChildProcess; url: string };
  const env = { LAZYTOOLS_CACHE_DIR: '' };

  beforeAll(async () => {
    sse = await httpFixture(FIXTURES.remoteServer, ['--sse-only']);
  });

  afterAll(() => {
    sse?.child.kill();
  });

  it('a plain url to an HTTP+SSE-only server locks its tools', () => {
    const project = rcProject({ servers: { legacy: { url: `${sse.url}/sse` } } });
    const run = runCli(['lock'], { cwd: project.dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('legacy: 2 tools');
    expect(run.stderr).not.toMatch(/POSTing|warning/);
    const lock = JSON.parse(readFileSync(path.join(project.dir, 'lazytools.lock.json'), 'utf8')) as { servers: Record<string, { tools: Array<{ name: string }> }> };
    expect(lock.servers.legacy?.tools.map((tool) => tool.name)).toEqual(['add', 'whoami']);
  });

  it('the gateway serves and calls its tools (a plain url, and one forced to "sse")', async () => {
    for (const transport of [undefined, 'sse'] as const) {
      const project = rcProject({ servers: { legacy: { url: `${sse.url}/sse`, ...(transport ? { transport } : {}) } }, defaultMode: 'all', strategy: 'notify' });
      const client = new Client({ name: 'sse-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: project.dir, env })));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['add', 'whoami']));
        expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
      } finally {
        await client.close();
      }
    }
  });

  it('"transport": "streamable-http" does not fall back, and says what the server answered', () => {
    const project = rcProject({ servers: { legacy: { url: `${sse.url}/sse`, transport: 'streamable-http' } } });
    const run = runCli(['lock'], { cwd: project.dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/legacy: .*Cannot POST \/sse/);
  });
});
