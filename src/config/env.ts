import { ConfigError } from '../util/errors.js';
import { registerSecret } from '../util/redact.js';
import { isSecretKey, looksSecret, shownName } from './secrets.js';
import { decodeOrKeep } from '../util/uri.js';
import { replaceBraced } from '../util/braces.js';
import type { RcConfig } from './schema.js';

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
 * of rc files. Every substituted value but those of PLAIN_VARIABLES is registered for redaction (see util/redact),
 * and a default that is a credential (credentialDefault), shown as its variable.
 *
 * @throws UnsetVariableError (a ConfigError) naming the variable and the key path when a variable without a default is unset (each cut, see shownName).
 */
export function interpolate(value: string, env: NodeJS.ProcessEnv, keyPath: string, file?: string): string {
  const problem = referenceProblem(value);
  if (problem !== undefined) throw new ConfigError(`${keyPath}: ${problem}`, file);
  return replaceBraced(value, REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const found = Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
    if (typeof found === 'string' && found !== '') {
      // Whatever else comes from the environment may be a secret: shown as ${NAME} from now on.
      if (!PLAIN_VARIABLES.has(name.toUpperCase())) registerSecret(found, name);
      return found;
    }
    if (fallback !== undefined) {
      // A default is written in the rc: one that is a credential is redacted as a literal one is, as its variable.
      if (credentialDefault(name, keyPath, fallback)) registerSecret(fallback, name);
      return fallback;
    }
    // The name is the rc's, of any length: shown cut (the reason reaches status, logs and a call's error).
    const shown = shownName(name);
    throw new UnsetVariableError(`${keyPath}: environment variable ${shown} is not set (referenced as \${${shown}})`, file);
  });
}

/** `${VAR}` or `${VAR:-default}`: the default runs to the first `}`. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * What is wrong with the `${…}` references of an rc value, if anything: a `${` that no `}`
 * closes, or a default holding a `${` (`${A:-${B}}`: defaults are text, not references). Both
 * once reached the server as literal text (`${A:-${B}}` as `${B}`, or A's value and a stray
 * `}`), without a word. Other `${…}` that no reference reads (a shell's `${1}`, `${X#y}`, VS
 * Code's `${env:X}`) stay text, as before. Read in time linear in the value (util/braces.ts).
 */
export function referenceProblem(value: string): string | undefined {
  const open = value.indexOf('${', value.lastIndexOf('}') + 1);
  if (open >= 0) return `"\${" at character ${open + 1} is never closed: expected \${NAME} or \${NAME:-default}, ending with "}"`;
  let problem: string | undefined;
  replaceBraced(value, REFERENCE, (match, name: string, fallback: string | undefined) => {
    if (problem === undefined && fallback?.includes('${')) {
      const shown = shownName(name);
      problem = `the default of \${${shown}:-…} holds a "\${": expected a default of plain text (a reference in a default, \${A:-\${B}}, is not read); set ${shown} itself instead`;
    }
    return match;
  });
  return problem;
}

/** The rc's values that `interpolate` reads (servers' and discovery.embeddings'), as key path and value. */
function referencedValues(rc: RcConfig): Array<[string, string]> {
  const values: Array<[string, string]> = [];
  for (const [name, server] of Object.entries(rc.servers ?? {})) {
    const at = `servers.${shownName(name)}`;
    for (const key of ['command', 'cwd', 'url'] as const) if (typeof server[key] === 'string') values.push([`${at}.${key}`, server[key]]);
    (server.args ?? []).forEach((arg, i) => values.push([`${at}.args[${i}]`, arg]));
    for (const section of ['env', 'headers'] as const) for (const [key, value] of Object.entries(server[section] ?? {})) values.push([`${at}.${section}.${shownName(key, 'key')}`, value]);
    for (const [key, value] of Object.entries(server.oauth || {})) if (typeof value === 'string') values.push([`${at}.oauth.${shownName(key, 'key')}`, value]);
  }
  const embeddings = rc.discovery?.embeddings;
  for (const key of ['url', 'apiKey'] as const) if (typeof embeddings?.[key] === 'string') values.push([`discovery.embeddings.${key}`, embeddings[key]]);
  return values;
}

