import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, serveHttpCli, serverEntry, startCli, stopAll, tempTree } from '../harness/index.js';

/**
 * Partial locks: `lock` writes the servers it reached and lists the others with the
 * reason (exit 1); `check` warns about rc servers the lock lacks (exit 1 with --strict); the
 * gateway starts the missing ones at boot, as without a lock, and its first list holds them.
 */
afterEach(() => stopAll());

const KITCHEN = FIXTURES.kitchenSink;

describe('partial locks', () => {
  it('lock writes the reachable servers, names the unreachable ones with why; check warns; serve starts the missing one at boot', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const late = path.join(dir, 'late.mjs');
    const rc = (extra: Record<string, unknown>) =>
      JSON.stringify({
        servers: {
          memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
          // Not there at first: node exits at once.
          kitchen: { command: process.execPath, args: [late] },
          ...extra,
        },
        defaultMode: 'all',
      });
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), rc({ silent: { command: process.execPath, args: [FIXTURES.silent], startTimeout: 1000 } }));
    const lock = startCli(['lock'], { cwd: dir });
    expect((await lock.exited).code).toBe(1);
    expect(lock.stderr()).toContain('could not reach 2 server(s):\n  kitchen: could not start upstream "kitchen": the process exited with code 1');
    expect(lock.stderr()).toContain('\n  silent: upstream "silent" gave no answer within the start timeout (1000 ms)\n');
    expect(lock.stderr()).toMatch(/wrote .*lazytools\.lock\.json \(9 tools from 1 server\); without kitchen, silent/);
    const written = JSON.parse(readFileSync(path.join(dir, 'lazytools.lock.json'), 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(written.servers)).toEqual(['memory']);

    const check = startCli(['check'], { cwd: dir });
    expect((await check.exited).code).toBe(0);
    expect(check.stderr()).toContain('warning: server "kitchen" of');
    expect(check.stderr()).toContain('is not in the lock, so its tools are not checked');
    const strict = startCli(['check', '--strict'], { cwd: dir });
    expect((await strict.exited).code).toBe(1);

    // The missing server works now: the gateway starts it at boot and waits for it.
    writeFileSync(late, `import ${JSON.stringify(KITCHEN)};\n`);
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), rc({}));
    expect(existsSync(path.join(dir, 'lazytools.lock.json'))).toBe(true);
    const gateway = await serveHttpCli([], { cwd: dir });
    const client = new Client({ name: 'partial-lock', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['create_entities', 'test_simple_text']));
    } finally {
      await client.close();
    }
  }, 120_000);

  it('serve leaves out a locked server the rc no longer names, and says so (its tools could not be called)', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const memory = { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } };
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { memory }, defaultMode: 'all' }));
    expect((await startCli(['lock'], { cwd: dir }).exited).code).toBe(0);
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { kitchen: { command: process.execPath, args: [KITCHEN] } }, defaultMode: 'all' }));
    const gateway = await serveHttpCli([], { cwd: dir });
    const client = new Client({ name: 'partial-lock', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('test_simple_text');
      expect(names).not.toContain('create_entities');
      expect(gateway.stderr()).toMatch(/lazytools\.lock\.json: server\(s\) memory are in the lock but not in the rc: left out \(run lazytools lock to refresh it\)/);
    } finally {
      await client.close();
    }
  }, 120_000);
});
