import type { ResolvedConfig, TokenGrant } from '../config/resolve.js';

/**
 * What an HTTP caller's access was drawn from: the rc token (its hash, label and modes;
 * undefined: opened on an open gateway or with the shared `--token`). A request of a 2025 session
 * must bring a token of the same key; a reload that changes it (a token rotated, removed, given
 * other modes) ends what the holder keeps open: its 2025 sessions and its 2026-07-28 listen streams
 * (revoked).
 */
export function grantKey(grant: TokenGrant | undefined): string | undefined {
  return grant && `${grant.sha256}\n${grant.label}\n${grant.modes.join('\n')}`;
}

/** Whether the rc now in force admits a holder of `grant` (a grantKey). `--token` does not change on reload. */
function admission(config: Pick<ResolvedConfig, 'tokens'>, sharedToken: string | undefined): (grant: string | undefined) => boolean {
  const admitted = new Set(config.tokens.map((grant) => grantKey(grant)));
  const open = Boolean(sharedToken) || config.tokens.length === 0;
  return (grant) => (grant === undefined ? open : admitted.has(grant));
}

/**
 * Whether a caller whose token was checked under an earlier rc still has that access now: a
 * request read while a reload took it away (its body trickled across the reload, a session
 * initializing then) is refused, not served with the old token's modes.
 */
export function stillAdmitted(grant: string | undefined, config: Pick<ResolvedConfig, 'tokens'>, sharedToken: string | undefined): boolean {
  return admission(config, sharedToken)(grant);
}

/**
 * What a reloaded rc no longer admits of what callers hold open (2025 sessions, 2026-07-28 listen
 * streams): their token is gone, rotated or its modes changed, or the gateway was open when they
 * began and now wants tokens. Their requests are refused already; ending them too means they stop
 * hearing what the upstreams send (log lines, list changes, resource updates) instead of doing so
 * until the idle timeout or for as long as the stream stays open. A session `--token` opened stays.
 */
export function revoked<K, S extends { grant: string | undefined }>(held: ReadonlyMap<K, S>, config: Pick<ResolvedConfig, 'tokens'>, sharedToken: string | undefined): Array<[K, S]> {
  const admits = admission(config, sharedToken);
  return [...held].filter(([, entry]) => !admits(entry.grant));
}

/** How many of `held` were opened with `grant` (a grantKey): one token may hold at most part of the sessions. */
export function heldBy(held: ReadonlyMap<unknown, { grant: string | undefined }>, grant: string | undefined): number {
  let count = 0;
  for (const entry of held.values()) if (entry.grant === grant) count++;
  return count;
}
