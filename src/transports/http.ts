import { randomUUID } from 'node:crypto';
import { limitConnections, originForm } from './http-limits.js';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { isStrategy, type Strategy } from '../config/strategies.js';
import { addCloseListener } from '../util/close.js';
import { servedRefusal, someModes, unknownServedMode } from '../focus/policy.js';
import { resolveScope, type Route } from '../focus/scope.js';
import { ConfigError, echoName } from '../util/errors.js';
import { errorEnvelope, ErrorCode } from '../protocol/jsonrpc.js';
import { refusedBeforeParsing } from '../protocol/param-bounds.js';
import { BODIES_IN_FLIGHT_BYTES, BodyBudget, readBody, requestFailureLog } from './http-body.js';
import { guardRequest, operatorRefusal, refuseOpenAddress } from './http-guard.js';
import type { Hub } from '../callers/hub.js';
import { openSession, type FrontSession } from '../callers/session.js';
import { isListen, operatorRequest, waitsForStart, type Metrics } from './http-ops.js';
import { claimsEnvelope, classifyEra } from '../protocol/era.js';
import { createModernHttp, MAX_LISTEN_PER_TOKEN } from './http-modern.js';
import { BoundedHttpTransport, unreadBound } from './http-unread.js';
import { grantKey, heldBy, revoked, stillAdmitted } from './http-grants.js';
import { cancelWhenDropped } from './http-cancel.js';

export interface HttpOptions {
  host?: string | undefined;
  port?: number | undefined;
  /** Bearer token clients must send (`Authorization: Bearer …`). */
  token?: string | undefined;
  /** Allow a non-loopback address without a token. */
  force?: boolean | undefined;
  /** Extra Host header values to accept: `host:port` exactly, or `host` on any port; and Origins. */
  allowedHosts?: string[] | undefined;
  allowedOrigins?: string[] | undefined;
  /** Strategy for sessions (default: the rc's); `?strategy=` on the initialize request overrides it. */
  strategy?: Strategy | undefined;
  /** Sessions idle this long are closed (default 30 minutes). */
  idleTimeoutMs?: number | undefined;
  /** Largest request body accepted (default 4 MiB). */
  maxBodyBytes?: number | undefined;
  /** Bytes of large request bodies (over 64 KiB) held at once, until their answers end; past it one answers 503 (default 64 MiB, at least twice maxBodyBytes). */
  maxBodiesInFlightBytes?: number | undefined;
  /**
   * Serve only these modes, each fixed (`serve --http --mode M`): `/mcp` serves the first,
   * `/mcp/<mode>` each of them, other paths answer 404, and no session can switch modes.
   */
  modes?: readonly string[] | undefined;
  /** Most sessions open at once; initialize past it answers 503 (default 1000). */
  maxSessions?: number | undefined;
  /** Time a client has to send a whole request, headers and body (default 30 s). */
  requestTimeoutMs?: number | undefined;
  /** Time a client has to send the request headers (default 10 s). */
  headersTimeoutMs?: number | undefined;
  /** Most TCP connections open at once (default 2000). */
  maxConnections?: number | undefined;
  /** Serve these at /metrics (rc `metrics`, `serve --metrics`); 404 there without. */
  metrics?: Metrics | undefined;
  /** Most TCP connections open at once from one remote address (default 256; slowloris). */
  maxConnectionsPerAddress?: number | undefined;
  /** Most 2026-07-28 subscriptions/listen streams one bearer token holds open (default half of maxConnectionsPerAddress, at most 512: 128 with the defaults). */
  maxListenPerToken?: number | undefined;
}

export interface HttpFront {
  url: string;
  server: HttpServer;
  sessions: Map<string, HttpSession>;
  /** Stops listening; requests that still arrive on open connections answer 503 (shutdown). */
  stopAccepting(): void;
  /** POSTs being answered (subscriptions/listen streams aside): what a shutdown waits for. */
  readonly inFlight: number;
  close(): Promise<void>;
}

interface HttpSession {
  session: FrontSession;
  /** The rc token (label and modes, grantKey) the session was opened with: its requests must keep using it. */
  grant: string | undefined;
  transport: BoundedHttpTransport;
  path: string;
  lastSeen: number;
  /** POSTs being answered: a session working on a slow call is not idle. */
  active: number;
}

