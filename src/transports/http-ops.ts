import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRequest } from '../protocol/jsonrpc.js';
import type { Hub } from '../callers/hub.js';
import type { Refusal } from './http-guard.js';
import { distinctShownName } from '../config/secrets.js';

/** What the HTTP front serves at /metrics (app/metrics.ts makes it). */
export interface Metrics {
  /** The Prometheus text exposition of every metric, collected now. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * What the HTTP front serves operators besides MCP, and which MCP requests wait for the initial
 * start. `/healthz` is answered before any check; `/readyz` and `/metrics` after the Host and
 * Origin checks, to their own token (http-guard operatorRefusal), never to a mode token.
 */

/** What an operator request needs of the front. */
export interface OpsContext {
  gateway: Hub;
  metrics: Metrics | undefined;
  /** Why this request may not read /readyz and /metrics, or undefined (http-guard operatorRefusal). */
  refusal: () => Refusal | undefined;
  reply: (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;
}

/**
 * Answers `/healthz` (200 while the process is up; a probe names the pod's address, so no Host
 * check), `/readyz` (503 until the initial starts settled; each server's state) and
 * `/metrics` (when metrics are on); other methods than GET and HEAD there answer 405. Returns
 * false for any other path.
 */
export async function operatorRequest(req: IncomingMessage, res: ServerResponse, pathname: string, ops: OpsContext): Promise<boolean> {
  if (pathname !== '/healthz' && pathname !== '/readyz' && !(pathname === '/metrics' && ops.metrics)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    ops.reply(res, 405, { error: `Method ${String(req.method).slice(0, 16)} not allowed: ${pathname} answers GET and HEAD` }, { allow: 'GET, HEAD' });
    return true;
  }
  if (pathname === '/healthz') {
    ops.reply(res, 200, { status: 'ok' });
    return true;
  }
  const refusal = ops.refusal();
  if (refusal) {
    ops.reply(res, refusal.status, { error: refusal.message }, refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    return true;
  }
  if (pathname === '/readyz') {
    // A token pasted as a server's name is described, with a digest suffix so two such servers stay
    // apart (distinctShownName, as /metrics labels them).
    const servers = ops.gateway.serverStates().map((state) => ({ ...state, name: distinctShownName(state.name) }));
    ops.reply(res, ops.gateway.settled ? 200 : 503, { ready: ops.gateway.settled, servers });
    return true;
  }
  const { contentType, body } = await (ops.metrics as Metrics).render();
  res.writeHead(200, { 'content-type': contentType }).end(body);
  return true;
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