/**
 * Refuses an rc whose `${…}` references cannot be read (referenceProblem) when it is loaded, as
 * any other rc error (exit 2 naming the file and key path), before anything starts.
 *
 * @throws ConfigError naming the first such value's key path and what was expected.
 */
export function refuseBrokenReferences(rc: RcConfig, file: string | undefined): void {
  for (const [keyPath, value] of referencedValues(rc)) {
    const problem = referenceProblem(value);
    if (problem !== undefined) throw new ConfigError(`${keyPath}: ${problem}`, file);
  }
}

/**
 * Whether the default of `${NAME:-default}` at `keyPath` is a credential: it looks like one
 * (looksSecret), or the variable or the key names one and the value could be one (credentialShaped),
 * the rule of literal credentials (redactLiteralCredentials). `${MODE:-fast}` or a default path stays.
 */
function credentialDefault(name: string, keyPath: string, fallback: string): boolean {
  if (looksSecret(fallback)) return true;
  const key = /[^.]*$/.exec(keyPath)?.[0] ?? '';
  return credentialUnder(name, fallback) || credentialUnder(key, fallback);
}

/** `interpolate` over every value of a string map. */
export function interpolateMap(map: Record<string, string> | undefined, env: NodeJS.ProcessEnv, keyPath: string, file?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map ?? {})) out[key] = interpolate(value, env, `${keyPath}.${shownName(key, 'key')}`, file);
  return out;
}

/**
 * Credentials written literally in what the rc passes to one server (no `${VAR}`): an `env` or
 * `headers` value whose key names one (`GITHUB_TOKEN`, `Authorization`, `X-Api-Key`) or that looks
 * like one (config/secrets looksSecret: a known token prefix, a long random run), and in `args`
 * such a value, `--api-key=…`, `API_KEY=…`, the argument after `--api-key` or a header written as
 * one argument (`Authorization: Bearer …`, as mcp-remote's `--header` takes it): what `init` would
 * have moved to a variable. Each is redacted as a `${VAR}`'s value is, shown as `${<key path>}`
 * (`${servers.x.env.GITHUB_TOKEN}`): a server that repeats its key (`invalid key sk-…`, a header
 * echoed in an error) put a hand-written rc's secret in front of the model, in logs and in the
 * lock. What a server may quote alone counts alone too (credentialParts): a scheme's credential
 * (`Bearer …`), a header argument's value, a URL's password, a cookie's or a word's credential.
 */
