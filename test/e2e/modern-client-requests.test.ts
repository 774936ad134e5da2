import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { serveHttp } from '../../src/transports/http.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { deferred, FIXTURES, tempTree, serveHttpGateway, rcProject, kitchenSinkHttp, suiteGateway } from '../harness/index.js';

const FIXTURE = FIXTURES.kitchenSink;

/** Upstream requests (sampling, elicitation) caused by a 2026-07-28 request: never to another client. */
describe('an upstream asks the client of a 2026-07-28 request', () => {
  const suite = suiteGateway(() => rcProject({ servers: { kitchen: { command: process.execPath, args: [FIXTURE] } }, defaultMode: 'all' }).file);

  const modern = async () => {
    const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    return client;
  };

  it('without the declared capability, the request fails with -32021 (MissingRequiredClientCapability)', async () => {
    const client = await modern();
    await expect(client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })).rejects.toMatchObject({ code: -32021 });
    await client.close();
  });

  it('roots are not a reason to fail a request: without the declared capability the upstream gets no roots', async () => {
    // lazytools tells its upstreams it has roots (it relays them and sends roots/list_changed), so
    // an upstream may ask at any time (filesystem asks as it starts); a request that declared none
    // answers with an empty list instead of failing as a whole (it did: -32021, a flaky failure
    // when a lazily started filesystem asked for its initial roots during a call).
    const client = await modern();
    const result = (await client.callTool({ name: 'test_list_roots', arguments: {} })) as { isError?: boolean; structuredContent?: { roots?: unknown } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.roots).toEqual([]);
    await client.close();
  });

  it('never reaches the client of a 2025 session whose call is in flight on the same upstream', async () => {
    const legacy = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    const asked = deferred();
    const release = deferred();
    let sampled = 0;
    legacy.setRequestHandler('elicitation/create', async () => {
      asked.resolve();
      await release.promise;
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    legacy.setRequestHandler('sampling/createMessage', () => {
      sampled++;
      return { role: 'assistant', content: { type: 'text', text: 'leaked' }, model: 'x' };
    });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    // The legacy call stays in flight on the upstream while its client holds the elicitation.
    const held = legacy.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    await asked.promise;
    const client = await modern();
    const outcome = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'secret prompt' } }).then(
      (result) => ({ isError: result.isError === true, text: JSON.stringify(result.content) }),
      (error: unknown) => ({ isError: true, text: String(error) }),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.text).not.toContain('leaked');
    expect(sampled).toBe(0);
    release.resolve();
    expect((await held).isError).toBeFalsy();
    await client.close();
    await legacy.close();
  });
});

/** The kitchen-sink fixture over HTTP on a free port. */
const httpFixture = () => kitchenSinkHttp();

