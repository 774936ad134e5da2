import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GroupToolRegistry, listGroups, MAX_NESTED_GROUPS } from '../../src/groups/client.js';
import { GROUPS_EXTENSION } from '../../src/groups/wire.js';
import { cleanupAfterEach, inMemoryClientV2 } from '../harness/index.js';

/**
 * The host helpers of the groups extension against a server that answers in bulk. On the old main
 * a nested load queued every child once per group naming it (2,000 children named by each of
 * 2,000 groups: four million queue entries, taken off with shift(): minutes), and listGroups spread
 * each page into push (300,000 arguments overflow a plain node process's stack; this test's worker
 * happens to have room, so the list test guards the change rather than failing before it).
 */

const cleanups = cleanupAfterEach();

/** A server whose groups/list answers `count` groups in one page, and whose every group names the same `children`. */
async function bulkServer(count: number, children: number) {
  const server = new Server({ name: 'bulk', version: '1.0.0' }, { capabilities: { extensions: { [GROUPS_EXTENSION]: {} } } });
  const group = (i: number) => ({ name: `g${i}`, description: `Group ${i}` });
  server.setRequestHandler('groups/list', { params: z.looseObject({ cursor: z.string().optional() }).optional() }, () => ({ groups: Array.from({ length: count }, (_, i) => group(i)) }) as never);
  let gets = 0;
  server.setRequestHandler('groups/get', { params: z.looseObject({ name: z.string() }) }, (params) => {
    gets++;
    return { contents: { tools: [{ name: `tool_${params.name}`, inputSchema: { type: 'object' } }], groups: Array.from({ length: children }, (_, i) => group(i)) } } as never;
  });
  const client = await inMemoryClientV2((t) => server.connect(t), { cleanups });
  return { client, gets: () => gets };
}

describe('groups client helpers', () => {
  it('list a page of 300,000 groups', async () => {
    const { client } = await bulkServer(300_000, 0);
    const groups = await listGroups(client);
    expect(groups).toHaveLength(300_000);
    expect(groups.at(-1)?.name).toBe('g299999');
  });

  it('fetch each group of a nested load once, however many groups name it', async () => {
    const { client, gets } = await bulkServer(0, 2_000);
    const loaded = await new GroupToolRegistry(client).load('root', { nested: true });
    expect(gets()).toBe(2_001);
    expect(loaded.tools).toHaveLength(2_001);
    expect(loaded.groups).toHaveLength(2_000);
  });

  // Every group named a new child (g1 names g2, ...): the walk went on for as long as the server answered.
  it('stop a nested load at MAX_NESTED_GROUPS when the server keeps naming new groups', async () => {
    const server = new Server({ name: 'endless', version: '1.0.0' }, { capabilities: { extensions: { [GROUPS_EXTENSION]: {} } } });
    let gets = 0;
    server.setRequestHandler('groups/get', { params: z.looseObject({ name: z.string() }) }, () => {
      gets++;
      return { contents: { tools: [{ name: `tool_${gets}`, inputSchema: { type: 'object' } }], groups: [{ name: `g${gets}`, description: 'next' }, { name: `h${gets}`, description: 'and next' }] } } as never;
    });
    const client = await inMemoryClientV2((t) => server.connect(t), { cleanups });
    const loaded = await new GroupToolRegistry(client).load('root', { nested: true });
    expect(gets).toBe(MAX_NESTED_GROUPS);
    expect(loaded.tools).toHaveLength(MAX_NESTED_GROUPS);
    expect(loaded.groups.map((group) => group.name)).toEqual(['g1', 'h1']);
  }, 30_000);
});
