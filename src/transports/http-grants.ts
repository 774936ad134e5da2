import type { ResolvedConfig, TokenGrant } from '../config/resolve.js';

/**
 * What a 2025 HTTP session's access was drawn from: the rc token (its hash, label and modes;
 * undefined: opened on an open gateway or with the shared `--token`). A request of the session
 * must bring a token of the same key; a reload that changes it (a token rotated, removed, given
 * other modes) ends the session (revokedSessions).
 */
export function grantKey(grant: TokenGrant | undefined): string | undefined {
  return grant && `${grant.sha256}\n${grant.label}\n${grant.modes.join('\n')}`;
}

/**
 * The sessions a reloaded rc no longer admits: their token is gone, rotated or its modes changed, or the
 * gateway was open when they began and now wants tokens. Their requests are refused already; this
 * ends them too, so their GET streams stop hearing what the upstreams send (log lines, list
 * changes, resource updates) instead of doing so until the idle timeout. `--token` does not change
 * on reload: a session it opened stays.
 */
export function revokedSessions<S extends { grant: string | undefined }>(sessions: ReadonlyMap<string, S>, config: Pick<ResolvedConfig, 'tokens'>, sharedToken: string | undefined): Array<[string, S]> {
  const admitted = new Set(config.tokens.map((grant) => grantKey(grant)));
  const open = Boolean(sharedToken) || config.tokens.length === 0;
  return [...sessions].filter(([, entry]) => (entry.grant === undefined ? !open : !admitted.has(entry.grant)));
}
