import { spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { LockFile } from '../../src/catalog/lock.js';
import { alive, BIN, childPids, deferred, EventCounter, FIXTURES, referenceRc, text, waitFor, runCli, rcProject, cliStdio, tempTree } from '../harness/index.js';

const KITCHEN_SINK = FIXTURES.kitchenSink;

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

async function gatewayClient(dir: string, args: string[] = []) {
  const transport = new StdioClientTransport(cliStdio(['serve', ...args], { cwd: dir, stderr: 'pipe' }));
  const log = logWatcher();
  transport.stderr?.on('data', log.push);
  const client = new Client({ name: 'lock-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid!, stderr: () => log.text, logged: log.logged };
}

/** Collects a gateway's stderr and waits for a log line (an event, not a time). */
function logWatcher() {
  let text = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  return {
    get text() {
      return text;
    },
    push: (chunk: Buffer) => {
      text += chunk.toString();
      for (const waiter of waiters.splice(0)) {
        if (waiter.pattern.test(text)) waiter.resolve();
        else waiters.push(waiter);
      }
    },
    logged: (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        if (pattern.test(text)) resolve();
        else waiters.push({ pattern, resolve });
      }),
  };
}

/** The gateway logs one "<server>: N tools" line per upstream it started. */
const THREE_STARTED = /(?=[\s\S]*everything: \d+ tools)(?=[\s\S]*filesystem: \d+ tools)(?=[\s\S]*memory: \d+ tools)/;

describe('lazytools lock', () => {
  it('writes a sorted lock with a hash per server, then --check finds drift', () => {
    const { dir } = referenceRc();
    const written = cli(['lock'], dir);
    expect(written.code).toBe(0);
    expect(written.stderr).toMatch(/everything: \d+ tools/);
    expect(written.stderr).toMatch(/wrote .*lazytools\.lock\.json \(\d+ tools from 3 servers\)/);
    // Stopping the servers it listed is no failure of theirs: the everything server's roots request,
    // sent 350 ms after initialize, met the closing process ("Failed to send response", upstream.ts).
    expect(written.stderr).not.toMatch(/^warning:/m);
    const file = path.join(dir, 'lazytools.lock.json');
    const lock = JSON.parse(readFileSync(file, 'utf8')) as LockFile;
    expect(Object.keys(lock.servers)).toEqual(['everything', 'filesystem', 'memory']);
    const names = lock.servers.memory!.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(lock.servers.memory!.hash).toMatch(/^sha256-/);
    // Placement cached for every tool, groups under the rc's groups (a gateway on the lock skips scoring).
    expect(lock.placement.groups).toEqual(expect.any(String));
    for (const [server, entry] of Object.entries(lock.servers))
      expect(Object.keys(lock.placement.servers[server] ?? {}).sort()).toEqual(entry.tools.map((t) => t.name).sort());
    expect(lock.placement.servers.memory!.read_graph!.groups!.length).toBeGreaterThan(0);

    expect(cli(['lock', '--check'], dir).code).toBe(0);
    lock.servers.memory!.tools = lock.servers.memory!.tools.filter((t) => t.name !== 'read_graph');
    lock.servers.memory!.tools[0]!.description = 'changed';
    lock.servers.memory!.tools.push({ name: 'gone_tool', inputSchema: { type: 'object' } });
    writeFileSync(file, JSON.stringify(lock));
    const drift = cli(['lock', '--check'], dir);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('added   memory:read_graph');
    expect(drift.stdout).toContain('removed memory:gone_tool');
    expect(drift.stdout).toMatch(/changed memory:\w+/);
    expect(drift.stderr).toContain('is out of date (1 added, 1 removed, 1 changed)');
  });

  it('an unset ${VAR} is a config error: exit 2 naming the file and each key path, no server contacted, nothing written', () => {
    // It was a server "it could not reach", exit 1, like one that is down: the rc was wrong, not the server.
    const { dir, file } = rcProject({
      servers: {
        billing: { command: process.execPath, args: [KITCHEN_SINK], env: { BILLING_TOKEN: '${BILLING_TOKEN}' } },
        wiki: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${WIKI_TOKEN}' } },
        docs: { command: process.execPath, args: [KITCHEN_SINK] },
      },
    });
    for (const args of [['lock'], ['lock', '--out', 'other.lock.json']]) {
      const locked = runCli(args, { cwd: dir, env: { BILLING_TOKEN: '', WIKI_TOKEN: '' } });
      expect(locked.code).toBe(2);
      expect(locked.stdout).toBe('');
      expect(locked.stderr).toContain(`lazytools lock: ${file}: 2 servers cannot be started:`);
      expect(locked.stderr).toContain('servers.billing.env.BILLING_TOKEN: environment variable BILLING_TOKEN is not set');
      expect(locked.stderr).toContain('servers.wiki.headers.Authorization: environment variable WIKI_TOKEN is not set');
      for (const name of ['BILLING_TOKEN', 'WIKI_TOKEN']) expect(locked.stderr.split(`environment variable ${name} is not set`)).toHaveLength(2);
      // Said before any server was started: the reachable one was not contacted either.
      expect(locked.stderr).not.toMatch(/connecting|could not reach|\n\s+at /);
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock.json'))).toEqual([]);
    const one = runCli(['lock'], { cwd: dir, env: { BILLING_TOKEN: 'set-for-this-run', WIKI_TOKEN: '' } });
    expect(one.code).toBe(2);
    expect(one.stderr.trimEnd()).toBe(`lazytools lock: ${file}: servers.wiki.headers.Authorization: environment variable WIKI_TOKEN is not set (referenced as \${WIKI_TOKEN})`);
    writeFileSync(path.join(dir, 'lazytools.lock.json'), '{}');
    expect(runCli(['lock', '--check'], { cwd: dir, env: { BILLING_TOKEN: '', WIKI_TOKEN: '' } }).code).toBe(2);
  });

  it('lets status and check run from the lock without --catalog', () => {
    const { dir } = referenceRc();
    expect(cli(['status', '--json'], dir).code).toBe(2);
    expect(cli(['status', '--json'], dir).stderr).toContain('run `lazytools lock`');
    expect(cli(['lock'], dir).code).toBe(0);
    const status = cli(['status', '--json'], dir);
    expect(status.code).toBe(0);
    const all = (JSON.parse(status.stdout) as { modes: Array<{ name: string; tools: number }> }).modes.find((m) => m.name === 'all');
    expect(all?.tools).toBeGreaterThanOrEqual(36);
    expect(cli(['check'], dir).code).toBe(0);
  });

  it('serves from the lock with no upstream process until a call needs one', async () => {
    const { dir } = referenceRc({ defaultMode: 'debugging' });
    expect(cli(['lock'], dir).code).toBe(0);
    const { client, pid } = await gatewayClient(dir);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(childPids(pid)).toEqual([]);
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'lazy' } }))).toBe('Echo: lazy');
    expect(childPids(pid)).toHaveLength(1);
    await client.close();
  });
});

