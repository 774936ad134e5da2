import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp, text } from '../harness/index.js';

/**
 * A bearer token's caller knows only the groups with a tool it may see: list_tool_groups and
 * lazytools://groups leave the others out, and refusals name only what it may use. focus_mode's
 * enable_group and disable_group took any group of the rc, and a name it did not know answered
 * with every group of the rc ("Valid groups: ..., vault, ...") and a "did you mean" among them
 * (fails on the old main). Without a token every group is named, as before.
 */

const cleanups = cleanupAfterEach();
const tool = (name: string) => ({ name, description: `${name.replace('_', ' ')}.`, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } });
const config = resolveConfig({
  groups: { reading: { servers: ['notes'] }, writing: { servers: ['drafts'] }, vault_secrets: { servers: ['vault'] } },
  modes: { notes: { groups: ['reading'] }, drafts: { groups: ['writing'] }, vault: { groups: ['vault_secrets'] } },
  defaultMode: 'notes',
  strategy: 'hybrid',
});
const locked = [
  { server: 'notes', tools: [tool('read_note')] },
  { server: 'drafts', tools: [tool('read_draft')] },
  { server: 'vault', tools: [tool('read_secret')] },
];

async function focus(tokenModes: string[] | undefined, args: Record<string, unknown>): Promise<CallToolResult> {
  const gateway = new Gateway({ config, upstreams: [], locked });
  cleanups.push(() => gateway.close());
  const session = gateway.createSession(tokenModes ? { boundary: boundaryOf({ tokenModes, tokenLabel: 'ci' }) } : {});
  const client = await inMemoryClient((t) => session.connect(t), { name: 'focus-groups-boundary', cleanups });
  return (await client.callTool({ name: 'focus_mode', arguments: args })) as CallToolResult;
}

describe('focus_mode groups under a bearer token', () => {
  it('a group outside the token\'s modes is unknown, and the hint names only the token\'s groups', async () => {
    for (const args of [{ enable_group: 'vault_secret' }, { enable_group: 'vault_secrets' }, { disable_group: 'vault_secrets' }, { enable_group: 'nothing' }]) {
      const answer = await focus(['notes', 'drafts'], args);
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      const said = text(answer).replace(/"[^"]*"/, '');
      expect(said, JSON.stringify(args)).toMatch(/^Unknown group \./);
      expect(said).toContain('reading');
      expect(said).not.toContain('vault');
    }
    // The token's own groups still change.
    expect((await focus(['notes', 'drafts'], { enable_group: 'writing' })).isError).toBeFalsy();
  });

  it('without a token every group of the rc is named', async () => {
    expect(text(await focus(undefined, { enable_group: 'vault_secret' }))).toContain('vault_secrets');
    expect((await focus(undefined, { enable_group: 'vault_secrets' })).isError).toBeFalsy();
  });
});

describe('focus_mode status under a bearer token', () => {
  // "Visible: 1 of 3 tools, 120 of 360 tokens" told a token of modes notes and drafts how many
  // tools, and tokens of definitions, lie outside its modes (fails on the old main: 3, the vault's too).
  // (A token of one mode is fixed there: focus_mode is refused.)
  it('counts the catalog the token may see, not the tools outside its modes', async () => {
    const bounded = await focus(['notes', 'drafts'], { status: true });
    const whole = await focus(undefined, { status: true });
    const figures = (answer: CallToolResult) => answer.structuredContent as { visibleTools: number; totalTools: number; tokens: number; totalTokens: number };
    expect(figures(whole).totalTools).toBe(3);
    expect(figures(bounded).totalTools).toBe(2);
    expect(figures(bounded).totalTokens).toBeGreaterThan(0);
    expect(figures(bounded).totalTokens).toBeLessThan(figures(whole).totalTokens);
    expect(text(bounded)).toContain(`of 2 tools, ${figures(bounded).tokens} of ${figures(bounded).totalTokens} tokens`);
  });
});

describe('focus_mode\'s definition under a bearer token', () => {
  // Its description listed every mode of the rc, one line each with its description, and its
  // `mode` enum offered them all, to a token that may switch only among its own (fails on the old
  // main: "- vault: ..." in a token of modes notes and drafts).
  it('names only the token\'s modes; without a token every mode', async () => {
    const definition = async (tokenModes: string[] | undefined) => {
      const gateway = new Gateway({ config, upstreams: [], locked });
      cleanups.push(() => gateway.close());
      const session = gateway.createSession(tokenModes ? { boundary: boundaryOf({ tokenModes, tokenLabel: 'ci' }) } : {});
      const client = await inMemoryClient((t) => session.connect(t), { name: 'focus-definition-boundary', cleanups });
      const tool = (await client.listTools()).tools.find((listed) => listed.name === 'focus_mode');
      return { description: tool?.description ?? '', modes: (tool?.inputSchema.properties?.mode as { enum?: string[] } | undefined)?.enum };
    };
    const bounded = await definition(['notes', 'drafts']);
    expect(bounded.description).toContain('- notes');
    expect(bounded.description).toContain('- drafts');
    expect(bounded.description).not.toContain('vault');
    expect(bounded.modes?.slice().sort()).toEqual(['drafts', 'notes']);
    const whole = await definition(undefined);
    expect(whole.description).toContain('- vault');
    expect(whole.modes).toContain('vault');
  });
});

describe('focus_mode\'s "Servers down" under a bearer token', () => {
  // The line named every server that failed, with why (its start error or stderr), to a token
  // whose modes never reach it: /readyz keeps the same facts from mode tokens (fails on the old
  // main: "Servers down: vault (... vault.internal:5432 ...)" in a token of modes notes and drafts).
  it('names only servers the token reaches; without a token every one', async () => {
    const failing = new Upstream('vault', {
      connect: () => {
        throw new Error('connect ECONNREFUSED vault.internal:5432');
      },
      logger: silentLogger,
    });
    const upstreams = [inProcessUpstream('notes', namedToolsApp({ read_note: true })), inProcessUpstream('drafts', namedToolsApp({ read_draft: true })), failing];
    const gateway = new Gateway({ config, upstreams, locked });
    cleanups.push(() => gateway.close());
    await gateway.start();
    const statusOf = async (tokenModes: string[] | undefined) => {
      const session = gateway.createSession(tokenModes ? { boundary: boundaryOf({ tokenModes, tokenLabel: 'ci' }) } : {});
      const client = await inMemoryClient((t) => session.connect(t), { name: 'focus-down-boundary', cleanups });
      return text((await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult);
    };
    // vault is known from the lock: a call starts it, and its start fails.
    const admin = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'focus-down-boundary', cleanups });
    expect(((await admin.callTool({ name: 'read_secret', arguments: {} })) as CallToolResult).isError).toBe(true);
    expect(await statusOf(undefined)).toMatch(/Servers down: vault \(.*vault\.internal:5432/);
    expect(await statusOf(['notes', 'drafts'])).not.toContain('vault');
    expect(await statusOf(['notes', 'vault'])).toMatch(/Servers down: vault \(/);
  });
});
