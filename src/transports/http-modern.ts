import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Hub } from '../callers/hub.js';
import { createModernServer, type NotificationGate, type SendTap } from '../callers/modern-server.js';
import type { Route } from '../focus/scope.js';
import { answerId, errorEnvelope, ErrorCode } from '../protocol/jsonrpc.js';
import { Shares } from '../util/counts.js';
import { outsideText } from '../util/redact.js';
import { watchListChanges } from '../handlers/list-changes.js';
import { variantHintsOf } from '../callers/variants.js';
import { groupsOnHttpStream } from './groups-listen.js';
import { ScopedListenBus } from './listen-scope.js';
import { nodeFetchHandler } from './node-fetch.js';
import { revoked, stillAdmitted } from './http-grants.js';
import { roundOwners } from '../callers/rounds.js';
import { stalledStreamGate } from './http-unread.js';
import { earlyAnswer } from './early-answer.js';

/** The AuthInfo `extra` key the route rides under to the per-request server factory (the SDK passes it through). */
const ROUTE_KEY = 'lazytoolsRoute';
/** The AuthInfo `extra` key of the request's stalledStreamGate (http-unread), beside its route. */
const GATE_KEY = 'lazytoolsStreamGate';
/** The AuthInfo `extra` key of the request's early answer (early-answer), beside its route. */
const ANSWER_KEY = 'lazytoolsEarlyAnswer';

/** subscriptions/listen streams one bearer token may hold open (half the SDK's 1,024). */
export const MAX_LISTEN_PER_TOKEN = 512;
/**
 * Largest subscriptions/listen request served: the SDK holds a stream's request as long as the
 * stream is open, so a long-lived request must be small (1,024 streams hold at most 64 MiB).
 */
export const MAX_LISTEN_BYTES = 64 * 1024;
/**
 * Longest `params.name` / `params.uri` a request may carry: the SDK checks it against the request's
 * Mcp-Name header (which Node caps at 16 KiB) and echoes it whole when they differ (a 2 MB URI
 * came back twice, 4 MB), so a longer one is refused here, in a few bytes.
 */
export const MAX_MIRRORED_PARAM = 8 * 1024;

/** The 2026-07-28 leg of the HTTP front. */
export interface ModernHttp {
  /**
   * Serves one modern-classified POST (already read and parsed: its body and size in bytes) for its
   * route; `grant` is the grantKey of its token, what a reload may revoke (http-grants).
   */
  handle(req: IncomingMessage, res: ServerResponse, read: { body: unknown; bytes: number }, route: Route, grant: string | undefined): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves 2026-07-28 requests with the SDK's per-request entry (`createMcpHandler`, legacy
 * rejected: the legacy front keeps its sessions): a fresh server per request from
 * createModernServer, the SDK's envelope validation and `subscriptions/listen` streams, which hear
 * list changes from the gateway (watchListChanges). No per-client state lives here between
 * requests: what a request needs travels with it (path, token, variant). Only listen streams
 * outlive their request: a reload that revokes their token (`sharedToken`: serve's `--token`)
 * closes them.
 */
export function createModernHttp(gateway: Hub, options: { maxBodyBytes: number; maxListenPerToken?: number | undefined; sharedToken?: string | undefined }): ModernHttp {
  const maxListen = options.maxListenPerToken ?? MAX_LISTEN_PER_TOKEN;
  // Each listen stream hears a tools list change only when its own list changed (listen-scope.ts).
  const bus = new ScopedListenBus(gateway);
  // Open subscriptions/listen streams per bearer token: the SDK holds 1,024 in all.
  const listening = new Shares<string>();
  // Open listen streams and the grant (http-grants) each was opened with. Closed on the reload that
  // revokes it, before that reload's list changes are announced (this listener is added first).
  const streams = new Map<ServerResponse, { grant: string | undefined }>();
  const revoke = (kind: string) => {
    if (kind !== 'tools') return;
    for (const [res] of revoked(streams, gateway.config, options.sharedToken)) res.destroy();
    // Input rounds the token had open: their upstream calls are cancelled, not left to time out.
    gateway.inputRounds.abandon(roundOwners(gateway.config.tokens, stillAdmitted(undefined, gateway.config, options.sharedToken)), "a reload took this call's token access away");
  };
  gateway.listChangeListeners.add(revoke);
  const handler = createMcpHandler(
    (ctx) => {
      const route = (ctx.authInfo?.extra?.[ROUTE_KEY] ?? {}) as Route;
      const extra = ctx.authInfo?.extra;
      return createModernServer(gateway, route, extra?.[GATE_KEY] as NotificationGate | undefined, extra?.[ANSWER_KEY] as SendTap | undefined);
    },
    {
      legacy: 'reject',
      bus,
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => gateway.logger.info(`2026-07-28 request: ${outsideText(error.message)}`),
    },
  );
  // The body is always read and parsed already (http.ts, bounded by maxBodyBytes): see node-fetch.
  const node = nodeFetchHandler(handler, (error) => gateway.logger.info(`2026-07-28 request: ${outsideText(error.message)}`));
  const changes = watchListChanges(gateway, handler.notify, () => bus.listenerCount > 0);
  return {
    async handle(req, res, { body, bytes }, route, grant) {
      const label = route.tokenLabel;
      const listen = (body as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
      const params = (body as { params?: { name?: unknown; uri?: unknown } } | undefined)?.params;
      const mirrored = [params?.name, params?.uri].find((value) => typeof value === 'string' && value.length > MAX_MIRRORED_PARAM);
      if (mirrored !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify(errorEnvelope(answerId(body), ErrorCode.InvalidParams, `params.${params?.name === mirrored ? 'name' : 'uri'} is over ${MAX_MIRRORED_PARAM} characters: no such tool, prompt or resource is served`)),
        );
        return;
      }
      // The size as read: serializing the parsed body again cost another copy of it per refusal.
      if (listen && bytes > MAX_LISTEN_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json' }).end(
          JSON.stringify(errorEnvelope(answerId(body), ErrorCode.InvalidRequest, `subscriptions/listen request larger than ${MAX_LISTEN_BYTES} bytes: a stream's request is held while it is open`)),
        );
        return;
      }
      if (listen) {
        changes.listenerOpens();
        streams.set(res, { grant });
        res.once('close', () => streams.delete(res));
      }
      if (label !== undefined && listen) {
        if (!listening.take(label, maxListen)) {
          res.writeHead(503, { 'content-type': 'application/json' }).end(
            JSON.stringify(errorEnvelope(answerId(body), ErrorCode.Refused, `Too many subscriptions/listen streams for this token (${maxListen} open): close some first`)),
          );
          return;
        }
        res.once('close', () => listening.release(label));
      }
      const meta = (body as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
      const hints = (body as { method?: unknown } | null)?.method === 'server/discover' ? variantHintsOf(meta) : undefined;
      // The SDK passes `req.auth` through to the server factory untouched: the route rides there.
      (req as IncomingMessage & { auth?: unknown }).auth = { token: '', clientId: 'lazytools', scopes: [], extra: { [ROUTE_KEY]: { ...route, variantHints: hints }, [GATE_KEY]: stalledStreamGate(res), [ANSWER_KEY]: earlyAnswer(res, body) } };
      groupsOnHttpStream(gateway, route, body, res);
      await (listen ? bus.opening(route, () => node(req, res, body)) : node(req, res, body));
    },
    async close() {
      gateway.listChangeListeners.delete(revoke);
      changes.stop();
      await handler.close();
    },
  };
}
