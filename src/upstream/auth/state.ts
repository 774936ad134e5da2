import type { ResolvedConfig } from '../../config/resolve.js';
import type { ServerConfig } from '../../config/schema.js';
import { usableSignIn } from './issuer.js';
import { readSignIn, type SignIn } from './store.js';
import { remoteTarget, type RemoteTarget } from './target.js';

/** Where one remote server's sign-in stands, for `auth --status` and `check` (no secret in it). */
export interface SignInState {
  server: string;
  url: string;
  /**
   * `signed-in`; `expired` (a refresh may still renew it); `needs-sign-in` (the server asked and
   * no sign-in answers it); `not-signed-in` (never signed in, and not known to ask); `off` (the
   * rc turns sign-in off: an Authorization header, or `oauth: false`).
   */
  state: 'signed-in' | 'expired' | 'needs-sign-in' | 'not-signed-in' | 'off';
  grant?: SignIn['grant'] | undefined;
  expiresAt?: number | undefined;
  scope?: string | undefined;
  refreshable?: boolean | undefined;
  /** A scope a server asked for beyond the sign-in's (the next `lazytools auth` asks for it). */
  pendingScope?: string | undefined;
}

/** The state of a resolved remote server's sign-in. */
export function signInState(target: RemoteTarget, now = Date.now()): SignInState {
  const base = { server: target.name, url: target.url.href };
  if (!target.oauth) return { ...base, state: 'off' };
  const { settings, file } = target.oauth;
  const signIn = readSignIn(file);
  // As the gateway reads it: a sign-in with another authorization server than the rc pins is none.
  const usable = signIn !== undefined && usableSignIn(signIn, settings);
  const tokens = usable ? signIn.tokens : undefined;
  const pendingScope = usable ? signIn.pendingScope : undefined;
  // A file without tokens: the server asked (the gateway noted it) or the tokens were refused.
  // Client credentials need no person: the gateway gets a token itself.
  if (!tokens) return { ...base, grant: settings.grant, state: usable && settings.grant === 'authorization_code' ? 'needs-sign-in' : 'not-signed-in', pendingScope };
  const refreshable = tokens.refresh_token !== undefined || settings.grant === 'client_credentials';
  const expired = signIn?.expiresAt !== undefined && signIn.expiresAt <= now;
  const state = pendingScope ? 'needs-sign-in' : expired ? (refreshable ? 'expired' : 'needs-sign-in') : 'signed-in';
  return { ...base, state, grant: settings.grant, expiresAt: signIn?.expiresAt, scope: tokens.scope, refreshable, pendingScope };
}

/**
 * The enabled remote servers of an rc that need someone to sign in before they can be reached
 * (each with why, ready to print). A server whose `${VAR}` is unset is left to the other reports.
 */
export function serversNeedingSignIn(config: ResolvedConfig, env: NodeJS.ProcessEnv): SignInState[] {
  const out: SignInState[] = [];
  for (const [name, server] of Object.entries(config.servers as Record<string, ServerConfig>)) {
    if (server.url === undefined || server.disabled === true) continue;
    let target: RemoteTarget;
    try {
      target = remoteTarget(name, server, env, config.file);
    } catch {
      continue;
    }
    const state = signInState(target);
    if (state.state === 'needs-sign-in') out.push(state);
  }
  return out;
}
