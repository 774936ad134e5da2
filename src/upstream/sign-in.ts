import type { Client, Transport } from '@modelcontextprotocol/client';
import { outsideText, registerSecret } from '../util/redact.js';
import { VERSION } from '../util/version.js';
import { boundedFetch } from './bounded-fetch.js';
import { listTools } from './lister.js';
import { MODERN_REVISION } from '../protocol/revision.js';
import type { HttpTransportKind } from './http-transport.js';
import { listenForCallback, type Callback } from './auth/callback.js';
import { answeredWithin, fetchWithin, notAnswered, stalledWho, timedOut, RequestWatch } from './auth/deadline.js';
import { safeToOpen, type Opener } from './auth/opener.js';
import { SignInProvider } from './auth/provider.js';
import { readSignIn, withSignInLock, writeSignIn, type SignIn } from './auth/store.js';
import type { ClientSettings, RemoteTarget } from './auth/target.js';

/** A sign-in that came back: the tokens are stored; `tools` is what the server then listed. */
export interface SignedIn {
  signIn: SignIn;
  tools: number | undefined;
  /** Why the server could not be listed after signing in (the sign-in itself holds). */
  listError?: string | undefined;
}

export interface SignInOptions {
  open: Opener;
  /** Progress for the person (stderr). */
  say: (line: string) => void;
  /** A scope to ask for besides the server's (else the one a step-up recorded). */
  scope?: string | undefined;
  /** How long to wait for the browser to come back (default 5 minutes). */
  callbackTimeoutMs?: number | undefined;
  /** How long the server may take to answer (default 30 s). */
  timeoutMs?: number | undefined;
}

/** Browser rounds at most: a first sign-in and one step-up, with one to spare. */
const MAX_ROUNDS = 3;

/**
 * Signs in to a remote server and stores the tokens: client credentials at once; otherwise the
 * authorization code flow with PKCE in the person's browser, through a loopback redirect whose
 * `state` is checked here (the SDK does not). The SDK's auth() does discovery, registration and
 * the exchange as the server's 401 (or 403 insufficient_scope) asks; the server is then listed to
 * show the sign-in works. The tokens are written once obtained, so a running gateway keeps its
 * old ones until then.
 */
export async function signIn(target: RemoteTarget & { oauth: NonNullable<RemoteTarget['oauth']> }, options: SignInOptions): Promise<SignedIn> {
  const { settings, file } = target.oauth;
  const stored = readSignIn(file);
  const timeout = options.timeoutMs ?? 30_000;
  const persist = async (next: SignIn) => {
    // Until tokens come, nothing is written: a gateway keeps using the sign-in it has.
    if (!next.tokens) return;
    // Redacted from here on, as the gateway does with the tokens it sends: the server's answers
    // this sign-in prints (why it could not be listed) may quote its Authorization header.
    for (const token of [next.tokens.access_token, next.tokens.refresh_token]) if (token) registerSecret(token, `oauth:${target.name}`, target.name);
    await withSignInLock(file, async () => writeSignIn(file, next));
  };
  if (settings.grant === 'client_credentials') {
    const { auth, createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/client');
    const { clientId, privateKey, signingAlgorithm } = settings;
    // The rc's client keeps the authorization server it is bound to (its issuer stamp, provider.ts
    // clientInformation): without it, a remote that now names another got the secret from here.
    const client = stored?.client?.client_id === clientId ? stored?.client : undefined;
    const signIn: SignIn = { version: 1, server: target.name, url: target.url.href, grant: 'client_credentials', client, discovery: stored?.discovery };
    const addClientAuthentication = privateKey && clientId ? createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg: signingAlgorithm ?? 'ES256' }) : undefined;
    const provider = new SignInProvider(signIn, withScope(settings, options.scope), { persist, addClientAuthentication, bound: options.say });
    // The server's challenge names its metadata: probe once without a token.
    const resourceMetadataUrl = await challengeMetadata(target, timeout);
    // Nobody watches this grant (CI, a machine): the authorization server's round trips share the server's timeout.
    const who = (stalled: URL | undefined) => stalledWho(stalled, target, provider.signIn.discovery);
    const granted = await answeredWithin(timeout, boundedFetch(target.name), who, (fetchFn) => auth(provider, { serverUrl: target.url, resourceMetadataUrl, fetchFn }));
    if (granted !== 'AUTHORIZED') throw new Error('the authorization server gave no token');
    return probe(target, provider, timeout, provider.signIn);
  }
  const callback = await listenForCallback(settings.redirectPort ?? 0);
  try {
    return await browserSignIn(target, settings, stored, callback, persist, options, timeout);
  } finally {
    await callback.close();
  }
}

