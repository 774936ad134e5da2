import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import type { Strategy } from '../config/schema.js';
import { fixedModeGone } from '../focus/policy.js';
import { addCloseListener } from '../util/close.js';
import { isRequest } from '../protocol/jsonrpc.js';
import { classifyEra, isMethod, type Era } from '../protocol/era.js';
import { refusedBeforeParsing } from '../protocol/param-bounds.js';
import type { Hub } from '../callers/hub.js';
import type { StdioFrontTransport } from './stdio.js';

/** How a stdio connection is served once its era is known. */
export interface StdioEras {
  /** Serves the connection as a legacy session (today's path); resolves once connected. */
  legacy(transport: StdioFrontTransport): Promise<void>;
  /** Modes `serve --mode` fixed, and the strategy setting. */
  served: readonly string[] | undefined;
  strategy: Strategy | undefined;
}

/** The 2026-07-28 side of a stdio connection: the SDK's serveStdio over a channel of the real transport. */
interface ModernLeg {
  deliver(message: JSONRPCMessage): void;
  close(): Promise<void>;
}

/**
 * Serves one stdio connection in the era its opening exchange picks: `initialize` (or anything
 * that is not a 2026-07-28 request) keeps today's legacy session; an enveloped request serves
 * 2026-07-28 through the SDK's `serveStdio` with lazytools' modern server, whose
 * subscriptions/listen streams hear list changes. A `server/discover` opening is answered by the
 * modern server as a probe: a client that falls back to `initialize` after it (a probe timeout)
 * still gets its legacy session. Messages that arrive while an era is being set up are held and
 * replayed in order. Resolves with a promise that settles (with a reason when the gateway ended
 * the connection) when the connection ends.
 */
export async function serveStdioEras(gateway: Hub, transport: StdioFrontTransport, eras: StdioEras): Promise<{ modern: boolean; ended: Promise<string | undefined> }> {
  let endReason: string | undefined;
  let closed!: () => void;
  const ended = new Promise<void>((resolve) => (closed = resolve)).then(() => endReason);
  addCloseListener(transport, closed);
  let state: 'opening' | 'probe' | Era = 'opening';
  let modern: Promise<ModernLeg> | undefined;
  const held: JSONRPCMessage[] = [];
  let settle!: (era: Era) => void;
  const decided = new Promise<Era>((resolve) => (settle = resolve));

  let replayed = false;
  const toLegacy = async () => {
    const leg = modern;
    modern = undefined;
    if (leg) await (await leg).close();
    await eras.legacy(transport);
    replayed = true;
    for (const message of held.splice(0)) transport.onmessage?.(message as never);
    settle('legacy');
  };
  const toModern = (message: JSONRPCMessage) => {
    modern ??= startModern(gateway, transport, eras, (reason) => (endReason = reason));
    void modern.then((leg) => leg.deliver(message));
  };

  transport.onmessage = (raw) => {
    const message = raw as JSONRPCMessage;
    // The SDK keeps this handler in its chain once the session connected: it then has nothing to do.
    if (state === 'legacy') {
      if (!replayed) held.push(message);
      return;
    }
    if (state === 'opening' || state === 'probe') {
      // One classifier for both transports (protocol/era): an initialize with a valid 2026-07-28
      // envelope claim is a modern request, as the SDK and the HTTP front treat it.
      const era = classifyEra(message);
      if ((era !== 'modern' && isMethod(message, 'initialize')) || (state === 'opening' && era !== 'modern')) {
        state = 'legacy';
        held.push(message);
        // After the lines of this chunk are held: connecting takes over onmessage synchronously.
        // A session that cannot be opened (its fixed mode gone in a reload) ends the connection
        // saying why: its held initialize would otherwise wait unanswered for good.
        queueMicrotask(() =>
          void toLegacy().catch((error: unknown) => {
            endReason = `stdio: ${(error as Error).message}`;
            void transport.close();
          }),
        );
        return;
      }
      if (era === 'modern') state = isRequest(message) && message.method === 'server/discover' ? 'probe' : 'modern';
      if (state === 'modern') settle('modern');
    }
    toModern(message);
  };
  await transport.start();
  const era = await Promise.race([decided, ended.then(() => undefined)]);
  return { modern: era === 'modern', ended };
}

/** Starts the SDK's serveStdio on a channel that forwards to the real transport (loaded only now). */
async function startModern(gateway: Hub, transport: StdioFrontTransport, eras: StdioEras, end: (reason: string) => void): Promise<ModernLeg> {
  const [{ serveStdio }, { createModernServer }, { watchListChanges }, { StdioGroupsListens }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../callers/modern-server.js'),
    import('../handlers/list-changes.js'),
    import('./groups-listen.js'),
  ]);
  const groups = new StdioGroupsListens(gateway, { served: eras.served, strategy: eras.strategy }, (notification) => void channel.send(notification as never));
  // serveStdio owns the transport it is given: give it a channel, so a probe can be discarded
  // (the client fell back to initialize) without closing the connection.
  const channel = {
    onmessage: undefined as ((message: JSONRPCMessage) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    closed: false,
    start: async () => {},
    send: (message: JSONRPCMessage) => {
      groups.outbound(message);
      return channel.closed ? Promise.resolve() : transport.send(message as never);
    },
    close: async () => {
      if (channel.closed) return;
      channel.closed = true;
      channel.onclose?.();
    },
  };
  let current: Server | undefined;
  const handle = serveStdio(
    () => {
      current = createModernServer(gateway, { served: eras.served, strategy: eras.strategy });
      return current;
    },
    { transport: channel as never, legacy: 'reject', onerror: (error) => gateway.logger.info(`2026-07-28 stdio: ${error.message}`) },
  );
  const send = (method: string) => void current?.notification({ method } as never).catch(() => {});
  const changes = watchListChanges(gateway, {
    toolsChanged: () => send('notifications/tools/list_changed'),
    promptsChanged: () => send('notifications/prompts/list_changed'),
    resourcesChanged: () => send('notifications/resources/list_changed'),
  });
  // A fixed mode the config no longer has ends the connection (as a legacy fixed session does).
  const gone = () => {
    const reason = fixedModeGone(gateway.config, eras.served);
    if (reason === undefined) return;
    end(reason);
    void transport.close();
  };
  gateway.listChangeListeners.add(gone);
  const close = async () => {
    changes.stop();
    groups.close();
    gateway.listChangeListeners.delete(gone);
    await handle.close();
  };
  addCloseListener(transport, () => void close());
  return {
    deliver: (message) => {
      // Records the SDK would check key by key past a bound, and `__proto__` arguments its parsing
      // would drop, are refused first (protocol/param-bounds, protocol/proto-args).
      const refused = refusedBeforeParsing(message, 'modern');
      if (refused) return void channel.send(refused as never);
      groups.inbound(message);
      channel.onmessage?.(message);
    },
    close,
  };
}
