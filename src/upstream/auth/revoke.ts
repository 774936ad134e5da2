import { oneIssuer, pinHolds } from './issuer.js';
import type { SignIn } from './store.js';
import type { ClientSettings } from './target.js';

/**
 * Asks the authorization server to revoke a sign-in's grant (RFC 7009: the refresh token, else
 * the access token), where its metadata offers a revocation endpoint. Best effort: says what
 * happened, never throws (the local sign-in is removed either way).
 */
export async function revokeSignIn(signIn: SignIn, settings: ClientSettings | undefined): Promise<string> {
  const endpoint = (signIn.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
  const tokens = signIn.tokens;
  if (!tokens) return 'no tokens to revoke';
  // Its client secret (and token) go to no other authorization server than the rc pins.
  if (!pinHolds(signIn, settings?.issuer)) return 'not revoked: it was made with another authorization server than "oauth.issuer" pins (revoke it in that service\'s account settings if you want it gone there too)';
  // Without a pin: its revocation endpoint (discovery) is of the server its client and tokens belong to.
  if (!oneIssuer(signIn, settings?.issuer)) return 'not revoked: its client, tokens and discovery name different authorization servers (revoke it in that service\'s account settings if you want it gone there too)';
  // No metadata kept (a sign-in whose discovery named another server than its client's, not kept: provider.ts): nothing says where to revoke.
  if (signIn.discovery?.authorizationServerMetadata === undefined) return 'not revoked: its authorization server\'s metadata is not stored (revoke the grant in its account settings if you want it gone there too)';
  if (typeof endpoint !== 'string' || !URL.canParse(endpoint)) return 'the authorization server offers no revocation: revoke the grant in its account settings if you want it gone there too';
  const client = signIn.client;
  const clientId = settings?.clientId ?? client?.client_id;
  const secret = settings?.clientSecret ?? (client as { client_secret?: string } | undefined)?.client_secret;
  const body = new URLSearchParams(tokens.refresh_token ? { token: tokens.refresh_token, token_type_hint: 'refresh_token' } : { token: tokens.access_token, token_type_hint: 'access_token' });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (clientId && secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  else if (clientId) body.set('client_id', clientId);
  try {
    // Not redirected: a 307 sends the body, the token in it, again to wherever it names.
    const response = await fetch(endpoint, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel().catch(() => {});
    return response.ok ? 'revoked at the authorization server' : `the authorization server refused to revoke it (HTTP ${response.status})`;
  } catch (error) {
    return `could not reach the authorization server to revoke it (${(error as Error).message})`;
  }
}
