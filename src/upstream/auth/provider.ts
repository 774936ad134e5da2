import { randomBytes } from 'node:crypto';
import type {
  AddClientAuthentication,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { VERSION } from '../../util/version.js';
import { boundLine, discoveredIssuer, IssuerNotPinned, pinnedSignIn, sameIssuer } from './issuer.js';
import { NeedsSignIn } from './needs-sign-in.js';
import type { SignIn } from './store.js';
import type { ClientSettings } from './target.js';

/** The longest token kept: real access tokens (JWTs with many claims) stay under 16 KiB. */
export const MAX_TOKEN_CHARS = 65_536;

/** What a provider does besides keeping state: where it is saved, and how a person is sent to sign in. */
export interface ProviderHooks {
  /** Saves the sign-in (the caller holds the file lock, or owns the sign-in outright). */
  persist(signIn: SignIn): void | Promise<void>;
  /**
   * Sends the person to the authorization URL (`lazytools auth`). Absent in the gateway, which
   * never opens a browser: a sign-in it would need is recorded (its scope) and reported.
   */
  redirect?: ((authorizationUrl: URL) => void | Promise<void>) | undefined;
  /** The loopback redirect URI of a sign-in in progress (else the one registered before). */
  redirectUrl?: string | undefined;
  /** private_key_jwt client authentication (client_credentials with `privateKey`). */
  addClientAuthentication?: AddClientAuthentication | undefined;
  /**
   * Hears the one line (for stderr) of the rc's client credentials bound on first use, without an
   * `oauth.issuer`, to an authorization server on another origin than the server's (issuer.ts boundLine).
   */
  bound?: ((line: string) => void) | undefined;
}

/**
 * The SDK's OAuthClientProvider over one stored sign-in: the SDK's auth() runs discovery,
 * registration (or a client ID metadata document, or the rc's pre-registered client), PKCE, the
 * code exchange, refreshes and client credentials; this keeps what it learns in `signIn` and
 * saves it through the hooks. The code verifier stays in memory (a sign-in is one process).
 */
export class SignInProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** The sign-in, without what belongs to another authorization server than the rc's `oauth.issuer`. */
  readonly signIn: SignIn;
  readonly clientMetadataUrl: string | undefined;
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  /** Present for client credentials only: the SDK then asks for that grant instead of a code. */
  readonly prepareTokenRequest: ((scope?: string) => URLSearchParams) | undefined;

  constructor(
    signIn: SignIn,
    private readonly settings: ClientSettings,
    private readonly hooks: ProviderHooks,
  ) {
    this.signIn = pinnedSignIn(signIn, settings.issuer);
    this.clientMetadataUrl = settings.clientMetadataUrl;
    this.addClientAuthentication = hooks.addClientAuthentication;
    this.prepareTokenRequest = settings.grant === 'client_credentials' ? clientCredentialsRequest : undefined;
  }

  get redirectUrl(): string | undefined {
    if (this.settings.grant === 'client_credentials') return undefined;
    return this.hooks.redirectUrl ?? this.signIn.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    const common = { client_name: 'lazytools', software_id: 'lazytools', software_version: VERSION, ...(this.settings.scope ? { scope: this.settings.scope } : {}) };
    if (this.settings.grant === 'client_credentials')
      return { ...common, redirect_uris: [], grant_types: ['client_credentials'], token_endpoint_auth_method: this.settings.privateKey ? 'private_key_jwt' : 'client_secret_basic' };
    const redirect = this.redirectUrl;
    return { ...common, redirect_uris: redirect ? [redirect] : [], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  /** A fresh `state` per authorization URL; sign-in.ts reads it back from that URL and checks the callback against it (the SDK does not). */
  state(): string {
    return randomBytes(32).toString('base64url');
  }

  /**
   * The client the SDK is to use with the authorization server `ctx.issuer`, stamped with the
   * issuer its credentials belong to: the SDK sends them only where the stamp matches. With the
   * rc's `oauth.issuer`, any other authorization server fails the sign-in here, before a
   * registration or a token request is sent to it (IssuerNotPinned).
   */
  async clientInformation(ctx?: { issuer: string }): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret, privateKey, issuer: pinned } = this.settings;
    if (pinned !== undefined && ctx !== undefined && !sameIssuer(ctx.issuer, pinned)) throw new IssuerNotPinned(this.signIn.server, ctx.issuer, pinned, true);
    if (clientId === undefined) return this.signIn.client;
    // The rc's client, bound to the authorization server the rc pins, else to the one it was
    // first used with: the issuer stamped on it then. On first use it is stamped with the one the
    // server names now and kept (as the SDK would, without its warning on every new sign-in that
    // the credential has no stamp), so a server that later names another authorization server
    // never gets the secret.
    const stored = this.signIn.client?.client_id === clientId ? this.signIn.client : undefined;
    // The SDK would take another one for a client to register there, and then send the rc's secret with the token request all the same.
    if (pinned === undefined && stored?.issuer !== undefined && ctx !== undefined && !sameIssuer(stored.issuer, ctx.issuer))
      throw new IssuerNotPinned(this.signIn.server, ctx.issuer, stored.issuer, false);
    const issuer = pinned ?? stored?.issuer ?? ctx?.issuer;
    if (issuer !== undefined && (stored?.issuer === undefined || !sameIssuer(stored.issuer, issuer))) {
      this.signIn.client = { client_id: clientId, issuer };
      await this.hooks.persist(this.signIn);
      const line = pinned === undefined && (clientSecret !== undefined || privateKey !== undefined) ? boundLine(this.signIn.server, this.signIn.url, issuer) : undefined;
      if (line !== undefined) this.hooks.bound?.(line);
    }
    return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}), ...(issuer ? { issuer } : {}) };
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered secret stays in the environment, not in the file.
    const { client_secret: secret, ...rest } = client as StoredOAuthClientInformation & { client_secret?: string };
    this.signIn.client = this.settings.clientId !== undefined && secret === this.settings.clientSecret ? rest : client;
    await this.hooks.persist(this.signIn);
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.signIn.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    // A hostile authorization server's 64 MiB token would be kept and sent with every request.
    for (const key of ['access_token', 'refresh_token', 'id_token'] as const) {
      const value: unknown = (tokens as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.length > MAX_TOKEN_CHARS)
        throw new Error(`the authorization server's ${key} is ${value.length.toLocaleString('en-US')} characters; at most ${MAX_TOKEN_CHARS.toLocaleString('en-US')} are kept (it would be sent with every request)`);
    }
    const now = Date.now();
    // A refresh may leave the refresh token out: the one held stays valid (RFC 6749 section 6).
    const refresh = tokens.refresh_token ?? this.signIn.tokens?.refresh_token;
    this.signIn.tokens = { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) };
    this.signIn.savedAt = now;
    this.signIn.expiresAt = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? now + tokens.expires_in * 1000 : undefined;
    this.signIn.grant = this.settings.grant;
    if (this.redirectUrl) this.signIn.redirectUri = this.redirectUrl;
    if (covers(tokens.scope, this.signIn.pendingScope)) this.signIn.pendingScope = undefined;
    await this.hooks.persist(this.signIn);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.hooks.redirect) return this.hooks.redirect(authorizationUrl);
    const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    if (scope && scope !== this.signIn.pendingScope && !covers(this.signIn.tokens?.scope, scope)) {
      this.signIn.pendingScope = scope;
      await this.hooks.persist(this.signIn);
    }
    throw new NeedsSignIn(this.signIn.server);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no sign-in is in progress (no PKCE code verifier)');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // Another server than the one the rc's client is bound to (the pin, else its first use's stamp)
    // is refused next (clientInformation): not kept, so the stored sign-in stays that server's and
    // nothing later (a revocation, the SDK's reuse of stored metadata) is sent to the other.
    const issuer = discoveredIssuer({ ...this.signIn, discovery: state });
    const bound = this.settings.issuer ?? (this.settings.clientId !== undefined && this.signIn.client?.client_id === this.settings.clientId ? this.signIn.client.issuer : undefined);
    if (bound !== undefined && issuer !== undefined && !sameIssuer(issuer, bound)) return;
    this.signIn.discovery = state;
    await this.hooks.persist(this.signIn);
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.signIn.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if (scope === 'all' || scope === 'client') this.signIn.client = undefined;
    if (scope === 'all' || scope === 'tokens') {
      this.signIn.tokens = undefined;
      this.signIn.expiresAt = undefined;
    }
    if (scope === 'all' || scope === 'discovery') this.signIn.discovery = undefined;
    await this.hooks.persist(this.signIn);
  }
}

function clientCredentialsRequest(scope?: string): URLSearchParams {
  const params = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope) params.set('scope', scope);
  return params;
}

/** True when every scope of `wanted` is in `held` (space-separated lists); an empty want is covered. */
export function covers(held: string | undefined, wanted: string | undefined): boolean {
  if (!wanted) return true;
  const have = new Set((held ?? '').split(' ').filter(Boolean));
  return wanted.split(' ').filter(Boolean).every((scope) => have.has(scope));
}
