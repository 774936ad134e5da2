import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { causingSession, forwardClientRequest } from '../../src/callers/client-requests.js';
import type { SessionLink } from '../../src/handlers/caller.js';
import { buildPromptIndex } from '../../src/handlers/prompts.js';
import { buildResourceIndex, resourceOwner } from '../../src/handlers/resources.js';
import { Subscriptions } from '../../src/handlers/subscriptions.js';
import { compileTemplate as templatePattern } from '../../src/handlers/uri-template.js';
import { MAX_WATCHED, MAX_WATCHED_CHARS, WATCH_SHARE } from '../../src/upstream/modern.js';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { MAX_ASK_BYTES } from '../../src/upstream/client.js';
import { MAX_NOTIFICATION_BYTES } from '../../src/upstream/raw.js';
import { MAX_CLIENT_LINE_BYTES } from '../../src/protocol/lines.js';
import { cleanupAfterEach, cliStdio, deferred, FIXTURES, rcProject, ROOT, text } from '../harness/index.js';

/** A real Upstream that is never started, with lists as if it had listed them. */
function upstream(name: string, primitives: Partial<Upstream['primitives']> = {}): Upstream {
  const u = new Upstream(name, { connect: () => { throw new Error('not started in this test'); } });
  u.primitives = { prompts: [], resources: [], templates: [], ...primitives };
  return u;
}

describe('URI templates', () => {
  it('matches one segment per simple expression and more with operators', () => {
    expect(templatePattern('test://template/{id}/data').test('test://template/123/data')).toBe(true);
    expect(templatePattern('test://template/{id}/data').test('test://template/1/2/data')).toBe(false);
    expect(templatePattern('file:///{+path}').test('file:///a/b/c.txt')).toBe(true);
    expect(templatePattern('repo://{owner}/{repo}{?ref}').test('repo://a/b?ref=main')).toBe(true);
    expect(templatePattern('repo://{owner}/{repo}{?ref}').test('repo://a/b')).toBe(true);
    // Regex characters in the literal part are literal.
    expect(templatePattern('x://a.b/{id}').test('x://aXb/1')).toBe(false);
    expect(templatePattern('x://{+a}{+b}/end').test('x://p/q/end')).toBe(true);
    expect(templatePattern('x://{a}{.ext}').test('x://file.tar.gz')).toBe(true);
    expect(templatePattern('x://{a}{/rest}').test('x://a/b/c')).toBe(true);
    expect(templatePattern('x://{a}{/rest}').test('x://a/b?c')).toBe(false);
  });
});

describe('indexes', () => {
  it('prefixes colliding prompt names with the server, and all with prefix: always', () => {
    const a = upstream('a', { prompts: [{ name: 'review' }, { name: 'only_a' }] });
    const b = upstream('b', { prompts: [{ name: 'review', description: 'b review' }] });
    const auto = buildPromptIndex([a, b], 'auto');
    expect(auto.list.map((p) => p.name)).toEqual(['a_review', 'only_a', 'b_review']);
    expect(auto.byName.get('b_review')).toEqual({ server: 'b', name: 'review' });
    expect(auto.list[2]).toEqual({ name: 'b_review', description: 'b review' });
    expect(buildPromptIndex([a, b], 'always').list.map((p) => p.name)).toEqual(['a_review', 'a_only_a', 'b_review']);
  });

  it('gives a URI to its first owner and keeps lazytools:// to lazytools', () => {
    const a = upstream('a', { resources: [{ uri: 'x://1' }, { uri: 'lazytools://groups' }] });
    const b = upstream('b', { resources: [{ uri: 'x://1' }, { uri: 'x://2' }], templates: [{ uriTemplate: 'x://t/{id}' }] });
    const index = buildResourceIndex([a, b]);
    expect(index.resources.map((r) => r.uri)).toEqual(['lazytools://groups', 'x://1', 'x://2']);
    expect(index.exact.get('x://1')).toBe('a');
    expect(index.matchers.map((m) => m.server)).toEqual(['b']);
  });
});

