import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, childPids, deferred, FIXTURES, serveHttpCli, serverEntry, startCli, stopAll, tempTree, waitFor, rcProject } from '../harness/index.js';

/**
 * Process lifecycle: stdio upstreams run in their own process group, so closing one
 * ends a wrapper's children too (`sh -c "node server.mjs; echo done"` keeps a grandchild on the
 * pipes), and a signalled gateway lets the calls in flight finish before it ends the upstreams.
 */
afterEach(() => stopAll());

const LINGERING = FIXTURES.lingering;

describe('process lifecycle', () => {
  it('lock over a server wrapped in sh -c, whose grandchild outlives stdin and holds the pipes, finishes and ends the grandchild', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const pidFile = path.join(dir, 'server.pid');
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { wrapped: { command: 'sh', args: ['-c', `"${process.execPath}" "${LINGERING}" "${pidFile}"; echo done`] } } }));
    const lock = startCli(['lock'], { cwd: dir });
    // Before: only sh was signalled on close, and the grandchild kept the pipes open for ever.
    const { code } = await lock.exited;
    expect(code).toBe(0);
    expect(lock.stderr()).toContain('wrote');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitFor(() => !alive(pid), 10_000)).toBe(true);
  }, 30_000);

  it('SIGTERM lets a slow call in flight finish, ends the upstream processes and exits 0', async () => {
    const { dir } = rcProject({ servers: { everything: { command: process.execPath, args: [serverEntry('everything'), 'stdio'] } }, defaultMode: 'all' });
    const gateway = await serveHttpCli([], { cwd: dir });
    const client = new Client({ name: 'slow-call', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    const upstreams = childPids(gateway.child.pid!);
    expect(upstreams.length).toBeGreaterThan(0);
    const working = deferred();
    const call = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 4 } }, { onprogress: () => working.resolve() });
    await working.promise;
    gateway.child.kill('SIGTERM');
    const result = (await call) as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toMatch(/completed/i);
    const exit = await gateway.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    for (const pid of upstreams) expect(await waitFor(() => !alive(pid), 10_000)).toBe(true);
    await client.close().catch(() => {});
  }, 120_000);
});
