import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import type { Strategy } from '../../config/schema.js';
import { addCloseListener } from '../../util/close.js';
import type { Gateway } from '../gateway.js';
import type { StdioFrontTransport } from '../stdio.js';
import { isModernOpening } from './classify.js';

/** How a stdio connection is served once its era is known. */
export interface StdioEras {
  /** Serves the connection as a legacy session (today's path); resolves once connected. */
  legacy(transport: StdioFrontTransport): Promise<void>;
  /** Modes `serve --mode` fixed, and the strategy setting. */
  served: readonly string[] | undefined;
  strategy: Strategy | undefined;
}

/**
 * Serves one stdio connection in the era its opening exchange picks: `initialize` (or anything
 * that is not a 2026-07-28 request) keeps today's legacy session; `server/discover` or an
 * enveloped request serves 2026-07-28 through the SDK's `serveStdio` with lazytools' modern
 * server, whose subscriptions/listen streams hear list changes. Messages that arrive while the
 * era is being set up are held and replayed in order. Resolves with a promise that settles when
 * the connection ends.
 */
export async function serveStdioEras(gateway: Gateway, transport: StdioFrontTransport, eras: StdioEras): Promise<{ modern: boolean; ended: Promise<void> }> {
  const held: JSONRPCMessage[] = [];
  const first = new Promise<JSONRPCMessage>((resolve) => {
    transport.onmessage = (message) => {
      held.push(message as JSONRPCMessage);
      if (held.length === 1) resolve(message as JSONRPCMessage);
    };
  });
  let closed!: () => void;
  const ended = new Promise<void>((resolve) => (closed = resolve));
  addCloseListener(transport, closed);
  await transport.start();
  const opening = await Promise.race([first, ended.then(() => undefined)]);
  if (opening === undefined) return { modern: false, ended };
  const replay = () => {
    for (const message of held.splice(0)) transport.onmessage?.(message as never);
  };
  if (!isModernOpening(opening)) {
    await eras.legacy(transport);
    replay();
    return { modern: false, ended };
  }
  // Loaded only for a modern opening: a legacy stdio start does not pay for the v2 server.
  const [{ serveStdio }, { createModernServer }, { watchListChanges }] = await Promise.all([import('@modelcontextprotocol/server/stdio'), import('./server.js'), import('./changes.js')]);
  let current: Server | undefined;
  const handle = serveStdio(
    () => {
      current = createModernServer(gateway, { served: eras.served, strategy: eras.strategy });
      return current;
    },
    { transport: transport as never, legacy: 'reject', onerror: (error) => gateway.logger.info(`2026-07-28 stdio: ${error.message}`) },
  );
  // serveStdio took the transport's onclose slot (and onmessage): listen again.
  addCloseListener(transport, closed);
  const send = (method: string) => void current?.notification({ method } as never).catch(() => {});
  const stop = watchListChanges(gateway, {
    toolsChanged: () => send('notifications/tools/list_changed'),
    promptsChanged: () => send('notifications/prompts/list_changed'),
    resourcesChanged: () => send('notifications/resources/list_changed'),
  });
  void ended.then(() => {
    stop();
    void handle.close();
  });
  replay();
  return { modern: true, ended };
}