describe('the lock records what a server offers besides tools', () => {
  for (const [label, flags, era] of [
    ['a 2025 server', [], 'legacy'],
    ['a 2026-07-28-only server', ['--modern-only'], 'modern'],
  ] as const) {
    it(`serves the prompts, resources and instructions of ${label} before starting it, and starts it on the first call that needs it`, async () => {
      const { dir } = rcProject({ servers: { kitchen: { command: process.execPath, args: [KITCHEN_SINK, ...flags] } }, defaultMode: 'all' });
      expect(cli(['lock'], dir).code).toBe(0);
      const lock = JSON.parse(readFileSync(path.join(dir, 'lazytools.lock.json'), 'utf8')) as { servers: Record<string, Record<string, unknown>> };
      const entry = lock.servers.kitchen ?? {};
      expect((entry.protocol as { era?: string }).era).toBe(era);
      expect(Object.keys(entry.capabilities as object)).toEqual(expect.arrayContaining(['prompts', 'resources', 'tools']));
      expect(entry.instructions).toContain('exercises every MCP primitive');

      const { client, pid } = await gatewayClient(dir);
      expect(client.getServerCapabilities()?.prompts).toBeDefined();
      expect(client.getInstructions()).toContain('## kitchen');
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('test://static-text');
      expect(childPids(pid)).toEqual([]);
      const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
      expect(childPids(pid)).toHaveLength(1);
      await client.close();
    });
  }
});

describe('resilience', () => {
  it('ends a call that runs past the server timeout with isError', async () => {
    const { dir, file } = referenceRc({ defaultMode: 'debugging' });
    const rc = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, Record<string, unknown>> };
    // Every request to the server has this limit (the echo below too): 2 s leaves a loaded machine
    // room for those, and is a tenth of the 20 s operation and half its 4 s between progress steps.
    rc.servers.everything!.timeout = 2_000;
    writeFileSync(file, JSON.stringify(rc));
    const { client } = await gatewayClient(dir);
    const started = Date.now();
    const result = (await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 20, steps: 5 } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('"trigger-long-running-operation" on upstream "everything" timed out after 2000 ms');
    // The operation takes 20 s: an answer before that is the gateway's own (no tight bound on a busy machine).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'still here' } }))).toBe('Echo: still here');
    await client.close();
  });

  it.each(['stdin', 'SIGTERM', 'SIGINT'])('leaves no orphan upstream when the gateway ends by %s', async (how) => {
    const { dir } = referenceRc();
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const log = logWatcher();
    child.stderr.on('data', log.push);
    await log.logged(THREE_STARTED);
    const upstreams = childPids(child.pid!);
    expect(upstreams).toHaveLength(3);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    if (how === 'stdin') child.stdin.end();
    else child.kill(how as NodeJS.Signals);
    expect(await exited).toBe(0);
    // Grandchildren have no exit event to wait on: poll /proc.
    expect(await waitFor(() => upstreams.every((p) => !alive(p)), 20_000)).toBe(true);
    expect(log.text).not.toContain('unhandled');
  });
});

