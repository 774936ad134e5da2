import { createHash } from 'node:crypto';
import { type Stats, chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { withFileLock } from '../../util/file-lock.js';
import { writePrivateFile } from '../../util/private-file.js';
import { isObject } from '../../util/json.js';
import { notOwnPrivate, userConfigFolder } from '../../util/user-cache.js';

/*
 * Sign-ins to remote servers, one file per server URL in the user's config folder
 * (`sign-ins/`, private to the user: folder 0700, files 0600), never in the project: an rc, a
 * lock and a log can be committed or shared, a token must not be. Files are written whole
 * (a temporary file renamed over) so a reader never sees half of one.
 */

/** What lazytools keeps of one sign-in. Tokens stay in this file: never printed, logged or locked. */
export interface SignIn {
  version: 1;
  /** The rc name the server had at the last sign-in (for `auth --status`). */
  server: string;
  /** The MCP server's URL: the resource the tokens are for. */
  url: string;
  /** How tokens are obtained: a person's sign-in in a browser, or the client's own credentials. */
  grant: 'authorization_code' | 'client_credentials';
  /** The client as registered (dynamic registration, a client ID metadata document, or the rc's). */
  client?: StoredOAuthClientInformation | undefined;
  /** The redirect URI the client registered (refreshes name the same client). */
  redirectUri?: string | undefined;
  tokens?: StoredOAuthTokens | undefined;
  /** When the access token expires (ms since the epoch), from its `expires_in`. */
  expiresAt?: number | undefined;
  /** When the tokens were saved (ms since the epoch). */
  savedAt?: number | undefined;
  /** Protected-resource and authorization-server metadata, so a refresh skips discovery. */
  discovery?: OAuthDiscoveryState | undefined;
  /** The scope a server asked for beyond the tokens' (step-up): the next sign-in requests it. */
  pendingScope?: string | undefined;
}

/** The folder of sign-ins, or undefined when no user folder is known. */
export function signInFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userConfigFolder('sign-ins', env);
}

/**
 * The sign-in file of a server URL and client: each user signs in once per server, whichever
 * project names it; a machine's client credentials (or another pre-registered client) for the
 * same server keep their own (`client`: the grant and client id).
 */
export function signInFile(folder: string, url: string, client = ''): string {
  const parsed = new URL(url);
  parsed.hash = '';
  const digest = createHash('sha256').update(client ? `${parsed.href}\n${client}` : parsed.href).digest('hex').slice(0, 16);
  const host = parsed.hostname.replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 60);
  return path.join(folder, `${host}-${digest}.json`);
}

/**
 * The sign-in stored in `file`, or undefined (none, or not one lazytools wrote). A file that is
 * not the user's own is none: a link, or a file or folder another user owns or others may write
 * (a shared LAZYTOOLS_CONFIG_DIR). Its tokens would be sent, and its authorization server's
 * endpoints would get the rc's client secret (a refresh, `auth --logout`'s revocation).
 */
export function readSignIn(file: string): SignIn | undefined {
  if (!ownPrivate(lstatSync(file, { throwIfNoEntry: false })) || !ownPrivate(statSync(path.dirname(file), { throwIfNoEntry: false }))) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return asSignIn(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * True for a file or folder (the file itself, not a link: lstat) that the user owns and others may
 * not write; on systems without user ids (Windows), for any file or folder.
 */
function ownPrivate(stat: Stats | undefined): boolean {
  return stat !== undefined && (stat.isFile() || stat.isDirectory()) && notOwnPrivate(stat) === undefined;
}

/** Writes a sign-in whole, readable by the user only. */
export function writeSignIn(file: string, signIn: SignIn): void {
  privateFolder(path.dirname(file));
  writePrivateFile(file, `${JSON.stringify(signIn, null, 2)}\n`);
}

/**
 * Runs `run` holding the sign-in's lock (util/file-lock.ts), shared by every lazytools process of
 * this user: renewals and sign-ins of one server take turns.
 */
export function withSignInLock<T>(file: string, run: () => Promise<T>): Promise<T> {
  privateFolder(path.dirname(file));
  return withFileLock(file, run);
}

/** Makes the folder, readable by the user only (one made by hand with wider rights is narrowed). */
function privateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(folder, 0o700);
}

/** Forgets a sign-in; false when there was none. */
export function removeSignIn(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Every sign-in of the folder, with its file. */
export function listSignIns(folder: string): Array<{ file: string; signIn: SignIn }> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const out: Array<{ file: string; signIn: SignIn }> = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(folder, name);
    const signIn = readSignIn(file);
    if (signIn) out.push({ file, signIn });
  }
  return out;
}

/**
 * The sign-in of one file as last read, read again only when the file changed (size or time):
 * the gateway asks before every request to the server, and another process (a second gateway's
 * refresh, `lazytools auth`) may have written it since.
 */
export class SignInReader {
  private seen: { mtimeMs: number; size: number; signIn: SignIn | undefined } | undefined;

  constructor(readonly file: string) {}

  get(): SignIn | undefined {
    const stat = statSync(this.file, { throwIfNoEntry: false });
    if (!stat) {
      this.seen = undefined;
      return undefined;
    }
    if (this.seen && this.seen.mtimeMs === stat.mtimeMs && this.seen.size === stat.size) return this.seen.signIn;
    const signIn = readSignIn(this.file);
    this.seen = { mtimeMs: stat.mtimeMs, size: stat.size, signIn };
    return signIn;
  }
}

/** A parsed file as a SignIn, when it has the fields lazytools relies on with the right types. */
function asSignIn(value: unknown): SignIn | undefined {
  if (!isObject(value) || value.version !== 1 || typeof value.url !== 'string' || typeof value.server !== 'string') return undefined;
  if (value.grant !== 'authorization_code' && value.grant !== 'client_credentials') return undefined;
  const tokens = value.tokens;
  if (tokens !== undefined && (!isObject(tokens) || typeof tokens.access_token !== 'string')) return undefined;
  const client = value.client;
  if (client !== undefined && (!isObject(client) || typeof client.client_id !== 'string')) return undefined;
  if (value.expiresAt !== undefined && typeof value.expiresAt !== 'number') return undefined;
  if (value.pendingScope !== undefined && typeof value.pendingScope !== 'string') return undefined;
  return value as unknown as SignIn;
}
