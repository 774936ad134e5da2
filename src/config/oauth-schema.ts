import { z } from 'zod';

// The rc's `servers.<name>.oauth` entry: its shape and what it needs besides its types. Part of
// the rc contract (schema.ts), kept apart so that contract reads in one screen per concept.

/**
 * How lazytools signs in to a remote server (OAuth 2.1). Without it a `url` server that answers
 * 401 is signed in to with `lazytools auth <server>`: discovery, then a client ID metadata
 * document (`clientMetadataUrl`) or dynamic registration, then the browser. Secrets come from
 * the environment (`${VAR}`); tokens never go in the rc.
 */
export const oauthSchema = z.strictObject({
  clientId: z.string().min(1).optional().describe('A client registered with the authorization server beforehand (skips dynamic registration).'),
  clientSecret: z.string().min(1).optional().describe('That client\'s secret, as `${VAR}` (never written in the rc).'),
  privateKey: z.string().min(1).optional().describe('client_credentials with private_key_jwt: the client\'s private key (PEM), as `${VAR}`.'),
  signingAlgorithm: z.string().min(1).optional().describe('JWT algorithm for `privateKey` (default ES256).'),
  grant: z
    .enum(['authorization_code', 'client_credentials'])
    .optional()
    .describe('authorization_code (default): a person signs in with `lazytools auth`; client_credentials: the client\'s own credentials, for machines and CI (needs clientId and clientSecret or privateKey).'),
  scope: z.string().min(1).optional().describe('Scope to ask for (default: the server\'s WWW-Authenticate scope, else its scopes_supported).'),
  clientMetadataUrl: z
    .string()
    .refine((url) => URL.canParse(url) && new URL(url).protocol === 'https:' && new URL(url).pathname !== '/', 'expected an https URL with a path (a client ID metadata document)')
    .optional()
    .describe('https URL of a client ID metadata document to use as client_id where the authorization server accepts them.'),
  issuer: z
    .string()
    .refine(issuerUrl, 'expected the issuer URL of the authorization server the client belongs to: https (http only on this machine: localhost, 127.0.0.1, [::1]), without user name, query or fragment')
    .optional()
    .describe('The authorization server the client belongs to (its issuer URL, as its metadata says). The client\'s credentials go to no other: a server naming another fails its sign-in. Without it, the first one used is kept.'),
  redirectPort: z.number().int().min(1).max(65535).optional().describe('Loopback port of the sign-in redirect (http://127.0.0.1:PORT/callback; default: a free one). Set it for a pre-registered client.'),
});

/** Hosts an http issuer may have: this machine (the SDK sends credentials over http only there). */
const LOOPBACK = /^(?:localhost|.+\.localhost|127\.0\.0\.1|\[::1\])$/;

/** True for an issuer identifier (RFC 8414): https (http to this machine), no userinfo, query or fragment. */
function issuerUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  return scheme && url.username === '' && url.password === '' && url.search === '' && url.hash === '' && !text.includes('#') && !text.includes('?');
}

/** What an `oauth` entry needs besides its types: a grant's credentials, one way to authenticate. */
export function oauthIssues(oauth: z.infer<typeof oauthSchema>, headers: Record<string, string> | undefined, ctx: z.RefinementCtx): void {
  const at = (key: string) => ['oauth', key];
  if (Object.keys(headers ?? {}).some((header) => header.toLowerCase() === 'authorization'))
    ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'expected either an "Authorization" header or "oauth", not both: the sign-in sets Authorization' });
  if (oauth.grant === 'client_credentials') {
    if (oauth.clientId === undefined) ctx.addIssue({ code: 'custom', path: at('clientId'), message: 'client_credentials needs "clientId" (and "clientSecret" or "privateKey")' });
    else if (oauth.clientSecret === undefined && oauth.privateKey === undefined) ctx.addIssue({ code: 'custom', path: at('clientSecret'), message: 'client_credentials needs "clientSecret" or "privateKey" (as ${VAR})' });
  } else if (oauth.privateKey !== undefined) ctx.addIssue({ code: 'custom', path: at('privateKey'), message: '"privateKey" applies to "grant": "client_credentials" only' });
  if (oauth.clientSecret !== undefined && oauth.clientId === undefined) ctx.addIssue({ code: 'custom', path: at('clientSecret'), message: '"clientSecret" needs the "clientId" it belongs to' });
  for (const key of ['clientSecret', 'privateKey'] as const) {
    const value = oauth[key];
    if (value !== undefined && !/\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value))
      ctx.addIssue({ code: 'custom', path: at(key), message: `"${key}" must come from the environment (\${NAME}), not be written in the rc` });
  }
}