async function browserSignIn(
  target: RemoteTarget,
  settings: ClientSettings,
  stored: SignIn | undefined,
  callback: Callback,
  persist: (next: SignIn) => Promise<void>,
  options: SignInOptions,
  timeout: number,
): Promise<SignedIn> {
  const waitMs = options.callbackTimeoutMs ?? 300_000;
  // A client registered for another redirect URI (another port) would be refused: registered anew.
  const keepClient = settings.clientId !== undefined || settings.clientMetadataUrl !== undefined || stored?.redirectUri === callback.redirectUrl;
  const signIn: SignIn = {
    version: 1,
    server: target.name,
    url: target.url.href,
    grant: 'authorization_code',
    client: keepClient ? stored?.client : undefined,
    discovery: stored?.discovery,
    pendingScope: stored?.pendingScope,
  };
  let returning: Promise<URLSearchParams> | undefined;
  const provider = new SignInProvider(signIn, settings, {
    persist,
    bound: options.say,
    redirectUrl: callback.redirectUrl,
    redirect: async (url) => {
      if (!safeToOpen(url)) throw new Error(`the authorization server's sign-in page is neither https nor http on this machine (${outsideText(url.href, 200)}): not opened`);
      returning = callback.expect(url.searchParams.get('state') ?? '', waitMs);
      const opened = await options.open(url, (why) => callback.cancel(`the browser gave up: ${why}`));
      options.say(opened ? `Opened your browser to sign in to ${target.name}. If it did not open, visit:\n  ${url.href}` : `Open this URL in a browser to sign in to ${target.name}:\n  ${url.href}`);
    },
  });
  const { auth } = await import('@modelcontextprotocol/client');
  const wanted = options.scope ?? signIn.pendingScope;
  if (wanted) {
    // A step-up the gateway recorded (or --scope): asked for in one round, whatever the tokens hold.
    const resourceMetadataUrl = signIn.discovery?.resourceMetadataUrl ? new URL(signIn.discovery.resourceMetadataUrl) : await challengeMetadata(target, timeout);
    // Each round trip phase (discovery and registration up to the browser; the code exchange after
    // it) ends at the server's timeout: an authorization server that never answers held this for ever.
    const common = { serverUrl: target.url, scope: wanted, resourceMetadataUrl };
    const base = boundedFetch(target.name);
    const who = (stalled: URL | undefined) => stalledWho(stalled, target, provider.signIn.discovery);
    if ((await answeredWithin(timeout, base, who, (fetchFn) => auth(provider, { ...common, fetchFn, forceReauthorization: true }))) === 'REDIRECT' && returning) {
      const params = await returning;
      returning = undefined;
      await answeredWithin(timeout, base, who, (fetchFn) => auth(provider, { ...common, fetchFn, authorizationCode: params.get('code') ?? '', iss: params.get('iss') ?? undefined }));
    }
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    returning = undefined;
    // The requests waiting, and the one a timeout ended: a failure for lack of an answer names its server.
    const watch = new RequestWatch();
    const { client, transport } = await connection(target, provider, timeout, false, watch);
    try {
      await client.connect(transport, { timeout });
      const tools = await listTools(client, timeout, () => {});
      return { signIn: provider.signIn, tools: tools.length };
    } catch (error) {
      if (!returning) {
        // Signed in, but the server would not speak 2025 with us: it may speak 2026-07-28 only.
        if (provider.signIn.tokens) return probe(target, provider, timeout, provider.signIn, true);
        throw unanswered(error, watch, timeout, target, provider);
      }
      const params = await returning;
      const current = (transport as { current?: Transport }).current ?? transport;
      await (current as unknown as { finishAuth(params: URLSearchParams): Promise<void> }).finishAuth(params).catch((failed: unknown) => {
        throw unanswered(failed, watch, timeout, target, provider);
      });
    } finally {
      await client.close().catch(() => {});
    }
  }
  throw new Error(`the server still asked for sign-in after ${MAX_ROUNDS} rounds`);
}

