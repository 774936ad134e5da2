import { type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { serveHttp, type HttpFront } from '../../src/transports/http.js';
import { text, kitchenSinkHttp } from '../harness/index.js';

// An HTTP upstream sends the elicitation a call causes on that call's POST response stream. With
// calls of two sessions in flight on the one upstream session, that stream is what says whose it
// is: each elicitation must reach the session whose call caused it.

const startFixture = () => kitchenSinkHttp();

describe('server-to-client requests from an HTTP upstream with several sessions in flight', () => {
  let fixture: { child: ChildProcess; url: string };
  let gateway: Gateway;
  let front: HttpFront;

  beforeAll(async () => {
    fixture = await startFixture();
    gateway = new Gateway({ config: resolveConfig({ servers: { kitchen: { url: fixture.url } }, defaultMode: 'all', strategy: 'notify' }, undefined) });
    await gateway.start();
    front = await serveHttp(gateway, { port: 0 });
  });

  afterAll(async () => {
    await front?.close();
    await gateway?.close();
    fixture?.child.kill();
  });

  async function session(name: string, answer: (message: string) => Promise<void>): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      await answer(request.params.message);
      return { action: 'accept', content: { username: name, email: `${name}@example.com` } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(front.url)));
    return client;
  }

  it('go to the session whose call caused them, on the stream that carried them', async () => {
    const asked: string[] = [];
    let bCall: Promise<unknown> | undefined;
    const b = await session('bea', async (message) => void asked.push(`bea: ${message}`));
    // a's elicitation is answered only once b's call (started while a's is still in flight) is over.
    const a = await session('ada', async (message) => {
      asked.push(`ada: ${message}`);
      bCall = b.callTool({ name: 'test_elicitation', arguments: { message: 'for bea' } });
      await bCall.catch(() => {});
    });
    try {
      const aResult = await a.callTool({ name: 'test_elicitation', arguments: { message: 'for ada' } });
      const bResult = await bCall;
      expect(asked).toEqual(['ada: for ada', 'bea: for bea']);
      expect(text(aResult)).toContain('"username":"ada"');
      expect(text(bResult)).toContain('"username":"bea"');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
