import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serve } from '../../src/app/serve.js';
import { silentLogger } from '../../src/util/log.js';
import { GroupToolRegistry, listGroups, offersGroups } from '../../src/index.js';
import { deferred, FIXTURES, tempTree, serveHttpGateway, cliStdio, suiteGateway } from '../harness/index.js';

/**
 * The draft extension io.modelcontextprotocol/groups through the real protocol: a v2 SDK client
 * that declares it gets groups/list, groups/get and can call a scoped tool; one that does not gets
 * today's flattened mode and method-not-found; 2025 sessions (HTTP and stdio) and 2026-07-28.
 */

const GROUPS = 'io.modelcontextprotocol/groups';
const MODERN = '2026-07-28';
const FIXTURE = FIXTURES.kitchenSink;
const GroupSchema = z.looseObject({ name: z.string(), description: z.string() });
const ListSchema = z.looseObject({ groups: z.array(GroupSchema), nextCursor: z.string().optional() });
const GetSchema = z.looseObject({
  instructions: z.string().optional(),
  contents: z.looseObject({ tools: z.array(z.looseObject({ name: z.string(), inputSchema: z.unknown() })).optional(), groups: z.array(GroupSchema).optional() }),
});

/** An rc over the kitchen-sink fixture: mode `basic` shows one tool, `media_types` holds three more. */
function rcFile(media = ['test_image_content', 'test_audio_content', 'test_embedded_resource']): string {
  const file = path.join(tempTree({ 'package.json': '{}' }), '.lazytoolsrc.json');
  writeRc(file, media);
  return file;
}
function writeRc(file: string, media: string[]): void {
  writeFileSync(
    file,
    JSON.stringify({
      servers: { kitchen: { command: process.execPath, args: [FIXTURE] } },
      groups: { basics: { tools: ['test_simple_text'] }, media_types: { tools: media } },
      modes: { basic: { description: 'Only the simple text tool', groups: ['basics'] }, media: { description: 'Media tools', groups: ['media_types'] } },
      defaultMode: 'basic',
    }),
  );
}
const file = rcFile();

type AnyClient = Client;

function declaring(version?: typeof MODERN): Client {
  return new Client({ name: 'groups-e2e', version: '1.0.0' }, { capabilities: { extensions: { [GROUPS]: {} } }, ...(version ? { versionNegotiation: { mode: { pin: version } } } : {}) });
}

/** Every group reachable from groups/list, with its tools (walking nested groups, stopping on a repeat). */
async function walk(client: AnyClient): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  const queue = (await client.request({ method: 'groups/list' } as never, ListSchema)).groups.map((g) => g.name);
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    const got = await client.request({ method: 'groups/get', params: { name } } as never, GetSchema);
    seen.set(name, (got.contents.tools ?? []).map((t) => t.name));
    queue.push(...(got.contents.groups ?? []).map((g) => g.name));
  }
  return seen;
}

