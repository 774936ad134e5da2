import { ConfigError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import { shownName } from './secrets.js';

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

/** `interpolate` over every value of a string map. */
export function interpolateMap(map: Record<string, string> | undefined, env: NodeJS.ProcessEnv, keyPath: string, file?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map ?? {})) out[key] = interpolate(value, env, `${keyPath}.${shownName(key, 'key')}`, file);
  return out;
}
