import { interpolate, interpolateMap, redactLiteralCredentials } from '../../config/env.js';
import type { ServerConfig } from '../../config/schema.js';
import { isSecretParam, looksSecret, shownName } from '../../config/secrets.js';
import { HEADER_VALUE_MESSAGE, headerValue } from '../../config/wire-text.js';
import { USERINFO_MESSAGE } from '../../config/urls.js';
import { clipText } from '../../util/bounds.js';
import { ConfigError } from '../../util/errors.js';
import { registerSecret } from '../../util/redact.js';
import { signInFile, signInFolder } from './store.js';
import { decodeOrKeep } from '../../util/uri.js';

/** The rc's `oauth` of one server with `${VAR}` read: what the sign-in and its refreshes use. */
export interface ClientSettings {
  grant: 'authorization_code' | 'client_credentials';
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  privateKey?: string | undefined;
  signingAlgorithm?: string | undefined;
  scope?: string | undefined;
  clientMetadataUrl?: string | undefined;
  redirectPort?: number | undefined;
  /** The authorization server the client's credentials may go to (rc `oauth.issuer`); undefined: the first one used. */
  issuer?: string | undefined;
}

/** One remote (`url`) server of the rc, resolved: where it is, how to reach it, how to sign in. */
export interface RemoteTarget {
  name: string;
  url: URL;
  headers: Record<string, string>;
  /** Forced by the rc; undefined: Streamable HTTP with a fallback to HTTP+SSE. */
  transport: 'streamable-http' | 'sse' | undefined;
  /** How to sign in, and where the sign-in is kept; undefined: never (rc `oauth: false`, an Authorization header, no user folder). */
  oauth: { settings: ClientSettings; file: string } | undefined;
}

/**
 * Resolves a `url` server of the rc (`${VAR}` read from `env`, `file` named in errors).
 *
 * @throws ConfigError (an UnsetVariableError for a missing variable) naming the key path.
 */
export function remoteTarget(name: string, server: ServerConfig, env: NodeJS.ProcessEnv, file: string | undefined): RemoteTarget {
  const at = `servers.${shownName(name)}`;
  if (server.url === undefined) throw new ConfigError(`${at}: "${name}" is not a remote server (it has no "url")`, file);
  const expanded = interpolate(server.url, env, `${at}.url`, file);
  const url = URL.canParse(expanded) ? new URL(expanded) : undefined;
  // Checked here too: a URL read whole from the environment ("${SERVER_URL}") is only known now.
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new ConfigError(`${at}.url: expected an http(s) URL`, file);
  if (url.username !== '' || url.password !== '') throw new ConfigError(`${at}.url: ${USERINFO_MESSAGE}`, file);
  redactUrlCredentials(name, url);
  const headers = interpolateMap(server.headers, env, `${at}.headers`, file);
  redactLiteralCredentials(at, { headers: server.headers });
  // Checked again once `${VAR}` is read: a variable may hold a line break (a pasted token), and fetch's refusal quotes it whole.
  for (const [header, value] of Object.entries(headers))
    if (!headerValue(value)) throw new ConfigError(`${at}.headers.${shownName(header, 'key')}: ${HEADER_VALUE_MESSAGE}`, file);
  const signsIn = server.oauth !== false && !Object.keys(headers).some((header) => header.toLowerCase() === 'authorization');
  const folder = signsIn ? signInFolder(env) : undefined;
  const settings = folder ? clientSettings(server, env, `${at}.oauth`, file) : undefined;
  if (settings?.clientId !== undefined && settings.clientSecret !== undefined) redactClientSecret(name, settings.clientId, settings.clientSecret);
  // The person's sign-in through discovery is the default; another client or grant keeps its own.
  const client = settings && (settings.grant !== 'authorization_code' || settings.clientId !== undefined) ? `${settings.grant} ${settings.clientId ?? ''}` : '';
  const oauth = folder && settings ? { settings, file: signInFile(folder, url.href, client) } : undefined;
  return { name, url, headers, transport: server.transport, oauth };
}

/**
 * A credential written literally in the URL's query (`?token=…`, `&api_key=…`: the parameters
 * `init` moves to variables, config/secrets isSecretParam) is redacted as a `${VAR}`'s value is,
 * in free text and in this server's messages: a server that echoes its URL in an error (`Cannot
 * POST /mcp?token=…`) put it in `lock`'s output, logs and CI. Shown as `${servers.<name>.url <param>}`.
 * So is a path segment that looks like a credential (looksSecret: a token prefix, a long random
 * run), as hosted servers that take their key in the path have it (`/mcp/<key>/sse`), shown as
 * `${servers.<name>.url path}`. A UUID is not taken for one: it names a workspace or a record the
 * server's answers name too, and the model must be able to call back with it.
 */
function redactUrlCredentials(name: string, url: URL): void {
  for (const raw of url.pathname.split('/')) {
    const segment = decodeOrKeep(raw);
    if (segment !== '' && !UUID.test(segment) && looksSecret(segment)) for (const value of new Set([raw, segment])) registerSecret(value, `servers.${shownName(name)}.url path`, name);
  }
  for (const part of url.search.slice(1).split('&')) {
    const split = part.indexOf('=');
    const raw = part.slice(split + 1);
    const key = decodeOrKeep(part.slice(0, split));
    if (split <= 0 || raw === '' || !isSecretParam(key)) continue;
    const placeholder = `servers.${shownName(name)}.url ${clipText(key, 40)}`;
    // As written in the URL (percent-encoded) and as read (a server may quote either).
    for (const value of new Set([raw, decodeOrKeep(raw.replace(/\+/g, ' '))])) registerSecret(value, placeholder, name);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function clientSettings(server: ServerConfig, env: NodeJS.ProcessEnv, at: string, file: string | undefined): ClientSettings {
  const rc = server.oauth || {};
  const read = (key: 'clientId' | 'clientSecret' | 'privateKey' | 'scope' | 'clientMetadataUrl' | 'signingAlgorithm') => {
    const value = rc[key];
    return value === undefined ? undefined : interpolate(value, env, `${at}.${key}`, file);
  };
  return {
    grant: rc.grant ?? 'authorization_code',
    clientId: read('clientId'),
    clientSecret: read('clientSecret'),
    privateKey: read('privateKey'),
    signingAlgorithm: read('signingAlgorithm'),
    scope: read('scope'),
    clientMetadataUrl: read('clientMetadataUrl'),
    redirectPort: rc.redirectPort,
    issuer: rc.issuer,
  };
}

/**
 * A client secret (the rc's, or one dynamic registration issued) is redacted whole and in the HTTP
 * Basic credentials the token and revocation requests send it in (base64 of "id:secret", the
 * SDK's plain and RFC 6749's form-encoded pairs): an authorization server that quotes its request
 * in an error (a debug page, a hostile one) would put that form in front of the person, or in a
 * CI log. `scope`: a secret the authorization server chose is that server's (redact.ts).
 */
export function redactClientSecret(server: string, clientId: string, clientSecret: string, scope?: string): void {
  registerSecret(clientSecret, `oauth:${server} client secret`, scope);
  for (const pair of new Set([`${clientId}:${clientSecret}`, `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`]))
    registerSecret(Buffer.from(pair).toString('base64'), `oauth:${server} client credentials`, scope);
}