async function rpcCode(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

/** The checks every era shares: placement, names, a scoped call, -32002. */
async function exercise(client: AnyClient): Promise<void> {
  expect((client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined)?.[GROUPS]).toEqual({ listChanged: true });
  const listed = (await client.listTools()).tools.map((t) => t.name);
  expect(listed).toContain('test_simple_text');
  expect(listed).not.toContain('test_audio_content');
  const groups = await walk(client);
  for (const name of groups.keys()) expect(name).toMatch(/^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/);
  expect(groups.get('media-types')).toEqual(['test_audio_content', 'test_embedded_resource', 'test_image_content']);
  // Exactly one placement per tool: top level or one group.
  const scoped = [...groups.values()].flat();
  expect(new Set(scoped).size).toBe(scoped.length);
  for (const name of scoped) expect(listed).not.toContain(name);
  // A scoped tool is a real tool: tools/call runs it.
  const result = (await client.callTool({ name: 'test_audio_content', arguments: {} })) as { isError?: boolean; content: Array<{ type: string }> };
  expect(result.isError).toBeFalsy();
  expect(result.content[0]?.type).toBe('audio');
  expect(await rpcCode(client.request({ method: 'groups/get', params: { name: 'no-such-group' } } as never, GetSchema))).toBe(-32002);
  // Modes are navigation: a mode's group leads to the groups of its tools, so one nested load gives them.
  const modes = (await listGroups(client)).filter((group) => group.name.startsWith('mode-'));
  // `basic`, the mode the client is in, lists all its tools: it leads nowhere, so it is no group.
  expect(modes.map((group) => group.name)).toContain('mode-media');
  expect(modes.map((group) => group.name)).not.toContain('mode-basic');
  expect(modes.find((group) => group.name === 'mode-media')?.description).toBe('Mode media: Media tools. Its tools here: 3 in 1 group.');
  const media = await new GroupToolRegistry(client).load('mode-media', { nested: true });
  expect(media.groups.map((group) => group.name)).toEqual(['media-types']);
  expect(media.tools.map((tool) => tool.name)).toEqual(['test_audio_content', 'test_embedded_resource', 'test_image_content']);
}

describe('io.modelcontextprotocol/groups over HTTP', () => {
  const suite = suiteGateway(() => file);

  it('a 2025 session that declares it lists groups, fetches one, calls a scoped tool', async () => {
    const client = declaring();
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('a fixed-mode endpoint offers only its own mode, in both eras', async () => {
    for (const version of [undefined, MODERN] as const) {
      const client = declaring(version);
      // Under proxy the mode's tools are scoped (under hybrid all are listed, and the mode has no group).
      await client.connect(new StreamableHTTPClientTransport(new URL(`${suite.url}/media?strategy=proxy`)));
      try {
        const modes = (await listGroups(client)).map((group) => group.name).filter((name) => name.startsWith('mode-'));
        expect(modes).toEqual(['mode-media']);
        expect(await rpcCode(client.request({ method: 'groups/get', params: { name: 'mode-basic' } } as never, GetSchema))).toBe(-32002);
      } finally {
        await client.close();
      }
    }
  });

  it('a 2025 session without it gets the flattened mode and method-not-found', async () => {
    const client = new Client({ name: 'plain', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain('test_simple_text');
      expect(await rpcCode(client.request({ method: 'groups/list' } as never, ListSchema))).toBe(-32601);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 (pinned): decided per request from the envelope; groups/list carries ttlMs and cacheScope', async () => {
    const client = declaring(MODERN);
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      await exercise(client);
      const page = await client.request({ method: 'groups/list' } as never, ListSchema);
      expect(page).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
      // The library's host helper: every page, one fetch, each tool registered once.
      expect(offersGroups(client)).toBe(true);
      expect((await listGroups(client)).map((group) => group.name)).toEqual(page.groups.map((group) => group.name));
      const registry = new GroupToolRegistry(client);
      const loaded = await registry.load('media-types', { nested: true });
      expect(loaded.tools.map((tool) => tool.name)).toEqual(['test_audio_content', 'test_embedded_resource', 'test_image_content']);
      expect((await registry.load('media-types')).tools).toEqual([]);
      expect(registry.tools()).toHaveLength(3);
    } finally {
      await client.close();
    }
    const plain = new Client({ name: 'plain', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await plain.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      expect(await rpcCode(plain.request({ method: 'groups/list' } as never, ListSchema))).toBe(-32601);
      // A 2026-07-28 tools/list carries a shared cache hint: it is the same whatever the request declares.
      const again = declaring(MODERN);
      await again.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
      const names = async (c: Client) => (await c.listTools()).tools.map((tool) => tool.name);
      try {
        expect(await names(again)).toEqual(await names(plain));
      } finally {
        await again.close();
      }
    } finally {
      await plain.close();
    }
  });
});

describe('notifications/groups/list_changed on 2026-07-28 subscriptions/listen', () => {
  it('over HTTP: an rc reload that regroups tools reaches a declaring listener, stamped with its subscription', async () => {
    const reloading = rcFile();
    const served = await serveHttpGateway(reloading, { watch: true });
    const client = declaring(MODERN);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
      const changed = deferred<unknown>();
      client.setNotificationHandler('notifications/groups/list_changed', { params: z.looseObject({}).optional() }, (params) => changed.resolve(params));
      const subscription = await client.listen({ toolsListChanged: true });
      expect((await walk(client)).get('media-types')).toHaveLength(3);
      writeRc(reloading, ['test_image_content']);
      expect(await changed.promise).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
      expect((await walk(client)).get('media-types')).toEqual(['test_image_content']);
      await subscription.close();
    } finally {
      await client.close();
      await served.close();
    }
  });

  it('over HTTP: several listeners of one view (one digest per view and catalog) each hear the change once', async () => {
    const reloading = rcFile();
    const served = await serve({ config: reloading, http: { port: 0 }, watch: true, logger: silentLogger });
    const clients = [0, 1, 2, 3].map(() => declaring(MODERN));
    try {
      const heard = clients.map(() => 0);
      const changed = clients.map(() => deferred());
      const subscriptions = [];
      for (const [i, client] of clients.entries()) {
        await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
        client.setNotificationHandler('notifications/groups/list_changed', { params: z.looseObject({}).optional() }, () => {
          heard[i]! += 1;
          changed[i]!.resolve();
        });
        subscriptions.push(await client.listen({ toolsListChanged: true }));
      }
      writeRc(reloading, ['test_image_content']);
      await Promise.all(changed.map((d) => d.promise));
      expect((await walk(clients[3]!)).get('media-types')).toEqual(['test_image_content']);
      expect(heard).toEqual([1, 1, 1, 1]);
      for (const subscription of subscriptions) await subscription.close();
    } finally {
      for (const client of clients) await client.close();
      await served.close();
    }
  });

  it('over stdio: the same, on the connection', async () => {
    const reloading = rcFile();
    const client = declaring(MODERN);
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--watch', '--config', reloading], { env: { LAZYTOOLS_QUIET: '1' } })));
    try {
      const changed = deferred();
      client.setNotificationHandler('notifications/groups/list_changed', { params: z.looseObject({}).optional() }, () => changed.resolve());
      const subscription = await client.listen({ toolsListChanged: true });
      expect((await walk(client)).get('media-types')).toHaveLength(3);
      writeRc(reloading, ['test_audio_content']);
      await changed.promise;
      expect((await walk(client)).get('media-types')).toEqual(['test_audio_content']);
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});

describe('io.modelcontextprotocol/groups over stdio', () => {
  it('a 2025 session hears notifications/groups/list_changed when a focus switch moves tools', async () => {
    const client = declaring();
    const changed = deferred();
    client.setNotificationHandler('notifications/groups/list_changed', { params: z.looseObject({}).optional() }, () => changed.resolve());
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--config', file], { env: { LAZYTOOLS_QUIET: '1' } })));
    try {
      await exercise(client);
      await client.callTool({ name: 'focus_mode', arguments: { mode: 'media' } });
      await changed.promise;
      const groups = await walk(client);
      expect(groups.has('media-types')).toBe(false);
      expect([...groups.values()].flat()).toContain('test_simple_text');
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 over stdio answers groups/get for a declaring request', async () => {
    const client = declaring(MODERN);
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--config', file], { env: { LAZYTOOLS_QUIET: '1' } })));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });
});