/**
 * What to report for `error` of a request `watch` saw: who did not answer (stalledWho) when it
 * timed out or an event stream stayed silent to its deadline (the SDK names neither), else `error`.
 */
function unanswered(error: unknown, watch: RequestWatch, timeout: number, target: RemoteTarget, provider: SignInProvider): unknown {
  return timedOut(error) || watch.silent !== undefined ? notAnswered(timeout, stalledWho(watch.culprit, target, provider.signIn.discovery)) : error;
}

/**
 * An SDK client and the server's transport, signing in through `provider` when the server asks.
 * Each request ends `timeout` after it starts: the transport's fetch also makes the SDK's sign-in
 * round trips (discovery, registration, a step-up's, finishAuth's code exchange), which the
 * client's request timeout does not end (it stops waiting; the fetch went on).
 */
async function connection(target: RemoteTarget, provider: SignInProvider, timeout: number, modern = false, watch?: RequestWatch): Promise<{ client: Client; transport: Transport }> {
  const [{ Client }, { httpTransport }] = await Promise.all([import('@modelcontextprotocol/client'), import('./http-transport.js')]);
  const transport = httpTransport(target.url, target.transport as HttpTransportKind | undefined, { headers: target.headers, fetch: fetchWithin(timeout, boundedFetch(target.name), watch), authProvider: provider });
  return { client: new Client({ name: 'lazytools', version: VERSION }, modern ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {}), transport };
}

/**
 * Lists the server's tools with the new tokens, in the 2025 era and then, if the server refuses
 * it, in 2026-07-28 (as the gateway connects).
 */
async function probe(target: RemoteTarget, provider: SignInProvider, timeout: number, signIn: SignIn, modern = false): Promise<SignedIn> {
  const watch = new RequestWatch();
  const { client, transport } = await connection(target, provider, timeout, modern, watch);
  try {
    await client.connect(transport, { timeout });
    return { signIn, tools: (await listTools(client, timeout, () => {})).length };
  } catch (error) {
    if (!modern) {
      await client.close().catch(() => {});
      return probe(target, provider, timeout, signIn, true);
    }
    return { signIn, tools: undefined, listError: outsideText((unanswered(error, watch, timeout, target, provider) as Error).message) };
  } finally {
    await client.close().catch(() => {});
  }
}

/** The `resource_metadata` of the server's 401 challenge to a request without a token, if any. */
async function challengeMetadata(target: RemoteTarget, timeout: number): Promise<URL | undefined> {
  const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/client');
  try {
    const response = await fetch(target.url, {
      method: target.transport === 'sse' ? 'GET' : 'POST',
      headers: { ...target.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      ...(target.transport === 'sse' ? {} : { body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }) }),
      // A redirect is no challenge: followed, it took the rc's headers (all but Authorization) to
      // whatever origin it named, and read that origin's challenge as this server's.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeout),
    });
    await response.body?.cancel().catch(() => {});
    return response.status === 401 ? extractWWWAuthenticateParams(response).resourceMetadataUrl : undefined;
  } catch {
    return undefined;
  }
}

function withScope(settings: ClientSettings, scope: string | undefined): ClientSettings {
  return scope ? { ...settings, scope } : settings;
}
