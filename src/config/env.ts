import { ConfigError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import { isSecretKey, looksSecret, shownName } from './secrets.js';

/**
 * Variables every MCP client sets for a server it starts (the SDK's inherited list, POSIX and
 * Windows) and the temp folder: names of places and of the user, not secrets. Their values are not
 * redacted: a tool result listing `/home/me/src` must reach the model as written, or it calls back
 * with `${HOME}/src`, which no server expands. `init` never asks a client entry to set them.
 */
export const PLAIN_VARIABLES: ReadonlySet<string> = new Set([
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR',
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PROCESSOR_ARCHITECTURE', 'PROGRAMFILES', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE',
]);

/** A `${VAR}` without a default whose variable is unset: it disables one server, not the gateway. */
export class UnsetVariableError extends ConfigError {}

/**
 * Replaces `${VAR}` and `${VAR:-default}` in a string with values from `env`, so secrets stay out
 * of rc files. Every substituted value but those of PLAIN_VARIABLES is registered for redaction (see util/redact).
 *
 * @throws UnsetVariableError (a ConfigError) naming the variable and the key path when a variable without a default is unset (each cut, see shownName).
 */
export function interpolate(value: string, env: NodeJS.ProcessEnv, keyPath: string, file?: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const found = Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
    if (typeof found === 'string' && found !== '') {
      // Whatever else comes from the environment may be a secret: shown as ${NAME} from now on.
      if (!PLAIN_VARIABLES.has(name.toUpperCase())) registerSecret(found, name);
      return found;
    }
    if (fallback !== undefined) return fallback;
    // The name is the rc's, of any length: shown cut (the reason reaches status, logs and a call's error).
    const shown = shownName(name);
    throw new UnsetVariableError(`${keyPath}: environment variable ${shown} is not set (referenced as \${${shown}})`, file);
  });
}

/**
 * `interpolate` over every value of a string map: an rc server's `env` or `headers`, handed to that
 * server. A value written literally (no `${VAR}` in it) where a credential goes, as `init` judges
 * one (its key names a credential, `Authorization`, `X-API-Key`, `GITHUB_TOKEN`, or it looks like
 * one), is registered for redaction too, shown as `${<key path>}`; after an auth scheme (`Bearer
 * x`, `token x`) its credential alone as well: a server that echoes its request headers or its
 * environment in an error put it in logs, `lock`'s output and what the model reads.
 */
export function interpolateMap(map: Record<string, string> | undefined, env: NodeJS.ProcessEnv, keyPath: string, file?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map ?? {})) {
    const at = `${keyPath}.${shownName(key, 'key')}`;
    out[key] = interpolate(value, env, at, file);
    if (!value.includes('${') && (isSecretKey(key) || looksSecret(value))) registerLiteral(value, at);
  }
  return out;
}

/** An auth scheme and its credential (`Bearer abc`, `Basic dXNlcjpw`, `token ghp_…`). */
const SCHEME_CREDENTIAL = /^\s*[A-Za-z][A-Za-z0-9._-]*\s+(\S+)\s*$/;

function registerLiteral(value: string, at: string): void {
  registerSecret(value, at);
  const credential = SCHEME_CREDENTIAL.exec(value)?.[1];
  if (credential !== undefined) registerSecret(credential, at);
}
