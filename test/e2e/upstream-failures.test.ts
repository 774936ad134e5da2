import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { readFileSync } from 'node:fs';
import { childPids, cleanupAfterEach, deferred, referenceRc, serverEntry, text, inMemoryClient } from '../harness/index.js';

/** This process's children running the everything reference server (Linux /proc). */
function everythingPids(): number[] {
  return childPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server-everything');
    } catch {
      return false;
    }
  });
}

const cleanups = cleanupAfterEach();

async function clientFor(gateway: Gateway) {
  return { client: await inMemoryClient((t) => gateway.createSession().connect(t), { cleanups }) };
}

describe('upstream failures', () => {
  it('ends an in-flight call with isError when the upstream dies, then restarts it on the next call', async () => {
    const { file } = referenceRc({ defaultMode: 'debugging' });
    const loaded = await loadConfig({ file });
    const gateway = new Gateway({ config: resolveConfig(loaded.config, loaded.file) });
    cleanups.push(() => gateway.close());
    const before = new Set(everythingPids());
    await gateway.start();
    const { client } = await clientFor(gateway);
    const [pid] = everythingPids().filter((p) => !before.has(p));
    expect(pid).toBeDefined();
    // The first progress notification proves the upstream is working on the call.
    const working = deferred();
    const pending = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 5 } }, undefined, { onprogress: () => working.resolve() });
    await working.promise;
    process.kill(pid!, 'SIGKILL');
    const result = (await pending) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('upstream "everything" exited while handling the call');
    const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
    expect(text(status)).toContain('Servers down: everything');
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'back' } }))).toBe('Echo: back');
  });

  it('keeps serving when an upstream cannot start', async () => {
    const config = resolveConfig({
      servers: {
        broken: { command: '/nonexistent/mcp-server' },
        memory: { command: process.execPath, args: [serverEntry('memory')] },
      },
      defaultMode: 'all',
    });
    const gateway = new Gateway({ config });
    cleanups.push(() => gateway.close());
    await gateway.start();
    expect(gateway.upstreams.get('broken')?.status).toBe('down');
    expect(gateway.upstreams.get('broken')?.lastError).toContain('command not found');
    const { client } = await clientFor(gateway);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
  });
});
