import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { EventCounter, serverEntry, text, rcProject, cliStdio } from '../harness/index.js';

const MODERN = '2026-07-28';
const VARIANT = 'io.modelcontextprotocol/server-variant';

function rc(extraModes: Record<string, unknown> = {}) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
    groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true } },
    modes: {
      notes: { description: 'Write and read knowledge graph notes', groups: ['notes'] },
      audit: { description: 'Read-only audit of the knowledge graph', aliases: ['audit'], groups: ['reading'], readOnly: true },
      ...extraModes,
    },
    defaultMode: 'notes',
    variants: { enabled: true },
  };
}

function project(): { dir: string; file: string } {
  const { dir, file } = rcProject(rc());
  return { dir, file };
}

const env = () => ({ ...process.env, LAZYTOOLS_QUIET: '1' }) as Record<string, string>;
const open: Array<{ close(): Promise<void> }> = [];

async function modern(args: string[], dir: string) {
  const client = new Client({ name: 'modern-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StdioClientTransport(cliStdio(['serve', ...args], { cwd: dir, env: env(), stderr: 'inherit' })));
  open.push(client);
  return client;
}

describe('the 2026-07-28 front over stdio (the opening message picks the era)', () => {
  afterAll(async () => {
    await Promise.allSettled(open.map((client) => client.close()));
  });

  it('serves a pinned client: discover, list, call, variant, and a list change on rc reload over subscriptions/listen', async () => {
    const { dir, file } = project();
    const client = await modern(['--watch'], dir);
    expect(client.getDiscoverResult()?.supportedVersions).toEqual([MODERN]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('create_entities');
    expect(names[0]).toBe('focus_mode');
    const audit = await client.callTool({ name: 'create_entities', arguments: { entities: [] }, _meta: { [VARIANT]: 'audit' } });
    expect(audit.isError).toBe(true);
    expect(text(audit)).toContain('read-only');
    const read = await client.callTool({ name: 'read_graph', arguments: {}, _meta: { [VARIANT]: 'audit' } });
    expect(read.isError).toBeFalsy();

    const changes = new EventCounter();
    client.setNotificationHandler('notifications/tools/list_changed', changes.hit);
    const subscription = await client.listen({ toolsListChanged: true });
    writeFileSync(file, JSON.stringify(rc({ extra: { description: 'Another mode', groups: ['reading'] } })));
    await changes.reached(1);
    const answer = await client.callTool({ name: 'focus_mode', arguments: { mode: 'extra' } });
    expect((answer.structuredContent as { reach: { command?: string; variant?: string } }).reach).toEqual({ variant: 'extra', command: 'lazytools serve --mode extra' });
    await subscription.close();
  });

  it('serve --mode fixes the mode for a modern client: no focus_mode, a forged variant is refused', async () => {
    const { dir } = project();
    const client = await modern(['--mode', 'audit'], dir);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('focus_mode');
    expect(names).not.toContain('create_entities');
    await expect(client.callTool({ name: 'read_graph', arguments: {}, _meta: { [VARIANT]: 'notes' } })).rejects.toThrow(/only mode\(s\) audit/);
    await expect(client.callTool({ name: 'read_graph', arguments: {}, _meta: { [VARIANT]: { toString: 'x' } } })).rejects.toThrow(/Unknown server variant/);
  });

  it('serve --mode --watch ends a modern connection whose fixed mode the rc no longer has', async () => {
    const { dir, file } = project();
    const client = await modern(['--mode', 'audit', '--watch'], dir);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_graph');
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    const { audit: _gone, ...rest } = rc().modes;
    writeFileSync(file, JSON.stringify({ ...rc(), modes: rest }));
    await closed;
  });

  it('an initialize opening still gets the legacy session (focus_mode switches its list)', async () => {
    const { dir } = project();
    const client = new LegacyClient({ name: 'legacy-stdio', version: '1.0.0' });
    await client.connect(new LegacyStdio(cliStdio(['serve'], { cwd: dir, env: env(), stderr: 'inherit' })));
    open.push(client);
    const switched = await client.callTool({ name: 'focus_mode', arguments: { mode: 'audit' } });
    expect(switched.isError).toBeFalsy();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('create_entities');
  });
});
