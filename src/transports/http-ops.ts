import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRequest } from '../protocol/jsonrpc.js';
import type { Hub } from '../callers/hub.js';

/** What the HTTP front serves at /metrics (app/metrics.ts makes it). */
export interface Metrics {
  /** The Prometheus text exposition of every metric, collected now. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * What the HTTP front serves operators besides MCP, and which MCP requests wait for the initial
 * start. `/healthz` is answered before any check (http.ts); these after the Host, Origin and
 * token checks.
 */

/** `/healthz`: 200 while the process is up (a probe names the pod's address: no Host check). */
export function isHealthz(req: IncomingMessage): boolean {
  return req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD');
}

/**
 * `/readyz` (503 until the initial starts settled; each server's state) and `/metrics` (when
 * metrics are on). Returns false for any other path.
 */
export async function operatorEndpoint(pathname: string, res: ServerResponse, gateway: Hub, metrics: Metrics | undefined): Promise<boolean> {
  if (pathname === '/readyz') {
    res.writeHead(gateway.settled ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ready: gateway.settled, servers: gateway.serverStates() }));
    return true;
  }
  if (pathname === '/metrics' && metrics) {
    const { contentType, body } = await metrics.render();
    res.writeHead(200, { 'content-type': contentType }).end(body);
    return true;
  }
  return false;
}

/** What is answered before the initial start settled: the handshake and pings. */
const BEFORE_START = new Set(['initialize', 'ping', 'server/discover']);

/** True when the body holds a request that reads the catalog (anything but the handshake). */
export function waitsForStart(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((message) => requestIn(message) && !BEFORE_START.has(message.method));
}

/** A subscriptions/listen stream: open for as long as the client listens, not an answer to wait for. */
export function isListen(body: unknown): boolean {
  return requestIn(body) && body.method === 'subscriptions/listen';
}

/** A request, from any JSON value a client may send (`null`, numbers, strings included). */
function requestIn(value: unknown): value is { method: string } {
  return typeof value === 'object' && value !== null && isRequest(value);
}
