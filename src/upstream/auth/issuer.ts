import { quotedName, shownName } from '../../config/secrets.js';
import { outsideText } from '../../util/redact.js';
import type { SignIn } from './store.js';
import type { ClientSettings } from './target.js';

/*
 * The authorization server a client's credentials may go to. The SDK sends the rc's client
 * secret (or private-key assertion) to whichever authorization server the remote server's
 * protected-resource metadata names; `oauth.issuer` in the rc pins the one it belongs to, and
 * without it the first one used is kept (trust on first use, provider.ts).
 */

/** Characters of an issuer a message shows: it comes from the remote server's metadata. */
const MAX_ISSUER = 200;

/**
 * An issuer identifier in the one form every comparison uses: as a URL parses it (scheme and host
 * lower-cased, a default port dropped: `https://Auth.Example.com:443` is `https://auth.example.com/`),
 * the path as written (case kept), so an rc pin spelled another way still names its server. The
 * SDK binds a client's stamp the same way (its `issuersMatch` compares `new URL().href`). Text
 * that is no URL stays as written.
 */
function canonicalIssuer(issuer: string): string {
  return URL.canParse(issuer) ? new URL(issuer).href : issuer;
}

/**
 * True when two issuer identifiers name the same authorization server: equal in their canonical
 * form (canonicalIssuer) once one trailing `/` is left off each (the SDK's own tolerance: an
 * issuer read from `new URL()` always ends in one, a server's metadata often does not). Another
 * scheme, host, port, user name or path (`/tenant-a`, `/tenant-b`, `//`) stays another server.
 */
export function sameIssuer(a: string, b: string): boolean {
  const trimmed = (issuer: string) => (issuer.endsWith('/') ? issuer.slice(0, -1) : issuer);
  return trimmed(canonicalIssuer(a)) === trimmed(canonicalIssuer(b));
}

/**
 * The sign-in failed because the remote server named an authorization server other than the one
 * the client's credentials are bound to: the rc's `servers.<name>.oauth.issuer` (`pinned`), or
 * the one they were first used with (a stamp kept in the sign-in). Nothing was sent to it. Says
 * which two, and what to set if the server's is right. The named one is the remote's word:
 * bounded, control characters escaped.
 */
export class IssuerNotPinned extends Error {
  override readonly name = 'IssuerNotPinned';
  constructor(
    readonly server: string,
    readonly named: string,
    readonly bound: string,
    readonly pinned: boolean,
  ) {
    const shown = outsideText(named, MAX_ISSUER);
    const where = pinned ? `its "oauth.issuer" pins "${bound}": its client credentials were not sent there` : `its client credentials are bound to "${outsideText(bound, MAX_ISSUER)}", the one they were first used with: they were not sent there`;
    super(
      `server ${quotedName(server)} names the authorization server "${shown}", but ${where}. ` +
        `If "${shown}" is the server's authorization server now, set servers.${shownName(server)}.oauth.issuer to it`,
    );
  }
}

/** The issuer a stored discovery resolved (its metadata's, else the URL it was read from). */
export function discoveredIssuer(signIn: SignIn): string | undefined {
  const discovery = signIn.discovery;
  const issuer = (discovery?.authorizationServerMetadata as { issuer?: unknown } | undefined)?.issuer;
  return typeof issuer === 'string' ? issuer : discovery?.authorizationServerUrl;
}

/**
 * True when nothing of a stored sign-in belongs to an authorization server other than `pinned`:
 * its client, its tokens and its discovery name the pinned one, or no issuer at all. A sign-in
 * made before the pin with another server is not used: its refresh token and client would go
 * back to that server, the rc's secret with them.
 */
export function pinHolds(signIn: SignIn, pinned: string | undefined): boolean {
  return pinned === undefined || oneIssuer(signIn, pinned);
}

/** The authorization servers a stored sign-in's client, tokens and discovery name, where they name one. */
function issuersOf(signIn: SignIn): string[] {
  return [signIn.client?.issuer, signIn.tokens?.issuer, discoveredIssuer(signIn)].filter((issuer): issuer is string => typeof issuer === 'string');
}

/**
 * True when every part of a stored sign-in that names an authorization server (client, tokens,
 * discovery) names the same one, and it is `pinned` when the rc pins one. Without a pin a sign-in
 * can still mix two: a refused sign-in keeps the discovery of the server a remote named (the SDK
 * saves it before it asks for the client), while its client and tokens are the first one's. What
 * is sent with them (a revocation: the rc's secret, the refresh token) must go to neither then.
 */
export function oneIssuer(signIn: SignIn, pinned: string | undefined): boolean {
  const named = issuersOf(signIn);
  const reference = pinned ?? named[0];
  return reference === undefined || named.every((issuer) => sameIssuer(issuer, reference));
}

/**
 * Whether a stored sign-in counts for the rc's `oauth` entry, as the gateway (session.ts) and
 * `auth --status` (state.ts) both read it: the same grant and client, and nothing of it from
 * another authorization server than the rc's `oauth.issuer`.
 */
export function usableSignIn(signIn: SignIn, settings: Pick<ClientSettings, 'grant' | 'clientId' | 'issuer'>): boolean {
  if (signIn.grant !== settings.grant || !pinHolds(signIn, settings.issuer)) return false;
  return settings.clientId === undefined || signIn.client === undefined || signIn.client.client_id === settings.clientId;
}

/**
 * A stored sign-in with what belongs to another authorization server than `pinned` left out
 * (client, tokens, discovery), so the sign-in starts over with the pinned one.
 */
export function pinnedSignIn(signIn: SignIn, pinned: string | undefined): SignIn {
  if (pinned === undefined || pinHolds(signIn, pinned)) return signIn;
  const { client: _client, tokens: _tokens, discovery: _discovery, expiresAt: _expires, savedAt: _saved, ...rest } = signIn;
  return rest;
}

/**
 * The one stderr line of a first use without a pin: the rc's client credentials are now bound to
 * `issuer`, on another origin than the server's own, and how to pin it.
 */
export function boundLine(server: string, url: string, issuer: string): string | undefined {
  const origin = (text: string) => (URL.canParse(text) ? new URL(text).origin : undefined);
  const own = origin(url);
  if (own === undefined || origin(issuer) === own) return undefined;
  const shown = outsideText(issuer, MAX_ISSUER);
  return `server ${quotedName(server)}: its client credentials are bound to the authorization server it names, "${shown}" (not ${own}); if that is the right one, pin it: set servers.${shownName(server)}.oauth.issuer to "${shown}"`;
}
