import type { Client, PriorDiscovery } from '@modelcontextprotocol/client';
import type { Notification, Transport } from '@modelcontextprotocol/client';
import type { RequestId } from '../protocol/jsonrpc.js';
import { outsideText } from '../util/redact.js';
import { VERSION } from '../util/version.js';
import type { CausedBy } from './stream-cause.js';
import { UpstreamError } from './error.js';
import { tooLargeAsking, tooManyAsking } from '../protocol/errors.js';
import { jsonOver } from '../util/bounds.js';
import { MAX_CLIENT_LINE_BYTES } from '../protocol/lines.js';
import { MODERN_REVISION } from '../protocol/revision.js';

/** What lazytools can route from an upstream to a client: the default upstreams are told. */
export const ROUTABLE_CAPABILITIES: Readonly<Record<string, unknown>> = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

/**
 * Requests of one upstream to its clients (sampling, elicitation, roots) waiting for an answer at
 * once; past it the next is refused at once, so a flood of them holds no client and little memory.
 */
export const MAX_ASKING = 64;

/**
 * Largest request of an upstream to a client, as JSON: what a stdio client reads in one message
 * (MAX_CLIENT_LINE_BYTES; an SDK stdio client closes its whole connection past 10 MiB, so one
 * such question took every server's tools from it). Each waits for its answer (up to 10
 * minutes), so 32 of 40 MB held 1.5 GB of the gateway.
 */
export const MAX_ASK_BYTES = MAX_CLIENT_LINE_BYTES;

/**
 * `ask`, refusing at once while MAX_ASKING of the requests it was given are unanswered, and a
 * request over MAX_ASK_BYTES (the upstream hears why).
 */
export function limitAsking<R extends { method: string; params?: unknown }>(ask: (request: R, signal: AbortSignal) => Promise<Record<string, unknown>>) {
  let open = 0;
  return (request: R, signal: AbortSignal): Promise<Record<string, unknown>> => {
    if (open >= MAX_ASKING) return Promise.reject(tooManyAsking(request.method, MAX_ASKING));
    if (jsonOver(request.params, MAX_ASK_BYTES)) return Promise.reject(tooLargeAsking(request.method, MAX_ASK_BYTES));
    open++;
    return ask(request, signal).finally(() => open--);
  };
}

/**
 * The requests a server sends its client, and the client capability each needs: the only ones
 * carried to a client at all (callers/client-requests), since the MCP revisions lazytools serves
 * define no other (ping is answered by the upstream's SDK client; tasks/* only follow
 * task-augmented requests, and upstreams are never told a client takes them).
 */
export const CLIENT_REQUESTS: ReadonlyMap<string, 'sampling' | 'elicitation' | 'roots'> = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
]);

/** What the SDK client of one upstream connection reports back to its Upstream. */
export interface ClientHooks {
  /** The client capabilities to declare (sampling, elicitation, roots). */
  capabilities: Record<string, unknown>;
  toolsChanged(): void;
  /** Other notifications (prompts/resources list changes, log messages, ...). */
  notified(notification: Notification): Promise<void>;
  /**
   * A request of the server to its client; `cause` is the id of our request whose HTTP response
   * stream carried it, when known.
   */
  request(request: { method: string; params?: Record<string, unknown> | undefined }, cause: string | undefined, signal: AbortSignal): Promise<Record<string, unknown>>;
  warn(message: string): void;
}

/**
 * The SDK client of one connection: declares the capabilities the front reflects and hands the
 * server's requests (sampling, elicitation, roots; also a 2026-07-28 server's input_required
 * rounds, which reach only handlers registered by method) to the hooks.
 */
