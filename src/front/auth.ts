import { createHash, timingSafeEqual } from 'node:crypto';
import type { ResolvedConfig, TokenGrant } from '../config/resolve.js';

/**
 * What a request's bearer token grants: everything (no token needed, or the `--token`), the
 * modes of an rc `auth.tokens` entry, or nothing (401).
 */
export type Access = { kind: 'open' } | { kind: 'modes'; grant: TokenGrant } | { kind: 'refused'; message: string };

/** The bearer token of an Authorization header (the scheme is case-insensitive, RFC 9110 11.1). */
export function bearerToken(header: string | undefined): string {
  const match = /^bearer +(.*)$/i.exec(header ?? '');
  return match?.[1]?.trim() ?? '';
}

/**
 * Checks a request's bearer token against the shared `--token` and the rc's `auth.tokens`
 * (compared by sha256 in constant time, so the rc holds no token). With neither configured,
 * every request is open; with either, a request without a known token is refused.
 */
export function accessFor(authorization: string | undefined, config: Pick<ResolvedConfig, 'tokens'>, sharedToken: string | undefined): Access {
  if (!sharedToken && config.tokens.length === 0) return { kind: 'open' };
  const given = bearerToken(authorization);
  if (given !== '') {
    if (sharedToken && safeEqual(given, sharedToken)) return { kind: 'open' };
    const digest = createHash('sha256').update(given).digest();
    for (const grant of config.tokens) if (timingSafeEqual(digest, Buffer.from(grant.sha256, 'hex'))) return { kind: 'modes', grant };
  }
  return { kind: 'refused', message: given === '' ? 'Unauthorized: send Authorization: Bearer <token>' : 'Unauthorized: unknown bearer token' };
}

/** Compares two secrets in constant time (for equal lengths). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