describe('a client that goes away', () => {
  it('ends the session on EPIPE instead of crashing, stops its upstreams and exits 0', async () => {
    const { dir } = referenceRc();
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const log = logWatcher();
    child.stderr.on('data', log.push);
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n');
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await log.logged(THREE_STARTED);
    const upstreams = childPids(child.pid!);
    expect(upstreams).toHaveLength(3);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout.destroy();
    for (let i = 2; i < 20; i++) child.stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"tools/list"}\n`);
    expect(await exited).toBe(0);
    expect(await waitFor(() => upstreams.every((p) => !alive(p)), 20_000)).toBe(true);
    expect(log.text).not.toMatch(/Unhandled 'error' event|EPIPE\n\s+at /);
  });
});

describe('lazy upstreams', () => {
  it('lets the live list win over the lock and tells the session', async () => {
    const { dir } = referenceRc({ defaultMode: 'all' });
    expect(cli(['lock'], dir).code).toBe(0);
    const file = path.join(dir, 'lazytools.lock.json');
    const lock = JSON.parse(readFileSync(file, 'utf8')) as LockFile;
    lock.servers.everything!.tools = lock.servers.everything!.tools.filter((t) => t.name !== 'get-sum');
    lock.servers.everything!.tools.push({ name: 'retired_tool', description: 'Gone upstream.', inputSchema: { type: 'object' } });
    writeFileSync(file, JSON.stringify(lock));
    const { client } = await gatewayClient(dir);
    const notified = new EventCounter();
    client.setNotificationHandler(ToolListChangedNotificationSchema, notified.hit);
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toContain('retired_tool');
    expect(before).not.toContain('get-sum');
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'wake up' } }))).toBe('Echo: wake up');
    await notified.reached(1);
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).toContain('get-sum');
    expect(after).not.toContain('retired_tool');
    await client.close();
  });

  it('stops an idle upstream and restarts it on the next call', async () => {
    const { dir, file } = referenceRc({ defaultMode: 'debugging' });
    const rc = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, Record<string, unknown>> };
    rc.servers.everything!.idleTimeout = 300;
    writeFileSync(file, JSON.stringify(rc));
    const { client, pid, logged } = await gatewayClient(dir);
    // Three upstreams start with the gateway; everything may stop and come back at any time.
    const count = 3;
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'one' } }))).toBe('Echo: one');
    await logged(/everything: idle for \d+ s, stopping/);
    // The child's exit has no event here: poll /proc.
    expect(await waitFor(() => childPids(pid).length === count - 1, 20_000)).toBe(true);
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'two' } }))).toBe('Echo: two');
    // Counted while a call runs (progress proves it), when no idle stop can happen.
    const running = deferred<number>();
    const working = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 2 } }, undefined, { onprogress: () => running.resolve(childPids(pid).length) });
    expect(await running.promise).toBe(count);
    expect(((await working) as CallToolResult).isError).toBeFalsy();
    await client.close();
  });

  it('serves one fixed mode with serve --mode, and refuses an unknown one', async () => {
    const { dir } = referenceRc();
    const { client } = await gatewayClient(dir, ['--mode', 'security_review']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('focus_mode');
    expect(names).toContain('search_tools');
    expect(names).not.toContain('write_file');
    await client.close();
    const bad = cli(['serve', '--mode', 'securty'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode: Unknown mode "securty". Did you mean "security_review"');
  });
});

describe('writing the lock', () => {
  it('replaces a lock that is a link (one committed as lazytools.lock.json -> ~/.bashrc), never writing through it', () => {
    const { dir } = rcProject({ servers: { kitchen: { command: process.execPath, args: [KITCHEN_SINK] } } });
    const victim = path.join(tempTree({ '.bashrc': 'export PATH=$HOME/bin:$PATH\n' }), '.bashrc');
    const lock = path.join(dir, 'lazytools.lock.json');
    symlinkSync(victim, lock);
    const run = cli(['lock'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('export PATH=$HOME/bin:$PATH\n');
    expect(lstatSync(lock).isFile()).toBe(true);
    expect((JSON.parse(readFileSync(lock, 'utf8')) as LockFile).servers.kitchen?.tools.length).toBeGreaterThan(0);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