describe('resources/read routed by template', () => {
  const routing = (...servers: Upstream[]) => {
    const index = buildResourceIndex(servers);
    return { upstreams: new Map(servers.map((u) => [u.name, u])), resources: () => index } as unknown as Parameters<typeof resourceOwner>[0];
  };
  const notes = () => upstream('notes', { templates: [{ uriTemplate: 'notes://{id}', name: 'note' }] });

  it("a catch-all template listed first does not take reads of another server's URIs: the most specific template wins", () => {
    const greedy = upstream('greedy', { templates: [{ uriTemplate: '{+anything}', name: 'all' }] });
    expect(resourceOwner(routing(greedy, notes()), 'notes://42')?.name).toBe('notes');
    // It still serves what no other template names.
    expect(resourceOwner(routing(greedy, notes()), 'other://42')?.name).toBe('greedy');
  });

  it("templates built to spend the matching budget spend only their own server's share: another server's URIs still route", () => {
    // Each template keeps about 200 states alive per character of the URI.
    const costly = Array.from({ length: 100 }, (_, i) => ({ uriTemplate: `${'{+a}'.repeat(200)}${i}`, name: `t${i}` }));
    const hog = upstream('hog', { templates: costly });
    expect(resourceOwner(routing(hog, notes()), `notes://${'n'.repeat(200)}`)?.name).toBe('notes');
  });
});

describe('server-to-client requests', () => {
  const session = (name: string): SessionLink & { name: string } =>
    ({
      name,
      logLevel: undefined,
      clientCapabilities: () => ({ sampling: {} }),
      forward: async (method: string) => ({ answeredBy: name, method }),
    }) as unknown as SessionLink & { name: string };

  it('go to the one session with requests in flight, and are refused when several are', async () => {
    const u = upstream('u');
    const s1 = session('s1');
    const s2 = session('s2');
    const sessions = new Set([s1, s2]);
    const controller = new AbortController();
    expect(causingSession(u, sessions)).toBeUndefined();
    await expect(forwardClientRequest(u, { method: 'sampling/createMessage' }, controller.signal, sessions)).rejects.toThrow(/has no client session/);
    u.lastOrigin = { session: s2, requestId: 7 };
    expect(await forwardClientRequest(u, { method: 'sampling/createMessage' }, controller.signal, sessions)).toEqual({ answeredBy: 's2', method: 'sampling/createMessage' });
    await expect(forwardClientRequest(u, { method: 'elicitation/create' }, controller.signal, sessions)).rejects.toThrow(/does not support elicitation/);
    // In flight: origins() reads the pending relays; simulate them through the public field.
    u.origins = () => [
      { session: s1, requestId: 1 },
      { session: s2, requestId: 2 },
    ];
    await expect(forwardClientRequest(u, { method: 'sampling/createMessage' }, controller.signal, sessions)).rejects.toThrow(/ambiguous/);
    u.origins = () => [{ session: s1, requestId: 1 }];
    expect(causingSession(u, sessions)).toEqual({ session: s1, origin: { session: s1, requestId: 1 } });
  });

  it('a call whose question is out at its client does not count while others are in flight; alone it still gets its next one', async () => {
    const u = upstream('u');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const waiting: SessionLink & { name: string } = { ...session('s1'), clientCapabilities: () => ({ elicitation: {} }), forward: async (method: string) => (await held, { answeredBy: 's1', method }) } as never;
    const other = session('s2');
    const sessions = new Set<SessionLink>([waiting, other]);
    const signal = new AbortController().signal;
    const first = { session: waiting, requestId: 1 };
    u.origins = () => [first];
    const asked = forwardClientRequest(u, { method: 'elicitation/create' }, signal, sessions);
    // The same burst (before the event loop turns) still finds the waiting call: not misrouted.
    u.origins = () => [first, { session: other, requestId: 2 }];
    await expect(forwardClientRequest(u, { method: 'sampling/createMessage' }, signal, sessions)).rejects.toThrow(/ambiguous/);
    await new Promise((resolve) => setImmediate(resolve));
    // Once its question is out, s1's call waits on its client: s2's call is the one asking.
    expect(await forwardClientRequest(u, { method: 'sampling/createMessage' }, signal, sessions)).toEqual({ answeredBy: 's2', method: 'sampling/createMessage' });
    // Every call waiting: the request can only be theirs (one session: it goes there).
    u.origins = () => [first];
    expect(causingSession(u, sessions)).toEqual({ session: waiting, origin: first });
    release();
    expect(await asked).toEqual({ answeredBy: 's1', method: 'elicitation/create' });
    // Answered: s1's call counts again beside s2's.
    u.origins = () => [first, { session: other, requestId: 2 }];
    expect(causingSession(u, sessions)).toEqual({ ambiguous: true });
  });
});

