import type { FetchLike } from '@modelcontextprotocol/client';
import { NeedsSignIn } from './needs-sign-in.js';
import type { AuthSession } from './session.js';

/**
 * The `fetch` a remote server's transport uses (either HTTP transport, either era): each request
 * to the server's origin carries the stored access token (renewed first when it is about to
 * expire); a 401 renews it once (refresh, or another process's newer token) and retries; a 403
 * `insufficient_scope` records the scope for the next sign-in. What only a person can fix fails
 * the request with a NeedsSignIn. The token goes to the server's origin only, never elsewhere.
 */
export function authorizedFetch(session: AuthSession, base: FetchLike = fetch): FetchLike {
  const origin = session.url.origin;
  return async (input, init) => {
    if (new URL(String(input instanceof Request ? input.url : input)).origin !== origin) return base(input, init);
    const token = await session.token();
    const response = await base(input, withBearer(init, token));
    if (response.status === 401) {
      const challenge = await bearerChallenge(response);
      await response.body?.cancel().catch(() => {});
      const fresh = await session.renew(token, challenge.resourceMetadata);
      const again = await base(input, withBearer(init, fresh));
      if (again.status === 401) {
        await again.body?.cancel().catch(() => {});
        throw new NeedsSignIn(session.server);
      }
      return stepUp(session, again);
    }
    return stepUp(session, response);
  };
}

/** A 403 asking for more scope: recorded, and the request fails saying what to run. */
async function stepUp(session: AuthSession, response: Response): Promise<Response> {
  if (response.status !== 403) return response;
  const challenge = await bearerChallenge(response);
  if (challenge.error !== 'insufficient_scope') return response;
  await response.body?.cancel().catch(() => {});
  return session.stepUp(challenge.scope);
}

function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (token === undefined) return init;
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}

/** The `WWW-Authenticate` challenge's error, scope and resource metadata URL (the SDK's reading). */
async function bearerChallenge(response: Response): Promise<{ error?: string | undefined; scope?: string | undefined; resourceMetadata?: URL | undefined }> {
  if (!response.headers.has('www-authenticate')) return {};
  const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/client');
  const { error, scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  return { error, scope, resourceMetadata: resourceMetadataUrl };
}