/** A 2026-07-28 client that can answer: its upstream's questions reach it as input_required rounds. */
describe('an upstream asks a 2026-07-28 client that can answer', () => {
  for (const [label, upstream] of [
    ['an HTTP server of both eras (its own rounds, passed through a 2026-07-28 connection)', 'http'],
    ['a stdio server of both eras (its requests become lazytools rounds: one process, one state)', []],
    ['a 2025-only server (its requests become lazytools rounds)', ['--legacy-only']],
  ] as const) {
    it(`gets the question and the result from ${label}`, async () => {
      const dir = tempTree({ 'package.json': '{}' });
      const file = path.join(dir, '.lazytoolsrc.json');
      const fixture = upstream === 'http' ? await httpFixture() : undefined;
      const server = fixture ? { url: fixture.url } : { command: process.execPath, args: [FIXTURE, ...upstream] };
      writeFileSync(file, JSON.stringify({ servers: { kitchen: server }, defaultMode: 'all' }));
      const served = await serveHttpGateway(file);
      try {
        const client = new Client({ name: 'modern', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
        const asked: string[] = [];
        client.setRequestHandler('elicitation/create', (request) => {
          asked.push(`elicit: ${request.params.message}`);
          return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
        });
        client.setRequestHandler('sampling/createMessage', () => {
          asked.push('sample');
          return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'test-model' };
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
        expect((elicited.content as Array<{ text: string }>)[0]?.text).toBe('User response: action=accept, content={"username":"grace","email":"grace@example.com"}');
        const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
        expect((sampled.content as Array<{ text: string }>)[0]?.text).toBe('LLM response: sampled');
        expect(asked).toEqual(['elicit: who?', 'sample']);
        await client.close();
      } finally {
        await served.close();
        fixture?.child.kill();
      }
    });
  }

  // Why a stdio server of both eras is spoken to in 2025 (so a 2026-07-28 client gets lazytools'
  // round keys, not the server's: the three input-required-result-* conformance scenarios of
  // --stdio-upstream): one process has one era, and a tool written push-style asks only on a 2025
  // connection. Pinned to 2026-07-28, this tool failed for the clients of both eras.
  it('a stdio server of both eras whose tool asks push-style (elicitInput) asks the clients of both eras', async () => {
    const { file } = rcProject({ servers: { asker: { command: process.execPath, args: [FIXTURES.pushAsker] } }, defaultMode: 'all' });
    const served = await serveHttpGateway(file);
    try {
      for (const era of ['2025-11-25', '2026-07-28'] as const) {
        const client = new Client({ name: `push-${era}`, version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } });
        const asked: string[] = [];
        client.setRequestHandler('elicitation/create', (request) => {
          asked.push(request.params.message);
          return { action: 'accept', content: { name: 'Grace' } };
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(served.http!.url)));
        const result = await client.callTool({ name: 'ask_name', arguments: {} });
        expect([era, (result.content as Array<{ text: string }>)[0]?.text, asked]).toEqual([era, 'Hello, Grace!', ['Your name?']]);
        await client.close();
      }
    } finally {
      await served.close();
    }
  });

  it('refuses a retry whose requestState is forged or belongs to another token', async () => {
    const { InputRounds } = await import('../../src/callers/input-rounds.js');
    const rounds = new InputRounds<string>();
    const round = (await rounds.begin('ci-bot', 'tools/call t', (asker) => asker.ask('elicitation/create', { message: 'x' }).then(() => 'done'))) as { requestState: string };
    await expect(rounds.resume('other-token', 'tools/call t', round.requestState, {})).rejects.toMatchObject({ code: -32602 });
    await expect(rounds.resume('ci-bot', 'tools/call t', `${round.requestState}x`, {})).rejects.toMatchObject({ code: -32602 });
  });
});

/**
 * An upstream's request of a method no client capability covers (`custom/probe`) became an
 * input round for a 2026-07-28 request's client; the upstream now hears -32601 at once.
 */
describe('an upstream asks a 2026-07-28 client something no client answers', () => {
  it('the upstream hears -32601 (method not found), and the request finishes', async () => {
    const app = new Server({ name: 'prober', version: '1.0.0' }, { capabilities: { tools: {} } });
    app.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'probe', description: 'Probe the client.', inputSchema: { type: 'object' as const } }] }));
    app.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      const heard = await extra.sendRequest({ method: 'custom/probe', params: {} } as never, z.looseObject({})).then(
        () => 'answered',
        (error: { code?: number }) => `refused ${error.code}`,
      );
      return { content: [{ type: 'text', text: heard }] };
    });
    const upstream = new Upstream('prober', {
      connect: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await app.connect(serverSide);
        return clientSide;
      },
    });
    const gateway = new Gateway({ config: resolveConfig({ groups: { probes: { servers: ['prober'] } }, modes: { probes: { groups: ['probes'] } }, defaultMode: 'probes', strategy: 'hybrid' }), upstreams: [upstream] });
    await gateway.start();
    const front = await serveHttp(gateway, { port: 0 });
    const client = new Client({ name: 'modern', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(front.url)));
      const result = await client.callTool({ name: 'probe', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'refused -32601' }]);
    } finally {
      await client.close();
      await front.close();
      await gateway.close();
    }
  });
});
