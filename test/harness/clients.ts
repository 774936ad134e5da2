import { Client as ClientV2, type ClientOptions as ClientV2Options } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server';
import { afterEach } from 'vitest';
import type { ToolDefinition } from '../../src/catalog/catalog.js';
import type { Caller } from '../../src/handlers/caller.js';
import { listEntry } from '../../src/handlers/tools.js';

/**
 * Which SDK client a test uses (test/README.md): the v1 `Client` (`@modelcontextprotocol/sdk`)
 * stands for clients as they are today (2025 sessions); the v2 `Client`
 * (`@modelcontextprotocol/client`) for tests of both eras or of 2026-07-28.
 */

/** The first content part's text; a result whose first part is not text fails the test here. */
export function text(result: unknown): string {
  const first = (result as { content?: Array<{ type?: string; text?: unknown }> }).content?.[0];
  if (typeof first?.text !== 'string') throw new Error(`expected a text part first: ${JSON.stringify(result).slice(0, 500)}`);
  return first.text;
}

/** Every content part's text, one per line. */
export function allText(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content.map((part) => part.text).join('\n');
}

/** Functions run after each test, last registered first (`cleanups.push(() => x.close())`). */
export type Cleanups = Array<() => unknown>;

/** A list of cleanups that an `afterEach` of the calling test file drains (call at file level). */
export function cleanupAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
  return cleanups;
}

interface InMemoryOptions<C> {
  name?: string;
  capabilities?: ClientCapabilities;
  /** Runs before connect (notification and request handlers). */
  prepare?: (client: C) => void;
  /** Where `client.close()` goes (see `cleanupAfterEach`). */
  cleanups?: Cleanups;
}

/**
 * A v1 SDK client connected to a server side over the SDK's in-memory transport: `serve` gets the
 * server end (`gateway.createSession().connect`, `curated.connect`) and resolves once connected.
 */
export async function inMemoryClient(serve: (transport: InMemoryTransport) => Promise<unknown>, options: InMemoryOptions<Client> = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const client = new Client({ name: options.name ?? 'test-client', version: '1.0.0' }, options.capabilities ? { capabilities: options.capabilities } : undefined);
  options.prepare?.(client);
  await client.connect(clientSide);
  options.cleanups?.push(() => client.close());
  return client;
}

/** The same with a v2 SDK client (`clientOptions`: capabilities, version negotiation). */
export async function inMemoryClientV2(
  serve: (transport: InMemoryTransportV2) => Promise<unknown>,
  options: Omit<InMemoryOptions<ClientV2>, 'capabilities'> & { clientOptions?: ClientV2Options } = {},
): Promise<ClientV2> {
  const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair();
  await serve(serverSide);
  const client = new ClientV2({ name: options.name ?? 'test-client', version: '1.0.0' }, options.clientOptions);
  options.prepare?.(client);
  await client.connect(clientSide);
  options.cleanups?.push(() => client.close());
  return client;
}

/**
 * The whole `tools/list` answer of a session or a 2026-07-28 request's view, every listed
 * definition made (the server pages listEntries instead): to compare with what a client received.
 */
export function toolList(view: Pick<Caller, 'listEntries'>): ToolDefinition[] {
  return view.listEntries().map(listEntry);
}