describe('an upstream question too large to pass on', () => {
  const cleanups = cleanupAfterEach();

  it(`over ${MAX_ASK_BYTES} bytes is refused to the upstream; the client's connection, and every server's tools, stay`, async () => {
    // Forwarded, an 11 MiB sampling request went past the 10 MiB an SDK stdio client reads in one
    // message: the client closed its connection to the gateway, every server's tools with it.
    const raw = { command: process.execPath, args: [FIXTURES.rawServer], env: { RAW_EXTRA_TOOLS: '["ask"]' } };
    const { dir } = rcProject({ servers: { raw, kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } }, strategy: 'hybrid' });
    const client = new Client({ name: 'routing-big-question', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const asked: number[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(JSON.stringify(request.params).length);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Paris' } };
    });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: dir })));
    cleanups.push(() => client.close());
    const big = text(await client.callTool({ name: 'ask', arguments: { bytes: 11 * 1024 * 1024 } }));
    expect(big).toMatch(new RegExp(`^refused: .*over ${MAX_ASK_BYTES} bytes`));
    expect(asked).toEqual([]);
    // The same question in a size a client reads still reaches it, and the other server still serves.
    expect(text(await client.callTool({ name: 'ask', arguments: { bytes: 1_000 } }))).toBe('answered: Paris');
    expect(asked).toHaveLength(1);
    expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
  });
});

describe('an answer too large for a stdio client', () => {
  const cleanups = cleanupAfterEach();

  it(`over ${MAX_CLIENT_LINE_BYTES} bytes comes as an isError result; the client's connection, and every server's tools, stay`, async () => {
    // Relayed whole, an 11 MiB result went past the 10 MiB an SDK stdio client reads in one
    // message: the client closed its connection to the gateway, every server's tools with it.
    const raw = { command: process.execPath, args: [FIXTURES.rawServer], env: { RAW_EXTRA_TOOLS: '["big"]' } };
    const { dir } = rcProject({ servers: { raw, kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } }, strategy: 'hybrid' });
    const client = new Client({ name: 'routing-big-answer', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: dir })));
    cleanups.push(() => client.close());
    const big = (await client.callTool({ name: 'big', arguments: { bytes: 11 * 1024 * 1024 } })) as CallToolResult;
    expect(big.isError).toBe(true);
    expect(text(big)).toMatch(/^The answer is 11\.0 MiB, more than a stdio client reads in one message/);
    expect(text(await client.callTool({ name: 'big', arguments: { bytes: 1_000 } }))).toBe('x'.repeat(1_000));
    expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
  });
});

describe('an upstream notification too large to pass on', () => {
  const cleanups = cleanupAfterEach();

  it(`over ${MAX_NOTIFICATION_BYTES} bytes is dropped with a warning; every client's connection stays`, async () => {
    // An 11 MiB log line with no call in flight went to every session: each SDK stdio client
    // (10 MiB per message) closed its connection to the gateway, every server's tools with it.
    const raw = { command: process.execPath, args: [FIXTURES.rawServer], env: { RAW_EXTRA_TOOLS: '["log"]' } };
    const { dir } = rcProject({ servers: { raw, kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } }, strategy: 'hybrid' });
    const client = new Client({ name: 'routing-big-log', version: '1.0.0' });
    const logged: number[] = [];
    let heard!: () => void;
    const small = new Promise<void>((resolve) => (heard = resolve));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logged.push(String(notification.params.data).length);
      if (String(notification.params.data).length === 1_000) heard();
    });
    const transport = new StdioClientTransport(cliStdio(['serve'], { cwd: dir, stderr: 'pipe' }));
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(text(await client.callTool({ name: 'log', arguments: { bytes: 11 * 1024 * 1024 } }))).toBe('logging');
    // Written after the big one: heard only once the big one was read (and left out).
    expect(text(await client.callTool({ name: 'log', arguments: { bytes: 1_000 } }))).toBe('logging');
    await small;
    expect(logged).toEqual([1_000]);
    expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    expect(stderr).toContain('upstream "raw" sent a notifications/message over 1.0 MiB: dropped');
  });
});

