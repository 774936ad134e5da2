import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bounds open connections, per remote address and in all, without letting sockets that never
 * finish a request (slowloris: headers trickled one byte at a time) lock out real clients. At a
 * bound, a new connection displaces the oldest socket of that address (or of any address, at the
 * total bound) that has not sent a whole request head yet; only when every socket is serving a
 * request is the new one refused. A real client sends its head within milliseconds, so it is the
 * trickling sockets that go, even when the attacker shares the client's address (loopback).
 */
export function limitConnections(server: Server, perAddress: number, total: number): void {
  /** Sockets without a whole request head yet, oldest first (a Set keeps insertion order). */
  const waiting = new Set<Socket>();
  /** Open sockets per address; a socket leaves the count once, when displaced or closed. */
  const open = new Map<string, Set<Socket>>();
  let count = 0;
  const forget = (socket: Socket, address: string): void => {
    const mine = open.get(address);
    if (!mine?.delete(socket)) return;
    if (mine.size === 0) open.delete(address);
    waiting.delete(socket);
    count--;
  };
  const displace = (address: string | undefined): boolean => {
    for (const socket of waiting) {
      if (address !== undefined && socket.remoteAddress !== address) continue;
      forget(socket, socket.remoteAddress ?? '');
      socket.destroy();
      return true;
    }
    return false;
  };
  server.on('request', (req: IncomingMessage) => waiting.delete(req.socket));
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