const DEFAULT_MAX_SESSIONS = 1_000;

/**
 * Serves the gateway over Streamable HTTP: `/mcp` (switchable modes) and `/mcp/<mode>` (a fixed
 * mode whose list never varies per connection). One SDK server, transport and focus actor per
 * session. Binds 127.0.0.1 by default, checks Host and Origin against DNS rebinding, accepts an
 * optional bearer token, and refuses a non-loopback address without a token unless forced.
 *
 * @example
 * const front = await serveHttp(gateway, { port: 8080 });
 * console.error(`listening on ${front.url}`);
 */
export async function serveHttp(gateway: Hub, options: HttpOptions = {}): Promise<HttpFront> {
  const host = options.host ?? '127.0.0.1';
  refuseOpenAddress(host, Boolean(options.token) || gateway.config.tokens.length > 0, options.force);
  const sessions = new Map<string, HttpSession>();
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const bodies = new BodyBudget(options.maxBodiesInFlightBytes ?? Math.max(BODIES_IN_FLIGHT_BYTES, 2 * maxBody));
  const idle = options.idleTimeoutMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const fixedModes = options.modes && options.modes.length > 0 ? options.modes : undefined;
  const unknownMode = unknownServedMode(gateway.config, fixedModes);
  if (unknownMode !== undefined) throw new ConfigError(`--mode: ${unknownMode}`);
  /** Sessions created for an initialize the SDK has not answered yet (they count against the cap). */
  let opening = 0;
  let port = options.port ?? 0;
  const perAddress = options.maxConnectionsPerAddress ?? 256;
  // One token's listen streams fill at most half of one address's connections.
  const maxListenPerToken = options.maxListenPerToken ?? Math.min(MAX_LISTEN_PER_TOKEN, Math.max(1, Math.floor(perAddress / 2)));
  const modern = createModernHttp(gateway, { maxBodyBytes: maxBody, maxListenPerToken, sharedToken: options.token });

  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  let draining = false;
  let inFlight = 0;
  let closing: Promise<void> | undefined;
  const failed = requestFailureLog(gateway.logger);
  const stopListening = () => (closing ??= new Promise<void>((resolve) => server.close(() => resolve())));
  const server = createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(100, Math.min(headersTimeout, requestTimeout) / 4) }, (req, res) => {
    originForm(req);
    if (draining) {
      res.setHeader('connection', 'close');
      return refuse(res, 503, 'Service unavailable: the gateway is shutting down');
    }
    handle(req, res).catch((error: unknown) => {
      failed(req, error);
      if (!res.headersSent) refuse(res, 500, 'Internal error', ErrorCode.InternalError);
      else res.end();
    });
  });
  const limits = limitConnections(server, perAddress, options.maxConnections ?? 2_000);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // /healthz, and /readyz and /metrics to their own token (http-ops, http-guard operatorRefusal).
    const refusal = () => operatorRefusal(req.headers, req.socket.remoteAddress, port, host, options, gateway.config);
    if (await operatorRequest(req, res, url.pathname, { gateway, metrics: options.metrics, refusal, reply })) return;
    // Host, Origin, then the bearer token against --token and the rc's auth.tokens (http-guard).
    const guarded = guardRequest(req.headers, port, host, options, gateway.config);
    if ('refusal' in guarded) {
      if (guarded.refusal.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
      return refuse(res, guarded.refusal.status, guarded.refusal.message);
    }
    const access = guarded.access;
    const grant = access.kind === 'modes' ? access.grant : undefined;
    // Refusals name only the modes this caller may use: listed when one is made or a mode path is
    // checked, not for every request to /mcp (a config may hold thousands of modes).
    const served = () => (fixedModes ?? Object.keys(gateway.config.modes)).filter((name) => !grant || grant.modes.includes(name));
    const route = /^\/mcp(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!route)
      return reply(res, 404, { error: `Not found: serve MCP at /mcp or /mcp/<mode> (modes: ${someModes(served())})` });
    const mode = route[1] === undefined ? fixedModes?.[0] : safeDecode(route[1]);
    if (mode === null) return refuse(res, 404, `Not found: "${echoName(route[1] ?? '')}" is not a valid mode path`);
    const unserved = mode === undefined ? undefined : servedRefusal(gateway.config, mode, fixedModes, served());
    if (unserved !== undefined) return refuse(res, 404, unserved);

    // What the transport knows, for the one resolver (focus/scope): a token mapped to modes
    // bounds the mode, and no endpoint may widen it.
    const baseRoute: Route = { endpoint: route[1] === undefined ? undefined : (mode as string), served: fixedModes, tokenModes: grant?.modes, tokenLabel: grant?.label };
    const decided = grant ? resolveScope(gateway.config, baseRoute, { era: 'legacy' }) : undefined;
    if (decided && 'refusal' in decided) return refuse(res, 403, `Forbidden: ${decided.refusal}`);

    // A request is in flight from its arrival (its body may take a while) until its response ends.
    const sessionId = req.headers['mcp-session-id'];
    const entry = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string') {
      if (!entry || entry.path !== url.pathname || entry.grant !== grantKey(grant))
        return refuse(res, 404, 'Session not found: start a new session with initialize', ErrorCode.SessionNotFound);
      entry.lastSeen = Date.now();
      if (req.method === 'POST') busy(entry, res);
    }
    let body: unknown;
    let bodyBytes = 0;
    if (req.method === 'POST') {
      const parsed = await readBody(req, res, maxBody, bodies);
      if (!parsed.ok) return reply(res, parsed.status, errorEnvelope(null, parsed.code, parsed.message), parsed.retry ? { 'retry-after': '1' } : {});
      body = parsed.value;
      bodyBytes = parsed.bytes;
      // Requests that read the catalog wait for the initial start (bounded by the start
      // timeouts), so a first list is whole; the handshake is answered at once.
      const starting = gateway.ready();
      if (starting && waitsForStart(body)) await starting;
      // A reload while it came in may have revoked its token: not served with the old access (http-grants).
      if (!stillAdmitted(grantKey(grant), gateway.config, options.token)) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return refuse(res, 401, "Unauthorized: the gateway's tokens changed while this request came in: send it again");
      }
      // A shutdown lets this answer finish first (a listen stream is not an answer to wait for).
      if (!isListen(body)) {
        inFlight++;
        res.once('close', () => inFlight--);
      }
    }
    // Long-lived streams: at a connection bound, the biggest holder's oldest gives way (http-limits).
    if ((entry && req.method === 'GET') || isListen(body)) limits.stream(req, res, grant?.label ?? '');
    if (entry) {
      // A POST its client drops is cancelled: its handlers stop (http-cancel).
      if (req.method === 'POST') cancelWhenDropped(res, body, (message) => entry.transport.onmessage?.(message));
      return entry.transport.handleRequest(req, res, body);
    }
    // The strategy a URL asks for (`?strategy=`), for a session's initialize and for every 2026-07-28 request.
    // Most URLs have no query: its URLSearchParams is not built for them.
    const requested = url.search === '' ? null : url.searchParams.get('strategy');
    if (requested !== null && !isStrategy(requested))
      return refuse(res, 400, `Unknown strategy "${echoName(requested)}": expected notify, proxy, hybrid or auto`);
    const callerRoute: Route = { ...baseRoute, strategy: requested ?? options.strategy, baseUrl: `http://${req.headers.host ?? `${host}:${port}`}/mcp` };
    // 2026-07-28 requests (envelope, server/discover) go to the stateless modern front.
    // One classifier for both transports (protocol/era); a body the SDK rejects gets its modern error.
    if (req.method === 'POST' && (claimsEnvelope(body) || classifyEra(body, req.headers) !== 'legacy')) {
      // Records the SDK checks key by key past a bound, and `__proto__` arguments, first (protocol/param-bounds).
      const refused = refusedBeforeParsing(body, 'modern');
      if (refused) return reply(res, 200, refused);
      return modern.handle(req, res, { body, bytes: bodyBytes }, { ...callerRoute, tokenScoped: gateway.config.tokens.length > 0 }, grantKey(grant));
    }
    if (req.method !== 'POST' || !isInitialize(body))
      return refuse(res, 400, 'Bad Request: no valid session ID; the first request must be initialize');

    if (sessions.size + opening >= maxSessions)
      return refuse(res, 503, `Too many sessions (${maxSessions} open): close idle sessions or raise --max-sessions`);
    // One token may hold at most half the sessions, so another token always finds room.
    if (grant && heldBy(sessions, grantKey(grant)) >= Math.ceil(maxSessions / 2))
      return refuse(res, 503, `Too many sessions for this token (${Math.ceil(maxSessions / 2)} open): close idle sessions`);
    // The session's scope (focus/scope): the endpoint's mode narrowed by the token's modes. A
    // token of one mode fixes the session there; of several, it switches among them.
    const session = openSession(gateway, callerRoute);
    const transport: BoundedHttpTransport = new BoundedHttpTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const entry: HttpSession = { session, transport, grant: grantKey(grant), path: url.pathname, lastSeen: Date.now(), active: 0 };
        // Revoked by a reload while it initialized (the sweep below missed it): never registered, closed below.
        if (!stillAdmitted(entry.grant, gateway.config, options.token)) return;
        busy(entry, res);
        sessions.set(id, entry);
      },
    }, (message) => gateway.logger.warn(message), () => unreadBound(sessions.size));
    addCloseListener(session, () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    });
    opening++;
    try {
      await session.connect(transport, { paceBatches: true });
      await transport.handleRequest(req, res, body);
    } finally {
      opening--;
      // The SDK refused the initialize (Accept, Content-Type, batch...), or a reload revoked its token: no session is kept.
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await session.close();
    }
  }

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of sessions) {
      if (entry.active === 0 && now - entry.lastSeen > idle) {
        sessions.delete(id);
        void entry.session.close();
      }
    }
  }, Math.min(idle, 60_000));
  sweep.unref();
  // A reload (serve --watch) that takes a session's access away ends it (http-grants).
  const revoke = (kind: string) => {
    if (kind === 'tools') for (const [, entry] of revoked(sessions, gateway.config, options.token)) void entry.session.close();
  };
  gateway.listChangeListeners.add(revoke);

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    server,
    sessions,
    stopAccepting() {
      draining = true;
      void stopListening();
    },
    get inFlight() {
      return inFlight;
    },
    async close() {
      clearInterval(sweep);
      gateway.listChangeListeners.delete(revoke);
      await modern.close();
      await Promise.allSettled([...sessions.values()].map((entry) => entry.session.close()));
      sessions.clear();
      const closed = stopListening();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A path segment decoded, or null when it is not valid percent-encoding (`%E0%A4%A`). */
function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A listen failure the user can act on: which address, why, and what to do. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new ConfigError(`cannot serve on ${where}: the port is already in use. Stop the process listening there, or pick another port (--http ${host}:${port + 1}, or --http 0 for any free port).`);
  if (error.code === 'EACCES') return new ConfigError(`cannot serve on ${where}: permission denied. Use a port above 1023.`);
  if (error.code === 'EADDRNOTAVAIL') return new ConfigError(`cannot serve on ${where}: no network interface has the address ${host}. Use 127.0.0.1 or an address of this machine.`);
  return error;
}

/** Counts a POST as in flight until its response ends: a session working on a slow call is not idle. */
function busy(entry: HttpSession, res: ServerResponse): void {
  entry.active++;
  res.once('close', () => {
    entry.active--;
    entry.lastSeen = Date.now();
  });
}

function isInitialize(body: unknown): boolean {
  if (Array.isArray(body)) return body.some((message) => isInitializeRequest(message));
  return isInitializeRequest(body);
}

/** A JSON-RPC error answer (id null: the request was not read, or not served) with its HTTP status. */
function refuse(res: ServerResponse, status: number, message: string, code: number = ErrorCode.Refused): void {
  reply(res, status, errorEnvelope(null, code, message));
}

/**
 * A JSON answer. Sent before the request's body was read (a refusal), it closes the connection:
 * a client trickling a body it was refused cannot keep the socket.
 */
function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const close = res.req.complete ? {} : { connection: 'close' };
  res.writeHead(status, { 'content-type': 'application/json', ...headers, ...close }).end(JSON.stringify(body));
}
