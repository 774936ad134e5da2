import type { Server } from '@modelcontextprotocol/server';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { Upstream } from '../upstream/upstream.js';
import type { Caller, CallerFront, SessionLink } from './caller.js';

/** MCP log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

function rank(level: unknown): number {
  const at = LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
  return at < 0 ? 0 : at;
}

/** logging/setLevel (2025 sessions): the session's level filters what it receives and reaches the upstreams. */
export function registerLogging<C extends Caller & SessionLink>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('logging/setLevel', async (request, ctx) => {
    const session = front.callerOf(ctx);
    session.logLevel = request.params.level;
    await session.routing.applyLogLevels();
    return {};
  });
}

/**
 * The level to ask upstreams for: the most verbose any session set (each session then filters
 * its own), or undefined when no session set one.
 */
export function upstreamLogLevel(sessions: Iterable<SessionLink>): string | undefined {
  let lowest: number | undefined;
  for (const session of sessions) if (session.logLevel !== undefined) lowest = Math.min(lowest ?? Infinity, rank(session.logLevel));
  return lowest === undefined ? undefined : LOG_LEVELS[lowest];
}

/** Sends logging/setLevel to a ready upstream that logs, when the level differs from the last sent. */
export async function sendLogLevel(upstream: Upstream, level: string | undefined, sent: WeakMap<Upstream, string>): Promise<void> {
  if (level === undefined || upstream.status !== 'ready' || !upstream.capabilities?.logging || sent.get(upstream) === level) return;
  sent.set(upstream, level);
  await upstream.request('logging/setLevel', { level }).catch(() => sent.delete(upstream));
}

/**
 * An upstream's notifications/message for a session: the server named as the logger (`server`
 * or `server/logger`), dropped when below the session's level.
 */
export function deliverLog(session: SessionLink, server: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined): void {
  const level = params?.level;
  if (session.logLevel !== undefined && rank(level) < rank(session.logLevel)) return;
  const logger = typeof params?.logger === 'string' && params.logger.length > 0 ? `${server}/${params.logger}` : server;
  session.notify('notifications/message', { ...params, logger }, relatedRequestId);
}
