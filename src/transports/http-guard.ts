import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedConfig } from '../config/resolve.js';
import { ConfigError } from '../util/errors.js';
import { clipText } from '../util/bounds.js';
import { blankControls } from '../util/controls.js';
import { createHash } from 'node:crypto';
import { accessFor, bearerToken, safeEqual, type Access } from './auth.js';

/** Hosts a loopback listener answers to, whatever it is bound to. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Refuses a non-loopback address that no token guards (`--token`, LAZYTOOLS_TOKEN or rc
 * `auth.tokens`) unless forced. `serve` checks it before any upstream starts, so the refusal is
 * the only thing a person sees.
 */
export function refuseOpenAddress(host: string, guarded: boolean, force: boolean | undefined): void {
  if (!LOOPBACK.has(host) && !guarded && !force)
    throw new ConfigError(`refusing to serve on non-loopback address ${host} without a token: pass --token (or LAZYTOOLS_TOKEN), or --force`);
}

/** What the guard needs to know about the listener and the operator's allowances. */
export interface GuardOptions {
  /** The shared bearer token (`--token`, LAZYTOOLS_TOKEN). */
  token?: string | undefined;
  /** Extra Host header values to accept: `host:port` exactly, or `host` on any port. */
  allowedHosts?: string[] | undefined;
  /** Extra Origins to accept, exactly. */
  allowedOrigins?: string[] | undefined;
}

/** A refused request: the HTTP status and the message the client reads. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Every check a request passes before routing, in order: Host, then Origin (DNS rebinding
 * protection), then the bearer token against `--token` and the rc's `auth.tokens` (auth.ts).
 * Returns the refusal, or what the token grants. The HTTP front runs exactly this.
 *
 * The SDK's validateHostHeader compares host names only; lazytools also checks the port of a
 * loopback Host (a page on another local port is another origin), so the check is its own.
 */
export function guardRequest(headers: IncomingHttpHeaders, port: number, bound: string, options: GuardOptions, config: Pick<ResolvedConfig, 'tokens'>): { refusal: Refusal } | { access: Exclude<Access, { kind: 'refused' }> } {
  const refusal = hostOriginRefusal(headers, port, bound, options);
  if (refusal) return { refusal };
  const access = accessFor(headers.authorization, config, options.token);
  if (access.kind === 'refused') return { refusal: { status: 401, message: access.message } };
  return { access };
}

/**
 * Who may read the operator endpoints (/readyz, /metrics: every server and mode name, failed
 * servers' stderr, every token's call counts): the rc's `auth.operator` token or the shared
 * `--token`; on a gateway without any token, a connection from this machine (loopback). A mode
 * token of `auth.tokens` never does: its holder would see past its modes. Host and Origin are
 * checked first.
 */
export function operatorRefusal(headers: IncomingHttpHeaders, remote: string | undefined, port: number, bound: string, options: GuardOptions, config: Pick<ResolvedConfig, 'tokens' | 'operatorToken'>): Refusal | undefined {
  const refusal = hostOriginRefusal(headers, port, bound, options);
  if (refusal) return refusal;
  const given = bearerToken(headers.authorization);
  const digest = given === '' ? '' : createHash('sha256').update(given).digest('hex');
  if (config.operatorToken !== undefined && digest === config.operatorToken) return undefined;
  if (options.token && safeEqual(given, options.token)) return undefined;
  if (digest !== '' && config.tokens.some((grant) => grant.sha256 === digest))
    return { status: 403, message: 'Forbidden: a mode token does not open the operator endpoints (rc auth.operator has their token)' };
  // A gateway that asks for tokens asks for one here too (behind a reverse proxy every client is loopback).
  if (config.operatorToken !== undefined || options.token || config.tokens.length > 0)
    return { status: 401, message: `Unauthorized: send the operator's bearer token (rc auth.operator${options.token ? ' or --token' : ''})` };
  if (remote !== undefined && isLoopbackAddress(remote)) return undefined;
  return { status: 403, message: 'Forbidden: without a token (rc auth.operator or --token), the operator endpoints answer this machine only' };
}

/** True for 127.0.0.0/8 and ::1 (IPv4-mapped too). */
function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** Characters of a refused Host or Origin header the 403 repeats (a header can hold up to Node's 16 KiB). */
const HEADER_ECHO = 200;

/**
 * A refused header as the 403 repeats it: at most HEADER_ECHO characters, its control characters
 * blanked (Node reads header bytes as latin1, so a C1 CSI gets through), and whether it is shown
 * whole: a cut or blanked value is no name to suggest to --allow-host.
 */
function echoHeader(value: string): { shown: string; whole: boolean } {
  const shown = clipText(blankControls(value), HEADER_ECHO);
  return { shown, whole: shown === value };
}

/** Host and Origin checks of one request: the refusal, or undefined. Pure. */
function hostOriginRefusal(headers: IncomingHttpHeaders, port: number, bound: string, options: GuardOptions): Refusal | undefined {
  const hostHeader = (headers.host ?? '').toLowerCase();
  const allowedHosts = allowedHostsOf(port, bound, options);
  // `--allow-host name` (no port) accepts `name` on any port, e.g. behind a reverse proxy.
  const hostname = hostHeader.replace(/:\d+$/, '');
  if (hostHeader === '') return { status: 403, message: 'Forbidden: the request has no Host header (DNS rebinding protection).' };
  if (!allowedHosts.has(hostHeader) && !allowedHosts.has(hostname)) {
    const { shown, whole } = echoHeader(hostHeader);
    const hint = whole ? ` To accept it, start lazytools serve with --allow-host ${hostname} (any port) or --allow-host ${hostHeader}.` : '';
    return { status: 403, message: `Forbidden: Host "${shown}" is not allowed (DNS rebinding protection).${hint}` };
  }
  const origin = headers.origin;
  if (origin === 'null') return { status: 403, message: 'Forbidden: Origin "null" is not allowed' };
  if (origin !== undefined && !(options.allowedOrigins ?? []).includes(origin) && !isLoopbackOrigin(origin)) return { status: 403, message: `Forbidden: Origin "${echoHeader(origin).shown}" is not allowed` };
  return undefined;
}

/** The allowed Host values of a listener, made once per listener and allowance list (every request reads them). */
const hostSets = new WeakMap<GuardOptions, { port: number; bound: string; extra: readonly string[] | undefined; hosts: ReadonlySet<string> }>();

function allowedHostsOf(port: number, bound: string, options: GuardOptions): ReadonlySet<string> {
  const cached = hostSets.get(options);
  if (cached && cached.port === port && cached.bound === bound && cached.extra === options.allowedHosts) return cached.hosts;
  const hosts = new Set([
    ...['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${port}`),
    ...(LOOPBACK.has(bound) ? [] : [`${bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound}:${port}`]),
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  hostSets.set(options, { port, bound, extra: options.allowedHosts, hosts });
  return hosts;
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const parsed = new URL(origin);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK.has(parsed.hostname);
  } catch {
    return false;
  }
}
