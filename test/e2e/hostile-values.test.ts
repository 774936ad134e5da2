import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REFERENCE_CATALOG, tempTree } from '../harness/index.js';

/**
 * Bounded work per value: a hostile upstream (test/fixtures/hostile/hostile-server.mjs)
 * and hostile rc globs, through the built CLI over real HTTP. Each test shows that another client
 * is answered within 1 s (or 20 plain pings' time on a machine busy enough to need more) while the
 * hostile value is handled (on the old main each held the event loop from 77 s to minutes, or
 * broke tools/list for every server).
 */

const HOSTILE = FIXTURES.hostileServer;
const RAW = FIXTURES.rawServer;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Many `*` over ids: a backtracking RegExp of `.*` runs takes minutes on this. */
const STARRY = `*${'a*'.repeat(22)}z`;

/** An rc fronting the hostile server and a healthy one; `only` keeps the listing-breaking values out. */
function rc(only = false): string {
  const dir = tempTree({ 'package.json': '{}' });
  const file = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(
    file,
    JSON.stringify({
      servers: { hostile: { command: process.execPath, args: [HOSTILE], env: only ? { HOSTILE_ONLY: '1' } : {} }, raw: { command: process.execPath, args: [RAW] } },
      groups: { starry: { tools: [STARRY] }, searching: { tools: ['*:search_*'] } },
      defaultMode: 'all',
      strategy: 'hybrid',
    }),
  );
  return file;
}

/** `lazytools serve --http 127.0.0.1:0` as a child: its event loop is not the test's. */
async function gateway(file: string): Promise<{ url: string; stderr: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--config', file, '--http', '127.0.0.1:0'], { cwd: path.dirname(file), env: { ...process.env, NO_COLOR: '1', LAZYTOOLS_QUIET: '' } });
  cleanups.push(() => {
    child.kill();
    return new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { url, stderr: () => stderr, child };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bounds', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

/** Lists until `names` are in (upstreams start, and re-list, in the background). */
async function listed(client: Client, names = ['hostile_ok', 'raw_ok']): Promise<string[]> {
  for (;;) {
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    if (names.every((name) => listed.includes(name))) return listed;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Has the hostile server list its 200,000-character description, and waits until it is in. */
async function grow(client: Client): Promise<string[]> {
  await client.callTool({ name: 'grow', arguments: {} });
  return listed(client, ['long_description']);
}

/** How long one ping from `client` takes. */
async function timedPing(client: Client): Promise<number> {
  const started = performance.now();
  await client.ping();
  return performance.now() - started;
}

/**
 * Runs `hostile` and, once it is under way, times a ping from another client; `limitMs` is what
 * that ping may take: 1 s, or more when a ping with nothing hostile running was already slow (a
 * busy machine). A handler that holds the event loop does so for 77 s to minutes, far past either.
 */
async function otherClientWaits<T>(other: Client, hostile: () => Promise<T>): Promise<{ result: T | Error; pingMs: number; limitMs: number }> {
  const limitMs = Math.max(1_000, 20 * (await timedPing(other)));
  const running = hostile().catch((error: unknown) => error as Error);
  const pingMs = await timedPing(other);
  return { result: await running, pingMs, limitMs };
}

describe('no single upstream value blocks or breaks the gateway', () => {
  it('tools/list in "all" keeps the healthy tools; the 20,000-level schema and the 320 KB name are dropped and reported', async () => {
    const { url, stderr } = await gateway(rc());
    const a = await connect(url);
    await listed(a);
    const names = await grow(a);
    expect(names).toEqual(expect.arrayContaining(['raw_ok', 'non_object', 'hostile_ok', 'long_description', 'flood_prompts']));
    expect(names).not.toContain('deep');
    expect(names.every((name) => name.length < 300)).toBe(true);
    expect(stderr()).toMatch(/hostile: tool "deep" left out: its definition is nested more than 64 levels deep/);
    expect(stderr()).toMatch(/hostile: tool ":search_:search_.*" left out: its name has 320000 characters/);
    const long = (await a.listTools()).tools.find((tool) => tool.name === 'long_description');
    expect(long?.description?.length).toBeLessThanOrEqual(16 * 1024 + 60);
    // Upstream instructions are cut per server: 2 MB came in (a session opened now has them).
    const later = await connect(url);
    expect(later.getInstructions()).toMatch(/Hostile instructions\. i+… \[instructions cut by lazytools at 4096 characters\]/);
    expect(later.getInstructions()?.length).toBeLessThan(12 * 1024);
  });

  it('resources/read of a near-miss URI against 12 adjacent template variables answers at once, and so does everyone else', async () => {
    const { url } = await gateway(rc(true));
    const [a, b] = [await connect(url), await connect(url)];
    await listed(a);
    const { result, pingMs, limitMs } = await otherClientWaits(b, () => a.readResource({ uri: `t://${'a'.repeat(40)}` }));
    expect(String(result)).toMatch(/Resource not found/);
    expect(pingMs).toBeLessThan(limitMs);
    expect((await a.readResource({ uri: `t://${'a'.repeat(40)}x` })).contents[0]).toMatchObject({ text: 'read' });
  });

  it('focus_mode status over a 200,000-character description answers at once, and so does everyone else', async () => {
    const { url } = await gateway(rc(true));
    const [a, b] = [await connect(url), await connect(url)];
    await listed(a);
    // The tokenizer's tables load on first use (a one-off pause): load them before the hostile value comes.
    await a.callTool({ name: 'focus_mode', arguments: { status: true } });
    await grow(a);
    const { result, pingMs, limitMs } = await otherClientWaits(b, () => a.callTool({ name: 'focus_mode', arguments: { status: true } }));
    expect(pingMs).toBeLessThan(limitMs);
    expect((result as CallToolResult).structuredContent).toMatchObject({ mode: 'all' });
  });
});

describe('rc globs with many "*"', () => {
  it('status over a real catalog answers (a backtracking RegExp ran past 60 s)', () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ groups: { starry: { tools: [STARRY, `*:${'*'.repeat(30)}x`] } } }) });
    const run = spawnSync(process.execPath, [BIN, 'status', '--catalog', REFERENCE_CATALOG, '--json'], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).modes.length).toBeGreaterThan(0);
  });
});

describe('upstream list changes are coalesced for prompts and resources as for tools', () => {
  it('2,000 prompts/list_changed cause at most two re-lists (6,003 list requests before), and the client hears of the change', async () => {
    const { url } = await gateway(rc(true));
    const a = await connect(url);
    await listed(a);
    let heard!: () => void;
    const changed = new Promise<void>((resolve) => (heard = resolve));
    a.setNotificationHandler(PromptListChangedNotificationSchema, () => heard());
    const count = async () => Number(((await a.callTool({ name: 'prompt_lists', arguments: {} })) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join(''));
    const before = await count();
    await a.callTool({ name: 'flood_prompts', arguments: {} });
    expect((await count()) - before).toBeLessThanOrEqual(2);
    await changed;
    expect((await count()) - before).toBeLessThanOrEqual(2);
    expect((await a.listPrompts()).prompts.map((p) => p.name)).toContain('hello');
  });
});
