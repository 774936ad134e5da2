import type { IncomingMessage, Server } from 'node:http';
import { Shares } from '../util/counts.js';

/**
 * Closes a remote address's connections past `max` at once: one address trickling headers on
 * many sockets (slowloris) would otherwise fill the server's maxConnections for everyone.
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Shares<string>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    if (!open.take(address, max)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => open.release(address));
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
