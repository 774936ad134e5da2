import type { FetchLike } from '@modelcontextprotocol/client';
import { forgetSecret, outsideText, registerSecret } from '../../util/redact.js';
import { fetchBefore } from './deadline.js';
import { IssuerNotPinned, usableSignIn } from './issuer.js';
import { NeedsSignIn } from './needs-sign-in.js';
import { SignInProvider } from './provider.js';
import { readSignIn, SignInReader, withSignInLock, writeSignIn, type SignIn } from './store.js';
import { redactClientSecret, type ClientSettings } from './target.js';

/** A token is renewed this long before it expires (at most a quarter of its lifetime). */
const RENEW_BEFORE_MS = 60_000;

/**
 * The longest one renewal (discovery, refresh or client credentials, every round trip of it) may
 * take. Requests to the server wait on a renewal in flight: without a deadline an authorization
 * server that answers its headers and then drips, or never answers, would hold them all for ever.
 */
const RENEW_TIMEOUT_MS = 30_000;

/** How an AuthSession behaves beyond its server and sign-in (tests shorten the deadline). */
export interface AuthSessionOptions {
  /** Deadline of one renewal in milliseconds (default 30 s). */
  renewTimeoutMs?: number | undefined;
  /** Hears the line of the rc's client credentials bound on first use, without `oauth.issuer` (provider.ts ProviderHooks.bound). */
  onBound?: ((line: string) => void) | undefined;
}

/**
 * The gateway's side of one server's sign-in: the access token for each request (renewed before
 * it expires), a renewal when the server answers 401, and the record of a step-up. Renewals run
 * under the sign-in file's lock and read the file first, so gateways sharing it take turns: the
 * second finds the first's fresh tokens and uses them instead of a refresh token the first
 * already rotated. Never interactive: what needs a person is a NeedsSignIn.
 */
export class AuthSession {
  private readonly reader: SignInReader;
  /** One renewal at a time in this process (the file lock orders processes). */
  private renewing: Promise<string> | undefined;
  /** Tokens registered for redaction, newest last (two generations kept). */
  private readonly redacted: string[] = [];
  private lastToken: string | undefined;

  constructor(
    readonly server: string,
    readonly url: URL,
    private readonly settings: ClientSettings,
    readonly file: string,
    /** The fetch auth() uses for the authorization server: never one that adds our token. */
    private readonly plainFetch: FetchLike = fetch,
    private readonly options: AuthSessionOptions = {},
  ) {
    this.reader = new SignInReader(file);
  }

  /** The sign-in as stored now, when it is one for this server's client. */
  current(): SignIn | undefined {
    const signIn = this.reader.get();
    return signIn && usableSignIn(signIn, this.settings) ? signIn : undefined;
  }

  /**
   * The access token to send, renewed first when it is about to expire; undefined when there is
   * none (the server then answers 401 and `renew` says what to do).
   */
  async token(): Promise<string | undefined> {
    const signIn = this.current();
    const tokens = signIn?.tokens;
    if (!signIn || !tokens) return this.settings.grant === 'client_credentials' ? this.renew(undefined) : undefined;
    if (!expiringSoon(signIn)) return this.remember(tokens.access_token);
    try {
      return await this.renew(tokens.access_token);
    } catch (error) {
      // Not expired yet: the server may still take it, and its 401 renews again.
      if (signIn.expiresAt !== undefined && signIn.expiresAt > Date.now()) return this.remember(tokens.access_token);
      throw error;
    }
  }

