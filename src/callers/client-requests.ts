import type { Boundary } from '../focus/policy.js';
import type { SessionLink } from '../handlers/caller.js';
import { ambiguousClientRequest, cannotAnswer, clientLacksCapability, noClientSession, tooManyAskingOne } from '../protocol/errors.js';
import { CLIENT_REQUESTS, MAX_ASKING } from '../upstream/client.js';
import type { CallOrigin } from '../upstream/primitives.js';
import type { Upstream, UpstreamRequest } from '../upstream/upstream.js';
import { Shares } from '../util/counts.js';

/**
 * Calls whose upstream asked their client something not answered yet (a 2025 session's client
 * filling in a form, or a 2026-07-28 input round waiting for the client's retry): the upstream is
 * waiting on that answer, maybe for minutes, so its next request most likely comes from another
 * call. Keyed by the call's origin (one object per front request), counted per open question.
 */
const waitingOnClient = new WeakMap<CallOrigin, number>();

/**
 * The calls in flight on an upstream that may have caused the request or notification it sends
 * now, oldest first: those not waiting on their client's answer, so one open question (an input
 * round held for its retry) never makes another client's requests ambiguous; all of them when
 * every call waits (then the request can only be one of theirs).
 */
function possibleCauses(upstream: Upstream): CallOrigin[] {
  const all = upstream.origins();
  const active = all.filter((origin) => !waitingOnClient.has(origin));
  return active.length > 0 ? active : all;
}

/**
 * Counts `origin`'s call as waiting on its client until `answer` settles. Marked one turn of the
 * event loop late: requests the upstream sent in the same burst (several questions at once) are
 * still attributed as the first one was.
 */
function awaitingClient<T>(origin: CallOrigin | undefined, answer: Promise<T>): Promise<T> {
  if (!origin) return answer;
  let marked = false;
  const mark = setImmediate(() => {
    marked = true;
    waitingOnClient.set(origin, (waitingOnClient.get(origin) ?? 0) + 1);
  });
  return answer.finally(() => {
    clearImmediate(mark);
    if (!marked) return;
    const left = (waitingOnClient.get(origin) ?? 1) - 1;
    if (left > 0) waitingOnClient.set(origin, left);
    else waitingOnClient.delete(origin);
  });
}

/**
 * Unanswered requests of one upstream that one holder (a bearer token's sessions and requests, else
 * one session or request) may hold: half of the upstream's MAX_ASKING. A client that never answers
 * its questions held all 64 (each waits up to 10 minutes), and the upstream's questions for every
 * other client were refused meanwhile; now another holder always finds room.
 */
const MAX_ASKING_PER_HOLDER = MAX_ASKING / 2;
const askingShares = new WeakMap<Upstream, Shares<unknown>>();

/** Carries `ask` within the share of the caller's holder on that upstream, refused at once past it. */
function withinShare<T>(upstream: Upstream, caller: object, method: string, ask: () => Promise<T>): Promise<T> {
  const boundary = (caller as { boundary?: Boundary }).boundary;
  const holder = boundary?.token ? `token:${boundary.label ?? ''}` : caller;
  let shares = askingShares.get(upstream);
  if (!shares) askingShares.set(upstream, (shares = new Shares()));
  if (!shares.take(holder, MAX_ASKING_PER_HOLDER)) return Promise.reject(tooManyAskingOne(method, MAX_ASKING_PER_HOLDER));
  const taken = shares;
  return ask().finally(() => taken.release(holder));
}

/**
 * The session an upstream's request or notification belongs to, by one rule:
 * 1. the session whose requests are in flight on that upstream (the latest of them), when they all
 *    come from one session; a call waiting on its client's answer counts only when all calls wait
 *    (possibleCauses);
 * 2. with several sessions in flight: none (ambiguous; the request is refused);
 * 3. with nothing in flight: the session whose request reached that upstream last, if still open.
 */
export function causingSession<S extends SessionLink>(upstream: Upstream, sessions: ReadonlySet<S>): { session: S; origin: CallOrigin | undefined } | { ambiguous: true } | undefined {
  const origins = possibleCauses(upstream).filter((origin) => sessions.has(origin.session as S));
  if (origins.length > 0) {
    const first = origins[0]?.session;
    if (origins.some((origin) => origin.session !== first)) return { ambiguous: true };
    const latest = origins[origins.length - 1];
    return { session: first as S, origin: latest };
  }
  const last = upstream.lastOrigin;
  if (last && sessions.has(last.session as S)) return { session: last.session as S, origin: undefined };
  return undefined;
}

/**
 * Who hears an upstream's log line (notifications/message): the session whose calls are in flight
 * there (the latest of them), when only one caller's are; nobody when calls of several callers, or
 * of a 2026-07-28 request (no session to hear it), are in flight: the line belongs to one of
 * those calls and never to a bystander; with no call in flight, a line no call caused: `everyone`
 * (every session that may reach the upstream).
 */
export function logRecipient<S extends SessionLink>(upstream: Upstream, sessions: ReadonlySet<S>): { session: S; origin: CallOrigin } | 'everyone' | undefined {
  const origins = possibleCauses(upstream);
  const latest = origins[origins.length - 1];
  if (!latest) return 'everyone';
  const session = latest.session as S;
  if (!sessions.has(session) || origins.some((origin) => origin.session !== session)) return undefined;
  return { session, origin: latest };
}

/**
 * A 2026-07-28 request in flight on an upstream (callers/request.ts): it has no channel for
 * server-to-client requests, so one it caused is answered through the request itself (an input
 * round, or -32021 when its client did not declare the capability), never handed to another
 * client's session.
 */
