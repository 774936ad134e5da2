import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What the front tells the connection bounds about a socket once it knows its request. */
export interface ConnectionLimits {
  /**
   * Marks `req`'s socket as holding a long-lived stream (a subscriptions/listen stream, a session's
   * GET stream) of `principal` (a token's label, '' without one) until `res` closes.
   */
  stream(req: IncomingMessage, res: ServerResponse, principal: string): void;
}

/**
 * How long a keep-alive socket may idle between requests (Node's default is 5 s). A client reuses
 * an idle socket until the server's `Keep-Alive: timeout=` hint nearly runs out; on a loaded
 * machine its timer fires late and it writes a request into a socket the server is closing
 * (`ECONNRESET` on a POST, which fetch does not retry). A minute makes that race rare for clients
 * that call every few seconds; idle sockets still give way at the connection bounds below.
 */
export const KEEP_ALIVE_MS = 60_000;

/**
 * Bounds open connections, per remote address and in all, without letting sockets that do no
 * work for anyone lock out real clients. At a bound, a new connection displaces, oldest first:
 * 1. a socket without a whole request (slowloris: a head or body trickled a byte at a time; or a
 *    keep-alive socket idle between requests): a real client sends its request within milliseconds;
 * 2. else the oldest stream of the principal (token) holding the most streams there: streams are
 *    long-lived, so one token's streams never keep out another's requests (a client reconnects).
 * Only when every socket is answering a request is the new one refused. Both hold when the
 * attacker shares the clients' address (loopback, a reverse proxy). Sets how long an idle
 * keep-alive socket is kept (KEEP_ALIVE_MS): at a bound it gives way first whatever that is.
 */
export function limitConnections(server: Server, perAddress: number, total: number): ConnectionLimits {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  /** Sockets without a whole request, oldest first (a Set keeps insertion order). */
  const waiting = new Set<Socket>();
  /** Sockets holding a stream, oldest first, with whose stream it is. */
  const streams = new Map<Socket, string>();
  /** Open sockets per address; a socket leaves the count once, when displaced or closed. */
  const open = new Map<string, Set<Socket>>();
  let count = 0;
  const forget = (socket: Socket, address: string): void => {
    const mine = open.get(address);
    if (!mine?.delete(socket)) return;
    if (mine.size === 0) open.delete(address);
    waiting.delete(socket);
    streams.delete(socket);
    count--;
  };
  const drop = (socket: Socket): true => {
    forget(socket, socket.remoteAddress ?? '');
    socket.destroy();
    return true;
  };
  const displace = (address: string | undefined): boolean => {
    const here = (socket: Socket) => address === undefined || socket.remoteAddress === address;
    for (const socket of waiting) if (here(socket)) return drop(socket);
    const held = new Map<string, Socket[]>();
    for (const [socket, principal] of streams) if (here(socket)) held.set(principal, [...(held.get(principal) ?? []), socket]);
    let most: Socket[] = [];
    for (const sockets of held.values()) if (sockets.length > most.length) most = sockets;
    return most[0] !== undefined && drop(most[0]);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    // Whole once its body arrived (at once for a request without one).
    if (req.complete) waiting.delete(socket);
    else req.once('end', () => waiting.delete(socket));
    // Between keep-alive requests the socket waits for a head again.
    res.once('finish', () => {
      if (!socket.destroyed && open.get(socket.remoteAddress ?? '')?.has(socket)) waiting.add(socket);
    });
  });
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (((open.get(address)?.size ?? 0) >= perAddress && !displace(address)) || (count >= total && !displace(undefined))) {
      socket.destroy();
      return;
    }
    let mine = open.get(address);
    if (!mine) open.set(address, (mine = new Set()));
    mine.add(socket);
    waiting.add(socket);
    count++;
    socket.once('close', () => forget(socket, address));
  });
  return {
    stream(req, res, principal) {
      const socket = req.socket;
      if (!open.get(socket.remoteAddress ?? '')?.has(socket)) return;
      streams.set(socket, principal);
      res.once('close', () => streams.delete(socket));
    },
  };
}

/**
 * Rewrites an absolute-form request target (`POST http://host:port/mcp`, RFC 9112 3.2.2) to the
 * origin form the routes and the SDK expect (it reached the SDK as a URL it could not parse: a
 * 500). As the RFC says, the target's authority replaces the Host header, so the Host checks apply to it.
 */
export function originForm(req: IncomingMessage): void {
  const target = req.url ?? '/';
  if (target.startsWith('/') || !/^https?:\/\//i.test(target)) return;
  try {
    const url = new URL(target);
    req.headers.host = url.host;
    req.url = `${url.pathname}${url.search}`;
  } catch {
    // Not a URL: left as it came, so it matches no route (404).
  }
}