  /**
   * A token to retry with after `failed` was refused (or was about to expire): another process's
   * newer one, a refreshed one, or new client credentials.
   *
   * @throws NeedsSignIn when only a person can help (no sign-in, or its refresh was refused).
   */
  renew(failed: string | undefined, resourceMetadataUrl?: URL): Promise<string> {
    this.renewing ??= withSignInLock(this.file, () => this.renewLocked(failed, resourceMetadataUrl)).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /**
   * Records the scope a server asked for beyond the sign-in's (403 insufficient_scope), so the
   * next `lazytools auth` asks for it, and says so.
   */
  async stepUp(scope: string | undefined): Promise<never> {
    const wanted = await withSignInLock(this.file, async () => {
      const signIn = readSignIn(this.file);
      if (!signIn) return scope;
      const union = unionOf(signIn.tokens?.scope, signIn.pendingScope, scope);
      if (union !== signIn.pendingScope) writeSignIn(this.file, { ...signIn, pendingScope: union });
      return union;
    });
    throw new NeedsSignIn(this.server, wanted);
  }

  private async renewLocked(failed: string | undefined, resourceMetadataUrl: URL | undefined): Promise<string> {
    const stored = readSignIn(this.file);
    const signIn = stored && usableSignIn(stored, this.settings) ? stored : undefined;
    const held = signIn?.tokens;
    // Another process renewed it meanwhile: use theirs.
    if (signIn && held && held.access_token !== failed && !expiringSoon(signIn)) return this.remember(held.access_token);
    if (this.settings.grant === 'authorization_code' && !held?.refresh_token) {
      // Noted, so `auth --status` and `check` can say this server asks for a sign-in.
      if (!stored) writeSignIn(this.file, { version: 1, server: this.server, url: this.url.href, grant: this.settings.grant });
      throw new NeedsSignIn(this.server);
    }
    const { auth, createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/client');
    const fresh: SignIn = signIn ?? { version: 1, server: this.server, url: this.url.href, grant: this.settings.grant };
    // A secret dynamic registration issued goes out with the refresh, as the rc's does.
    const client = fresh.client as { client_id: string; client_secret?: unknown } | undefined;
    if (client && typeof client.client_secret === 'string') redactClientSecret(this.server, client.client_id, client.client_secret, this.server);
    const { clientId, privateKey, signingAlgorithm } = this.settings;
    const addClientAuthentication =
      privateKey && clientId ? createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg: signingAlgorithm ?? 'ES256' }) : undefined;
    const provider = new SignInProvider(fresh, this.settings, { persist: (next) => writeSignIn(this.file, next), addClientAuthentication, bound: this.options.onBound });
    const timeoutMs = this.options.renewTimeoutMs ?? RENEW_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const result = await auth(provider, {
        serverUrl: this.url,
        resourceMetadataUrl: resourceMetadataUrl ?? (fresh.discovery?.resourceMetadataUrl ? new URL(fresh.discovery.resourceMetadataUrl) : undefined),
        fetchFn: fetchBefore(deadline, this.plainFetch),
      });
      const token = provider.signIn.tokens?.access_token;
      if (result !== 'AUTHORIZED' || !token) throw new NeedsSignIn(this.server);
      return this.remember(token);
    } catch (error) {
      // Past the deadline the SDK takes the aborted refresh for a refused one and asks for a new
      // sign-in: the server's authorization server is slow, the sign-in is not the trouble.
      if (error instanceof NeedsSignIn && !deadline.aborted) throw error;
      // It names the server, both authorization servers and what to set.
      if (error instanceof IssuerNotPinned) throw error;
      const what = this.settings.grant === 'client_credentials' ? 'could not get a token with its client credentials' : 'could not renew its sign-in';
      const why = deadline.aborted ? `its authorization server did not answer within ${Math.ceil(timeoutMs / 1000)} s` : outsideText((error as Error).message ?? String(error));
      throw new Error(`server "${this.server}" ${what}: ${why}`);
    }
  }


  /** Registers a token (and its refresh token) for redaction; forgets those two renewals old. */
  private remember(token: string): string {
    if (this.lastToken === token) return token;
    this.lastToken = token;
    const refresh = this.reader.get()?.tokens?.refresh_token;
    for (const value of [token, refresh]) {
      if (!value || this.redacted.includes(value)) continue;
      registerSecret(value, `oauth:${this.server}`, this.server);
      this.redacted.push(value);
    }
    while (this.redacted.length > 4) forgetSecret(this.redacted.shift() as string, this.server);
    return token;
  }
}

/** True when the access token expires within a minute (or a quarter of its lifetime, if shorter). */
function expiringSoon(signIn: SignIn): boolean {
  if (signIn.expiresAt === undefined) return false;
  const lifetime = signIn.savedAt !== undefined ? signIn.expiresAt - signIn.savedAt : RENEW_BEFORE_MS * 4;
  return signIn.expiresAt - Date.now() < Math.min(RENEW_BEFORE_MS, lifetime / 4);
}

/** The most scopes, and characters, a recorded step-up keeps (a real server asks for a few). */
const MAX_SCOPES = 256;
const MAX_SCOPE_CHARS = 8_192;

/**
 * Every scope of the lists once, in first-seen order; undefined when there is none. Bounded: a
 * server's challenges name what they like, and each 403 adds to what is recorded, so past
 * MAX_SCOPES (or MAX_SCOPE_CHARS) only the newest are kept (the last list is the latest ask).
 */
function unionOf(...lists: Array<string | undefined>): string | undefined {
  const scopes = new Set<string>();
  for (const list of lists) for (const scope of (list ?? '').split(' ')) if (scope) scopes.add(scope);
  const kept: string[] = [];
  let chars = 0;
  for (const scope of [...scopes].reverse()) {
    if (kept.length === MAX_SCOPES || chars + scope.length + 1 > MAX_SCOPE_CHARS) break;
    kept.push(scope);
    chars += scope.length + 1;
  }
  return kept.length > 0 ? kept.reverse().join(' ') : undefined;
}