export interface StatelessOrigin {
  readonly stateless: boolean;
  /** Asks the request's client (an input_required round), or rejects with why it cannot. */
  askClient(method: string, params: Record<string, unknown> | undefined, need: string | undefined, server: string): Promise<Record<string, unknown>>;
}

function statelessOf(session: unknown): StatelessOrigin | undefined {
  return typeof session === 'object' && session !== null && (session as { stateless?: unknown }).stateless === true ? (session as StatelessOrigin) : undefined;
}

/**
 * The stateless request that caused an upstream's request: the one its HTTP response stream
 * names, else the one in flight there (by possibleCauses). With a stateless request in flight
 * beside other requests, the cause is unknown: refused as ambiguous, so no other client receives it.
 */
function statelessCause(upstream: Upstream, request: UpstreamRequest): { asker: StatelessOrigin; origin: CallOrigin } | 'ambiguous' | undefined {
  if (request.origin) {
    const asker = statelessOf(request.origin.session);
    return asker ? { asker, origin: request.origin } : undefined;
  }
  const origins = possibleCauses(upstream);
  const origin = origins.find((found) => statelessOf(found.session) !== undefined);
  if (!origin) return undefined;
  return origins.every((found) => found.session === origin.session) ? { asker: origin.session as StatelessOrigin, origin: origins[origins.length - 1] ?? origin } : 'ambiguous';
}

/**
 * Carries an upstream's sampling, elicitation or roots request to the client session that caused
 * it (the call whose HTTP response stream carried it, else by causingSession's rule; on the causing
 * request's stream) and returns the client's answer verbatim. Refused with a
 * clear error when no session qualifies or its client lacks the capability; `roots/list` with no
 * session to go to gets an empty list. Any other method is -32601 (`custom/probe` was handed to
 * the client as it came, an input round for a 2026-07-28 request).
 */
export async function forwardClientRequest(upstream: Upstream, request: UpstreamRequest, signal: AbortSignal, sessions: ReadonlySet<SessionLink>): Promise<Record<string, unknown>> {
  if (!CLIENT_REQUESTS.has(request.method)) throw cannotAnswer(request.method);
  const stateless = statelessCause(upstream, request);
  if (stateless === 'ambiguous')
    throw ambiguousClientRequest(request.method, upstream.name, 'clients');
  if (stateless) {
    const { asker, origin } = stateless;
    return withinShare(upstream, asker, request.method, () => awaitingClient(origin, asker.askClient(request.method, request.params, CLIENT_REQUESTS.get(request.method), upstream.name)));
  }
  // An HTTP upstream's response stream names the causing call; otherwise the rule above decides.
  const cause = request.origin;
  const found = cause && sessions.has(cause.session as SessionLink) ? { session: cause.session as SessionLink, origin: cause } : causingSession(upstream, sessions);
  if (!found) {
    // Roots asked before any session (filesystem at start): none yet, not an error; a session's
    // roots arrive later with roots/list_changed (offerRoots).
    if (request.method === 'roots/list') return { roots: [] };
    throw noClientSession(request.method, upstream.name);
  }
  if ('ambiguous' in found)
    throw ambiguousClientRequest(request.method, upstream.name, 'client sessions');
  const need = CLIENT_REQUESTS.get(request.method);
  if (need && !found.session.clientCapabilities()?.[need])
    throw clientLacksCapability(need, request.method, upstream.name);
  const { session, origin } = found;
  return withinShare(upstream, session, request.method, () => awaitingClient(origin, session.forward(request.method, request.params, origin?.requestId, signal)));
}

/**
 * The client capabilities an upstream is told when it starts: those the open sessions' clients
 * declared (sampling, elicitation and roots, merged one level deep), so a server that adapts to
 * its client (no sampling: a fallback path) adapts to the real one. Before any client has
 * initialized (upstreams start with the gateway), everything lazytools can route; a request a
 * session's client cannot take is then refused by forwardClientRequest.
 */
export function reflectedCapabilities(sessions: Iterable<SessionLink>, routable: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let any = false;
  const merged: Record<string, Record<string, unknown>> = {};
  for (const session of sessions) {
    const declared = session.clientCapabilities() as Record<string, unknown> | undefined;
    if (!declared) continue;
    any = true;
    for (const need of new Set(CLIENT_REQUESTS.values())) {
      const value = declared[need];
      if (value && typeof value === 'object') merged[need] = { ...merged[need], ...(value as Record<string, unknown>) };
    }
  }
  if (!any) return { ...routable };
  // lazytools itself sends roots/list_changed (offerRoots), whatever the client declared.
  if (merged.roots) merged.roots = { ...merged.roots, listChanged: true };
  return merged;
}

/**
 * notifications/roots/list_changed from a client reaches the upstreams whose roots came from this
 * session (those it reached last); each then asks roots/list again and gets this session's roots.
 */
export function forwardRootsChanged(session: SessionLink, upstreams: Iterable<Upstream>): void {
  for (const upstream of upstreams) if (upstream.lastOrigin?.session === session) upstream.notify('notifications/roots/list_changed');
}

/**
 * A client with roots gives them to the running upstreams no open session has reached yet (they
 * started before any session, so their own roots/list found nobody): they become this session's
 * and hear roots/list_changed, so a server started without directories (filesystem) gets some.
 */
export function offerRoots(session: SessionLink, upstreams: Iterable<Upstream>, sessions: ReadonlySet<object>): void {
  for (const upstream of upstreams) {
    if (upstream.status !== 'ready') continue;
    const owner = upstream.lastOrigin?.session;
    if (owner !== undefined && owner !== session && sessions.has(owner)) continue;
    upstream.lastOrigin = session.origin(undefined);
    upstream.notify('notifications/roots/list_changed');
  }
}