describe('subscriptions', () => {
  it('a subscribe still on its way upstream: an unsubscribe meanwhile holds, and a second session sends nothing more', async () => {
    const kitchen = new Upstream('kitchen', {
      connect: () => new StdioUpstreamTransport({ command: process.execPath, args: [FIXTURES.kitchenSink], env: { ...process.env } as Record<string, string>, cwd: ROOT, onStderr: () => {} }),
    });
    await kitchen.start();
    const sent: string[] = [];
    const gate = deferred();
    const asked = deferred();
    const request = kitchen.request.bind(kitchen);
    kitchen.request = async (method, params, options) => {
      sent.push(`${method} ${String(params.uri)}`);
      if (method === 'resources/subscribe') {
        asked.resolve();
        await gate.promise;
      }
      return request(method, params, options);
    };
    try {
      const subs = new Subscriptions();
      const a = {};
      const b = {};
      const uri = 'test://watched-resource';
      const first = subs.subscribe(a, kitchen, uri, {});
      await asked.promise;
      // b while a's subscribe is out: no second subscribe upstream.
      const second = subs.subscribe(b, kitchen, uri, {});
      // a leaves before its subscribe is answered: it must not stay subscribed.
      await subs.unsubscribe(a, kitchen, uri, {});
      gate.resolve();
      await Promise.all([first, second]);
      expect([...subs.subscribers('kitchen', uri)]).toEqual([b]);
      await subs.unsubscribe(b, kitchen, uri, {});
      expect(subs.subscribers('kitchen', uri).size).toBe(0);
      expect(subs.holds('kitchen')).toBe(false);
      expect(sent).toEqual([`resources/subscribe ${uri}`, `resources/unsubscribe ${uri}`]);
    } finally {
      await kitchen.stop();
    }
  });

  it('subscribe upstream once per URI, unsubscribe with the last session, and bound each session', async () => {
    const kitchen = new Upstream('kitchen', {
      connect: () => new StdioUpstreamTransport({ command: process.execPath, args: [FIXTURES.kitchenSink], env: { ...process.env } as Record<string, string>, cwd: ROOT, onStderr: () => {} }),
    });
    await kitchen.start();
    const sent: string[] = [];
    const request = kitchen.request.bind(kitchen);
    kitchen.request = (method, params, options) => {
      sent.push(`${method} ${String(params.uri)}`);
      return request(method, params, options);
    };
    try {
      const subs = new Subscriptions(2);
      const a = {};
      const b = {};
      await subs.subscribe(a, kitchen, 'test://watched-resource', {});
      await subs.subscribe(b, kitchen, 'test://watched-resource', {});
      await subs.subscribe(a, kitchen, 'test://watched-resource', {});
      expect(sent).toEqual(['resources/subscribe test://watched-resource']);
      expect([...subs.subscribers('kitchen', 'test://watched-resource')]).toEqual([a, b]);
      expect(subs.holds('kitchen')).toBe(true);
      await subs.subscribe(a, kitchen, 'test://template/1/data', {});
      await expect(subs.subscribe(a, kitchen, 'test://template/2/data', {})).rejects.toThrow(/Too many subscriptions: a session may hold 2/);
      await subs.unsubscribe(a, kitchen, 'test://watched-resource', {});
      expect(sent).toHaveLength(2);
      await subs.subscribe(a, kitchen, 'test://template/2/data', {});
      await subs.unsubscribe(b, kitchen, 'test://watched-resource', {});
      expect(sent.at(-1)).toBe('resources/unsubscribe test://watched-resource');
      expect(subs.subscribers('kitchen', 'test://watched-resource').size).toBe(0);
      await subs.unsubscribe(a, kitchen, 'test://template/1/data', {});
      await subs.unsubscribe(a, kitchen, 'test://template/2/data', {});
      expect(subs.holds('kitchen')).toBe(false);
    } finally {
      await kitchen.stop();
    }
  });

  it('a 2026-07-28 upstream watches a bounded set of URIs for all sessions together', async () => {
    // Each subscribe re-opens its listen stream with every watched URI: 1,000 subscribes of
    // 8 KiB URIs sent it 4 GB and took 101 s. Past the bound a subscribe is refused, nothing sent.
    const kitchen = new Upstream('kitchen', {
      connect: () => new StdioUpstreamTransport({ command: process.execPath, args: [FIXTURES.kitchenSink, '--modern-only'], env: { ...process.env } as Record<string, string>, cwd: ROOT, onStderr: () => {} }),
    });
    await kitchen.start();
    try {
      expect(kitchen.era).toBe('modern');
      const subs = new Subscriptions(1_000);
      const session = {};
      const uri = (i: number) => `test://template/${i}${'a'.repeat(8_000)}/data`;
      const fit = Math.floor(MAX_WATCHED_CHARS / uri(10).length);
      for (let i = 10; i < 10 + fit; i++) await subs.subscribe(session, kitchen, uri(i), {});
      await expect(subs.subscribe(session, kitchen, uri(10 + fit), {})).rejects.toThrow(/already watches \d+ resources for this gateway .*unsubscribe from some first/);
      await expect(subs.subscribe({}, kitchen, uri(10 + fit), {})).rejects.toThrow(/already watches/);
      await subs.unsubscribe(session, kitchen, uri(10), {});
      await subs.subscribe(session, kitchen, uri(10 + fit), {});
      expect(subs.subscribers('kitchen', uri(10 + fit)).size).toBe(1);
    } finally {
      await kitchen.stop();
    }
  });

  it('one session may have a 2026-07-28 upstream watch at most its share of that bound, so others can still subscribe', async () => {
    // Before: one client subscribing 1,000 template URIs refused every other client's subscribe
    // to that server ("already watches 1000 resources") for as long as it stayed.
    const kitchen = new Upstream('kitchen', {
      connect: () => new StdioUpstreamTransport({ command: process.execPath, args: [FIXTURES.kitchenSink, '--modern-only'], env: { ...process.env } as Record<string, string>, cwd: ROOT, onStderr: () => {} }),
    });
    await kitchen.start();
    try {
      const subs = new Subscriptions(MAX_WATCHED);
      const [greedy, other] = [{}, {}];
      const from = (session: object) => ({ origin: { session, requestId: undefined } });
      const uri = (i: number, pad = 0) => `test://template/${i}${'a'.repeat(pad)}/data`;
      for (let i = 0; i < MAX_WATCHED * WATCH_SHARE; i++) await subs.subscribe(greedy, kitchen, uri(i), from(greedy));
      await expect(subs.subscribe(greedy, kitchen, uri(-1), from(greedy))).rejects.toThrow(/this session already has upstream "kitchen" watch 500 resources/);
      await subs.subscribe(other, kitchen, uri(-1), from(other));
      expect(subs.subscribers('kitchen', uri(-1)).size).toBe(1);
      // By length too: 8 KB URIs, one session at most half of MAX_WATCHED_CHARS.
      for (let i = 0; i < MAX_WATCHED * WATCH_SHARE; i++) await subs.unsubscribe(greedy, kitchen, uri(i), from(greedy));
      const long = (i: number) => uri(i, 8_000);
      const fit = Math.floor((MAX_WATCHED_CHARS * WATCH_SHARE) / long(10).length);
      for (let i = 10; i < 10 + fit; i++) await subs.subscribe(greedy, kitchen, long(i), from(greedy));
      await expect(subs.subscribe(greedy, kitchen, long(10 + fit), from(greedy))).rejects.toThrow(/this session already has/);
      await subs.subscribe(other, kitchen, long(10 + fit), from(other));
    } finally {
      await kitchen.stop();
    }
  });
});