export function redactLiteralCredentials(keyPath: string, entries: { env?: Record<string, string> | undefined; headers?: Record<string, string> | undefined; args?: readonly string[] | undefined }): void {
  for (const section of ['env', 'headers'] as const)
    for (const [key, value] of Object.entries(entries[section] ?? {}))
      if (credentialUnder(key, value) || looksSecret(value)) literalSecret(value, `${keyPath}.${section}.${shownName(key, 'key')}`);
      else if (isSecretKey(key) && !value.includes('${')) for (const word of credentialWords(value)) registerSecret(word, `${keyPath}.${section}.${shownName(key, 'key')}`);
  const args = entries.args ?? [];
  args.forEach((arg, i) => {
    const at = `${keyPath}.args[${i}]`;
    const setting = /^(--?[\w-]+|[A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(arg);
    if (setting && credentialUnder(setting[1] as string, setting[2] as string)) return literalSecret(setting[2] as string, at);
    // A header argument with its flag (`--header=Authorization: Bearer …`, as yargs-style bridges take it).
    const header = HEADER_LINE.exec(setting?.[2] ?? arg);
    if (header && isSecretKey(header[1] as string) && credentialShaped(header[2] as string)) {
      if (setting) literalSecret(setting[2] as string, at);
      return literalSecret(arg, at);
    }
    const previous = args[i - 1];
    if ((previous !== undefined && /^--?[\w-]+$/.test(previous) && credentialUnder(previous, arg)) || looksSecret(arg)) literalSecret(arg, at);
  });
}

/** An auth scheme's credential (`Bearer <token>`): the token; else the value. */
const SCHEME = /^(?:bearer|basic|token|bot)\s+(\S+)$/i;
/** A header written as one string (`Authorization: Bearer …`): its name and value. */
const HEADER_LINE = /^([A-Za-z][\w-]*):\s*(\S.*)$/;

/**
 * Whether a value under a credential's key could be one: eight characters or more, one word, and
 * no plain word, number, path or URL (a `SESSION_TIMEOUT` of 30000, a `KEY_FORMAT` of json: as a
 * secret, every "json" in every answer would read as the key's placeholder).
 */
function credentialShaped(value: string): boolean {
  const text = value.trim();
  const credential = SCHEME.exec(text)?.[1] ?? text;
  if (credential.length < 8 || /\s/.test(credential) || /^\d+$/.test(credential)) return false;
  if (/^[a-z]+(?:[-_./][a-z]+)*$/i.test(credential) || /^(?:[/~.]|[A-Za-z]:[\\/])/.test(credential)) return false;
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(credential);
}

/** A key whose last word names a password or secret (`DB_PASSWORD`, `--client-secret`): its value is one, whatever its shape. */
const PASSWORD_KEY = /(?:^|[_-])(?:password|passwd|pwd|pass|passphrase|secret)$/i;

/**
 * Whether a value under `key` is a credential: the key names one and the value could be one
 * (credentialShaped); under a key that ends in a password or secret word, any value of eight
 * characters or more but a number, a path, a URL or a `${VAR}`. A passphrase is words
 * ("correcthorsebattery", "tangerine-wallaby"), which credentialShaped reads as a setting (a
 * KEY_FORMAT of json), so a literal DB_PASSWORD a server echoed was shown as written.
 */
function credentialUnder(key: string, value: string): boolean {
  if (!isSecretKey(key)) return false;
  if (credentialShaped(value)) return true;
  const text = value.trim();
  if (!PASSWORD_KEY.test(key.replace(/^-+/, '')) || text.length < 8 || text.includes('${') || /^\d+$/.test(text)) return false;
  return !/^(?:[/~.]|[A-Za-z]:[\\/])/.test(text) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

/** The credential-shaped words of a value of several under a credential's key (a Cookie's `sid=…; theme=dark`): each `name=value`'s value, or the word. */
function credentialWords(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((word) => /^[^=]+=(.+)$/.exec(word)?.[1] ?? word)
    .filter(credentialShaped);
}

/**
 * What a server may quote of a literal credential: the value, a header argument's value, a
 * scheme's credential (`Bearer <token>`), a URL's password, each word that looks like a
 * credential itself (the token of `Authorization: Bearer <token>`, of `--key <token> --fast`).
 */
function credentialParts(value: string): Set<string> {
  const parts = new Set([value]);
  const text = value.trim();
  const header = HEADER_LINE.exec(text);
  const credential = header && isSecretKey(header[1] as string) ? (header[2] as string).trim() : text;
  if (credentialShaped(credential)) parts.add(credential);
  const scheme = SCHEME.exec(credential)?.[1];
  if (scheme !== undefined) parts.add(scheme);
  for (const word of credential.split(/[\s,;]+/)) if (word !== credential && looksSecret(word)) parts.add(word);
  if (URL.canParse(text)) {
    // A password only a word or a number (`admin`, `1234`) would be every such word's placeholder.
    const password = decodeOrKeep(new URL(text).password);
    if (credentialShaped(password)) parts.add(password);
  }
  return parts;
}

/** One literal credential registered for redaction (with what a server may quote of it, credentialParts); a value holding a `${VAR}` is that variable's, registered when read. */
function literalSecret(value: string, keyPath: string): void {
  if (value.includes('${')) return;
  for (const part of credentialParts(value)) registerSecret(part, keyPath);
}

