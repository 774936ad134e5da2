import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp } from '../harness/index.js';

/**
 * An upstream's requests to its client pass only when they are ones a client answers (sampling,
 * elicitation, roots) and the client declared the capability. Any other method (`custom/probe`,
 * `tools/call` sent the wrong way) was handed to the causing client as it came; now the upstream
 * hears -32601 and the client hears nothing (a 2026-07-28 request: e2e/modern-client-requests).
 */

const cleanups = cleanupAfterEach();

describe('server-to-client requests by method', () => {
  it('a method no client capability covers gets -32601 and never reaches the client; sampling still does', async () => {
    const app = namedToolsApp({ read_note: true });
    const config = resolveConfig({ groups: { notes: { servers: ['app'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('app', app)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const seen: string[] = [];
    const client = await inMemoryClient((t) => gateway.createSession({}).connect(t), {
      name: 'client-request-methods',
      cleanups,
      capabilities: { sampling: {} },
      prepare: (c) => {
        c.fallbackRequestHandler = (request) => {
          seen.push(request.method);
          return Promise.resolve({});
        };
        c.setRequestHandler(CreateMessageRequestSchema, () => {
          seen.push('sampling/createMessage');
          return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'toy' };
        });
      },
    });
    // The session's call reached the upstream last: its requests go to this client.
    await client.callTool({ name: 'read_note', arguments: {} });
    for (const method of ['custom/probe', 'tools/call', 'tasks/list'])
      await expect(app.server.request({ method, params: {} }, z.looseObject({}))).rejects.toMatchObject({ code: -32601 });
    expect(seen).toEqual([]);
    const sampled = await app.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
    expect(sampled.content).toEqual({ type: 'text', text: 'sampled' });
    expect(seen).toEqual(['sampling/createMessage']);
  });
});
