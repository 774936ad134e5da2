import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { readUsage, usagePath, withUsage } from '../../src/usage/record.js';
import { silentLogger } from '../../src/util/log.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp, rcProject, text } from '../harness/index.js';

/**
 * Recorded calls (rc `usage: true`) make a tool part of the mode they were recorded in (policy
 * usedInMode): after the next start or reload, that mode lists it and, under `hiddenTools:
 * reject`, runs it, also on a fixed endpoint. So a call is recorded in the mode it ran in. An
 * execute_tool call naming another mode (`mode`) ran under that mode's rules; recorded under the
 * caller's mode, it made a tool of mode "b" a member of mode "a", and `/mcp/a` with hidden tools
 * rejected then ran it (fails on the old main).
 */

const cleanups = cleanupAfterEach();

const rc = {
  usage: true,
  policy: { hiddenTools: 'reject' },
  strategy: 'hybrid',
  groups: { reading: { tools: ['app:read_*'] }, sending: { tools: ['app:send_*'] } },
  modes: { a: { groups: ['reading'] }, b: { groups: ['sending'] } },
  defaultMode: 'a',
};

/** A gateway over one in-process server, with the rc's usage record read as `serve` reads it. */
async function gatewayOf(file: string, dir: string): Promise<Gateway> {
  const loaded = await loadConfig({ file });
  const config = await withUsage(resolveConfig(loaded.config, loaded.file), dir);
  const upstream = inProcessUpstream('app', namedToolsApp({ read_inbox: true, send_mail: false }));
  const gateway = new Gateway({ config, upstreams: [upstream], logger: silentLogger });
  await gateway.start();
  cleanups.push(() => gateway.close());
  return gateway;
}

describe('usage is recorded in the mode a call ran in', () => {
  it('execute_tool with another mode records that mode, so the caller\'s fixed mode never gains the tool', async () => {
    const { dir, file } = rcProject(rc);
    const first = await gatewayOf(file, dir);
    const open = await inMemoryClient((t) => first.createSession().connect(t), { name: 'usage-modes' });
    // In mode a, send_mail (mode b) is refused by name, and runs through execute_tool in mode b.
    expect(((await open.callTool({ name: 'send_mail', arguments: {} })) as CallToolResult).isError).toBe(true);
    const ran = (await open.callTool({ name: 'execute_tool', arguments: { name: 'send_mail', mode: 'b' } })) as CallToolResult;
    expect(ran.isError, text(ran)).toBeFalsy();
    expect(text(ran)).toBe('send_mail');
    await open.close();
    await first.close();
    expect((await readUsage(usagePath(file, dir))).map((record) => `${record.mode} ${record.tool}`)).toEqual(['b app:send_mail']);

    // The next start reads the record: mode a (fixed, hidden tools rejected) still refuses send_mail.
    const second = await gatewayOf(file, dir);
    const fixed = await inMemoryClient((t) => second.createSession({ mode: 'a' }).connect(t), { name: 'usage-modes' });
    const names = (await fixed.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('read_inbox');
    expect(names).not.toContain('send_mail');
    const refused = (await fixed.callTool({ name: 'send_mail', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/not part of mode "a"/);
    await fixed.close();
  });

  it('under hiddenTools reject, calls of a tool a session enabled never make it the mode\'s: the fixed endpoint still refuses it', async () => {
    const { dir, file } = rcProject(rc);
    const first = await gatewayOf(file, dir);
    const open = await inMemoryClient((t) => first.createSession().connect(t), { name: 'usage-modes' });
    // The switchable session in mode a enables the sending group and calls send_mail twice.
    expect(((await open.callTool({ name: 'focus_mode', arguments: { enable_group: 'sending' } })) as CallToolResult).isError).toBeFalsy();
    for (let i = 0; i < 2; i++) expect(text((await open.callTool({ name: 'send_mail', arguments: {} })) as CallToolResult)).toBe('send_mail');
    await open.close();
    await first.close();
    expect((await readUsage(usagePath(file, dir))).map((record) => `${record.mode} ${record.tool}`)).toEqual(['a app:send_mail', 'a app:send_mail']);

    // The record ranks mode a's tools but adds none: the fixed endpoint of mode a neither lists nor runs send_mail.
    const second = await gatewayOf(file, dir);
    const fixed = await inMemoryClient((t) => second.createSession({ mode: 'a' }).connect(t), { name: 'usage-modes' });
    expect((await fixed.listTools()).tools.map((tool) => tool.name)).not.toContain('send_mail');
    const refused = (await fixed.callTool({ name: 'send_mail', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/not part of mode "a"/);
    await fixed.close();
  });
});

describe('a tool recorded in one mode is in no other', () => {
  // Modes a and b hold the same group; a's sessions reached send_mail twice today (usage.jsonl).
  const shared = { ...rc, policy: { hiddenTools: 'allow' }, modes: { a: { groups: ['reading'] }, b: { groups: ['reading'] } } };
  async function recordedInA(): Promise<Gateway> {
    const { dir, file } = rcProject(shared);
    const usage = usagePath(file, dir);
    mkdirSync(path.dirname(usage), { recursive: true });
    const record = JSON.stringify({ t: new Date().toISOString(), mode: 'a', tool: 'app:send_mail', via: 'search' });
    writeFileSync(usage, `${record}\n${record}\n`);
    return gatewayOf(file, dir);
  }
  const listed = async (client: Awaited<ReturnType<typeof inMemoryClient>>) => (await client.listTools()).tools.map((tool) => tool.name);

  it('mode a lists it; b does not, fixed or switched to by the same session', async () => {
    const gateway = await recordedInA();
    const open = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'usage-modes', cleanups });
    expect(await listed(open)).toContain('send_mail');
    expect(((await open.callTool({ name: 'focus_mode', arguments: { mode: 'b' } })) as CallToolResult).isError).toBeFalsy();
    expect(await listed(open)).not.toContain('send_mail');
    const fixed = await inMemoryClient((t) => gateway.createSession({ mode: 'b' }).connect(t), { name: 'usage-modes', cleanups });
    expect(await listed(fixed)).not.toContain('send_mail');
  });

  it('a bearer token of either mode neither lists, finds nor runs it: usage never widens a token', async () => {
    const gateway = await recordedInA();
    for (const mode of ['a', 'b']) {
      const client = await inMemoryClient((t) => gateway.createSession({ boundary: boundaryOf({ tokenModes: [mode], tokenLabel: 'ci' }) }).connect(t), { name: 'usage-modes', cleanups });
      if (mode === 'b') await client.callTool({ name: 'focus_mode', arguments: { mode } });
      expect(await listed(client), mode).not.toContain('send_mail');
      for (const [name, args] of [['send_mail', {}], ['execute_tool', { name: 'send_mail' }]] as const) {
        const refused = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(refused.isError, `${mode} ${name}`).toBe(true);
      }
      expect(text((await client.callTool({ name: 'search_tools', arguments: { query: 'send mail' } })) as CallToolResult)).not.toContain('send_mail');
    }
  });
});
