import type { Server } from '@modelcontextprotocol/server';
import { entryList, readVocabulary, wordSet } from '../config/vocabulary.js';
import type { Era } from '../protocol/era.js';
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

type LogLevel = (typeof LOG_LEVELS)[number];

/** Shortest level name matched by prefix ("warn", "err"): shorter ones ("e", "in") mean nothing. */
const MIN_PREFIX = 3;
/**
 * Unknown levels noted on stderr per server, at most (each once): then one line says no more come.
 * An upstream cycling through new names (a flood budget passes 1,000 notifications a second) had
 * a stderr line for each, for good, while the notes of all servers were forgotten together.
 */
const NOTED_PER_SERVER = 32;
/** Characters of an unknown level quoted in the note. */
const QUOTED = 40;

let aliases: ReadonlyMap<string, LogLevel> | undefined;

/** vocabulary/log-levels.json: other libraries' level names, by the MCP level each means; read on the first unknown level. */
function levelAliases(): ReadonlyMap<string, LogLevel> {
  return (aliases ??= readVocabulary('log-levels', (json) => {
    const map = new Map<string, LogLevel>();
    for (const level of LOG_LEVELS) if (level in json) for (const word of wordSet(entryList(json, level))) map.set(word, level);
    return map;
  }));
}

/**
 * The spec's level for what an upstream sent: its own when it is one; else by case, by prefix
 * ("warn", "WARNING", "information"), syslog's number (0 emergency .. 7 debug), another library's
 * name (vocabulary/log-levels.json), and `info` when none says (a client validates the level
 * against the spec's enum and drops the whole line otherwise).
 */
export function specLevel(level: unknown): { level: LogLevel; known: boolean } {
  if (LOG_LEVELS.includes(level as LogLevel)) return { level: level as LogLevel, known: true };
  if (typeof level === 'number' && Number.isInteger(level) && level >= 0 && level < LOG_LEVELS.length) return { level: LOG_LEVELS[LOG_LEVELS.length - 1 - level]!, known: false };
  const word = typeof level === 'string' ? level.trim().toLowerCase() : '';
  const prefixed = word.length >= MIN_PREFIX ? LOG_LEVELS.find((name) => name.startsWith(word) || word.startsWith(name)) : undefined;
  return { level: prefixed ?? (word ? levelAliases().get(word) : undefined) ?? 'info', known: false };
}

function quoted(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > QUOTED ? `${value.slice(0, QUOTED)}…` : value);
  return typeof value === 'number' || typeof value === 'boolean' || value === null ? String(value) : `(${typeof value})`;
}

/** An upstream's log line with the spec's level (specLevel), saying once per server and level on stderr when it was not one. */
export class LogLevels {
  /** Per server, the levels noted (at most NOTED_PER_SERVER). */
  private readonly noted = new Map<string, Set<string>>();

  constructor(private readonly warn: (message: string) => void) {}

  params(server: string, params: Record<string, unknown> | undefined): Record<string, unknown> {
    const { level, known } = specLevel(params?.level);
    if (known) return params!;
    const sent = params?.level === undefined ? 'no level' : `level ${quoted(params.level)}`;
    let noted = this.noted.get(server);
    if (!noted) this.noted.set(server, (noted = new Set()));
    if (!noted.has(sent) && noted.size <= NOTED_PER_SERVER) {
      noted.add(sent);
      this.warn(
        noted.size > NOTED_PER_SERVER
          ? `upstream "${server}" sent log lines with ${NOTED_PER_SERVER} levels that are not MCP levels: further log levels of upstream "${server}" that are not MCP levels are passed on without a note`
          : `upstream "${server}" sent a log line with ${sent}, not an MCP level: passed on as "${level}"`,
      );
    }
    return { ...params, level };
  }
}

/**
 * What a 2025 upstream is taken to log before it is told a level (the spec leaves it to the
 * server; `info` is most loggers' default): the level a session that never set one hears from an
 * upstream another session's setLevel made more verbose than that (unsetSessionLevel).
 */
export const UNASKED_LEVEL: LogLevel = 'info';

/**
 * The level a session that never set one is held to on an upstream's lines, given the level the
 * gateway last asked that upstream for (`asked`, for the sessions that set one) and its era:
 * UNASKED_LEVEL when that made a 2025 upstream more verbose than it logs unasked, else none (every
 * line, as before). One session's `debug` lowered the upstream for all, and the sessions that
 * never set a level received its debug lines too. A 2026-07-28 upstream is asked for `debug`
 * until a session sets a level (modern.ts), so what such sessions heard before stays theirs.
 */
export function unsetSessionLevel(asked: string | undefined, era: Era | undefined): LogLevel | undefined {
  return asked !== undefined && era !== 'modern' && rank(asked) < rank(UNASKED_LEVEL) ? UNASKED_LEVEL : undefined;
}

/**
 * An upstream's notifications/message for a session: the server named as the logger (`server`
 * or `server/logger`), dropped when below the session's level, or for a session that never set
 * one, below `unset` (unsetSessionLevel).
 */
export function deliverLog(session: SessionLink, server: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined, unset?: string): void {
  const level = params?.level;
  const wanted = session.logLevel ?? unset;
  if (wanted !== undefined && rank(level) < rank(wanted)) return;
  const logger = typeof params?.logger === 'string' && params.logger.length > 0 ? `${server}/${params.logger}` : server;
  session.notify('notifications/message', { ...params, logger }, relatedRequestId);
}
