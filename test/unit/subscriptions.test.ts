import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, deferred, EventCounter, inMemoryClient } from '../harness/index.js';

/**
 * Sessions subscribing to one upstream URI share one upstream resources/subscribe while it is in
 * flight (handlers/subscriptions.ts). The upstream here holds each subscribe until the test
 * releases it, and says what it was asked.
 */

const cleanups = cleanupAfterEach();
const URI = 'docs://watched';

function heldSubscribes() {
  const asked: string[] = [];
  const heard = new EventCounter();
  let release = deferred();
  const server = new Server({ name: 'docs', version: '1.0.0' }, { capabilities: { tools: {}, resources: { subscribe: true } } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/list', () => ({ resources: [{ uri: URI, name: 'watched' }] }));
  server.setRequestHandler('resources/read', (request) => ({ contents: [{ uri: request.params.uri, text: 'v1' }] }));
  server.setRequestHandler('resources/subscribe', async (request) => {
    asked.push(`subscribe ${request.params.uri}`);
    heard.hit();
    await release.promise;
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    asked.push(`unsubscribe ${request.params.uri}`);
    heard.hit();
    return {};
  });
  const upstream = new Upstream('docs', {
    connect: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return clientSide;
    },
    logger: silentLogger,
  });
  return {
    server,
    upstream,
    asked,
    heard,
    /** Answers the subscribes held so far; later ones are held again. */
    release() {
      release.resolve();
      release = deferred();
    },
  };
}

async function gatewayOver(upstream: Upstream): Promise<Gateway> {
  const config = resolveConfig({ groups: { docs: { servers: ['docs'] } }, modes: { docs: { groups: ['docs'] } }, defaultMode: 'docs', strategy: 'hybrid' });
  const gateway = new Gateway({ config, upstreams: [upstream] });
  await gateway.start();
  cleanups.push(() => gateway.close());
  return gateway;
}

const session = (gateway: Gateway, name: string) => inMemoryClient((t) => gateway.createSession().connect(t), { name, cleanups });

/** Two sessions over a held upstream, a's subscribe (cancellable) out and heard by the upstream. */
async function aWaiting() {
  const docs = heldSubscribes();
  const gateway = await gatewayOver(docs.upstream);
  const a = await session(gateway, 'a');
  const b = await session(gateway, 'b');
  const cancelA = new AbortController();
  const first = a.subscribeResource({ uri: URI }, { signal: cancelA.signal });
  await docs.heard.reached(1);
  return { docs, gateway, a, b, cancelA, first };
}

/** a cancels its subscribe; a ping on the same connection after it means the gateway has read the cancel. */
async function cancelled(a: Awaited<ReturnType<typeof session>>, cancelA: AbortController, first: Promise<unknown>): Promise<void> {
  cancelA.abort('a gave up');
  await expect(first).rejects.toThrow();
  await a.ping();
}

describe('a resources/subscribe shared by sessions while in flight', () => {
  it.each(['cancels its subscribe', 'closes its connection'] as const)('survives the first session that %s: the second is subscribed and hears updates', async (how) => {
    const { docs, gateway, a, b, cancelA, first } = await aWaiting();
    const second = b.subscribeResource({ uri: URI });
    const updates = new EventCounter();
    b.setNotificationHandler(ResourceUpdatedNotificationSchema, () => updates.hit());
    if (how === 'cancels its subscribe') {
      // a's cancel reaches the gateway as notifications/cancelled (a's SDK rejects at once).
      await cancelled(a, cancelA, first);
    } else {
      await a.close();
      await expect(first).rejects.toThrow();
    }
    expect(gateway.subscriptions.subscribers('docs', URI).size, 'a leaves the waiters').toBe(1);
    docs.release();
    await expect(second, 'b waited on the same upstream request, which a did not end').resolves.toEqual({});
    expect([...gateway.subscriptions.subscribers('docs', URI)]).toHaveLength(1);
    expect(docs.asked).toEqual([`subscribe ${URI}`]);
    await docs.server.notification({ method: 'notifications/resources/updated', params: { uri: URI } });
    await updates.reached(1);
  });

  it('every waiter gone before the answer: the upstream subscription is released once it is answered, not left held', async () => {
    const { docs, gateway, a, b, cancelA, first } = await aWaiting();
    const second = b.subscribeResource({ uri: URI });
    await b.ping();
    expect(gateway.subscriptions.subscribers('docs', URI).size).toBe(2);
    await cancelled(a, cancelA, first);
    // b's connection closes while the subscribe is still out.
    await b.close();
    await expect(second).rejects.toThrow();
    expect(gateway.subscriptions.subscribers('docs', URI).size).toBe(0);
    expect(docs.asked, 'nothing more is sent while the subscribe is out').toEqual([`subscribe ${URI}`]);
    docs.release();
    await docs.heard.reached(2);
    expect(docs.asked).toEqual([`subscribe ${URI}`, `unsubscribe ${URI}`]);
    expect(gateway.subscriptions.holds('docs'), 'no entry left behind').toBe(false);
  });

  it('a session joining while the zero-session entry waits for its answer keeps the subscription', async () => {
    const { docs, gateway, a, b, cancelA, first } = await aWaiting();
    await cancelled(a, cancelA, first);
    expect(gateway.subscriptions.subscribers('docs', URI).size).toBe(0);
    const second = b.subscribeResource({ uri: URI });
    await b.ping();
    expect(gateway.subscriptions.subscribers('docs', URI).size).toBe(1);
    docs.release();
    await expect(second).resolves.toEqual({});
    expect(docs.asked, 'one subscribe, no unsubscribe: b holds it').toEqual([`subscribe ${URI}`]);
    await b.unsubscribeResource({ uri: URI });
    await docs.heard.reached(2);
    expect(docs.asked).toEqual([`subscribe ${URI}`, `unsubscribe ${URI}`]);
    expect(gateway.subscriptions.holds('docs')).toBe(false);
  });
});