async function upstreamClient(transport: Transport, hooks: ClientHooks, pinModern = false): Promise<Client> {
  // Loaded with the first connection: a gateway serving from the lock starts without it.
  const { Client } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'lazytools', version: VERSION }, { capabilities: hooks.capabilities, versionNegotiation: { mode: pinModern ? { pin: MODERN_REVISION } : 'auto' } });
  client.setNotificationHandler('notifications/tools/list_changed', () => hooks.toolsChanged());
  client.fallbackNotificationHandler = (notification) => hooks.notified(notification);
  // A 2026-07-28 server's list changes arrive on a listen stream, dispatched only to handlers by method.
  for (const method of ['notifications/prompts/list_changed', 'notifications/resources/list_changed'] as const)
    client.setNotificationHandler(method, (notification) => hooks.notified(notification as Notification));
  const answer = async (request: { method: string; params?: unknown }, ctx: { mcpReq: { id: RequestId; signal: AbortSignal } }): Promise<never> => {
    const cause = (transport as Partial<CausedBy>).requestCause?.(ctx.mcpReq.id);
    return (await hooks.request({ method: request.method, params: request.params as Record<string, unknown> | undefined }, typeof cause === 'string' ? cause : undefined, ctx.mcpReq.signal)) as never;
  };
  client.fallbackRequestHandler = answer;
  for (const [method, capability] of CLIENT_REQUESTS) if (hooks.capabilities[capability]) client.setRequestHandler(method as 'roots/list', answer);
  client.onerror = (error) => hooks.warn(outsideText(error.message));
  return client;
}

/**
 * Connects in the era the server speaks. The 2025 era first: a server that serves both eras may
 * behave differently in each (its tools may ask the client with requests only a 2025 connection
 * carries), and most clients speak 2025. A server that refuses initialize is asked with
 * server/discover on a fresh connection. A known verdict (the last connection's, or the lock's)
 * is tried first, and probed again when the server refuses it.
 */
export async function connectEitherEra(
  connect: () => Transport | Promise<Transport>,
  hooks: ClientHooks,
  known: PriorDiscovery | undefined,
  timeout: number,
  /** Speak 2026-07-28 or fail (no 2025 attempt). */
  modernOnly = false,
): Promise<{ client: Client; transport: Transport }> {
  if (modernOnly) {
    const pinned = await attempt(connect, hooks, (client, transport) => client.connect(transport, { timeout, ...(known?.kind === 'modern' ? { prior: known } : {}) }), true);
    if (pinned instanceof ConnectFailure) throw pinned;
    return pinned;
  }
  const first = await attempt(connect, hooks, (client, transport) => client.connect(transport, { timeout, prior: known ?? { kind: 'legacy' } }));
  if (!(first instanceof ConnectFailure)) return first;
  // Also when a remembered verdict (the lock's) no longer holds: the server changed era since.
  if (!refusedInitialize(first.failure)) throw first;
  const second = await attempt(connect, hooks, (client, transport) => client.connect(transport, { timeout }));
  if (second instanceof ConnectFailure) throw second;
  return second;
}

/** One connection attempt; a failure closes its client and names the transport it failed on. */
async function attempt(
  connect: () => Transport | Promise<Transport>,
  hooks: ClientHooks,
  run: (client: Client, transport: Transport) => Promise<void>,
  pinModern = false,
): Promise<{ client: Client; transport: Transport } | ConnectFailure> {
  const transport = await connect();
  const client = await upstreamClient(transport, hooks, pinModern);
  try {
    await run(client, transport);
    return { client, transport };
  } catch (error) {
    await client.close().catch(() => {});
    return new ConnectFailure(error, transport);
  }
}

/**
 * True when the server answered initialize with a JSON-RPC error (over HTTP, in the body of a 4xx
 * answer): it is alive but will not speak 2025.
 */
function refusedInitialize(error: unknown): boolean {
  const err = error as { code?: unknown; data?: { status?: unknown; text?: unknown } } | undefined;
  if (typeof err?.code === 'number') return true;
  const text = err?.data?.text;
  if (typeof err?.data?.status !== 'number' || typeof text !== 'string') return false;
  try {
    return typeof (JSON.parse(text) as { error?: { code?: unknown } }).error?.code === 'number';
  } catch {
    return false;
  }
}

/** A connection that could not be made, with the transport it failed on (for its exit and stderr). */
export class ConnectFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly transport: Transport,
  ) {
    super((failure as Error)?.message ?? String(failure));
  }
}

/** An SDK request failure as an UpstreamError, keeping the upstream's JSON-RPC error. */
export function sdkFailure(server: string, error: unknown): UpstreamError {
  const err = error as { code?: unknown; message?: unknown; data?: unknown };
  const text = outsideText(typeof err?.message === 'string' ? err.message : String(error));
  const rpc = typeof err?.code === 'number' ? { code: err.code, message: text, ...(err.data === undefined ? {} : { data: err.data }) } : undefined;
  return new UpstreamError(server, `upstream "${server}" answered with an error: ${text}`, rpc);
}
