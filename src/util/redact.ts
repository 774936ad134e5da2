/**
 * Secrets read from the environment (`${VAR}` in the rc) must never be shown: not in logs, errors,
 * `lock` output or the text a model reads. Interpolation registers each value it substitutes, and
 * every place that prints text passes it through `redact`, which writes `${VAR}` back. Process-wide
 * on purpose: an upstream's error message may quote a value anywhere (a URL, a command path, an
 * echoed query key), and the places that print are many.
 */

import { sliceWhole } from './bounds.js';

/** Shorter values are not redacted: they would blank out ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;

/**
 * A registered value: what free text writes it back as, and the servers whose messages it is
 * looked for in, each with its own placeholder (none: every server's, under `placeholder`).
 */
interface Secret {
  placeholder: string;
  scope: ReadonlyMap<string, string> | undefined;
}

/**
 * What free text (logs, errors, CLI output) writes a value several servers hold as: it names no
 * server, as such text may reach a token's session that reaches only one of them.
 */
const SHARED_PLACEHOLDER = '${shared credential}';

/** value -> its Secret; kept sorted longest first when read, so overlapping values redact whole. */
const secrets = new Map<string, Secret>();
let ordered: Array<[string, Secret]> | undefined;

/**
 * Remembers that `value` came from environment variable `name` (also its URL-encoded and JSON
 * forms). With `scope`, a server's own credential (an OAuth token its authorization server chose):
 * looked for in that server's messages and in free text (logs, errors, CLI output), never in other
 * servers' messages. An authorization server may answer with any string as a token, `"text"` or
 * `"tools/list"` too; redacted in every server's messages it broke them all. A value registered
 * for several servers (one host's key in two servers' URLs) is looked for in each one's messages,
 * under that server's own placeholder (the first one's named the first server in the second's
 * messages), and free text shows it as SHARED_PLACEHOLDER.
 */
export function registerSecret(value: string, name: string, scope?: string): void {
  if (value.length < MIN_SECRET_LENGTH) return;
  const placeholder = `\${${name}}`;
  for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
    if (form.length < MIN_SECRET_LENGTH) continue;
    const known = secrets.get(form);
    // A value the rc also holds (scope none) stays redacted everywhere.
    if (!known || (known.scope !== undefined && scope === undefined)) {
      secrets.set(form, { placeholder, scope: scope === undefined ? undefined : new Map([[scope, placeholder]]) });
      ordered = undefined;
    } else if (known.scope !== undefined && scope !== undefined && !known.scope.has(scope)) {
      // One value two servers hold (a host's key in both their URLs): looked for in both their messages.
      secrets.set(form, scopedSecret(new Map([...known.scope, [scope, placeholder]])));
      ordered = undefined;
    }
  }
}

/** A value the servers of `scope` hold: free text names the one, or none of several. */
function scopedSecret(scope: ReadonlyMap<string, string>): Secret {
  return { placeholder: scope.size === 1 ? ([...scope.values()][0] as string) : SHARED_PLACEHOLDER, scope };
}

/** Does `secret` apply in `scope`? Free text (no scope) hides every secret; a server's messages its own and the rc's. */
function applies(secret: Secret, scope: string | undefined): boolean {
  return scope === undefined || secret.scope === undefined || secret.scope.has(scope);
}

/** What `secret` is written back as in `scope`'s messages (its own placeholder) or in free text. */
function placeholderIn(secret: Secret, scope: string | undefined): string {
  return (scope === undefined ? undefined : secret.scope?.get(scope)) ?? secret.placeholder;
}

/**
 * Stops redacting `value`, a server's credential replaced by a newer one (the list stays short); a
 * value the rc holds stays. With `scope`, only for that server: another server holding the same
 * value keeps it hidden in its messages.
 */
export function forgetSecret(value: string, scope?: string): void {
  for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
    const known = secrets.get(form)?.scope;
    if (known === undefined || (scope !== undefined && !known.has(scope))) continue;
    const rest = new Map([...known].filter(([server]) => scope !== undefined && server !== scope));
    if (rest.size === 0) secrets.delete(form);
    else secrets.set(form, scopedSecret(rest));
    ordered = undefined;
  }
}

/** `text` with every registered secret (of `scope`: see registerSecret) replaced by its `${VAR}`. */
export function redact(text: string, scope?: string): string {
  if (secrets.size === 0 || text.length === 0) return text;
  ordered ??= [...secrets].sort(([a], [b]) => b.length - a.length);
  let out = text;
  for (const [value, secret] of ordered) if (applies(secret, scope) && out.includes(value)) out = out.split(value).join(placeholderIn(secret, scope));
  return out;
}

/** True when `text` holds a registered secret (of `scope`): a cheap scan (no parsing) for hot paths. */
export function containsSecret(text: string, scope?: string): boolean {
  if (secrets.size === 0) return false;
  for (const [value, secret] of secrets) if (applies(secret, scope) && text.includes(value)) return true;
  return false;
}

/**
 * True when a line of JSON text may hold a registered secret in its strings as a reader decodes
 * them. The registered forms cover the value as written plainly and as JSON.stringify escapes it
 * (`\"`, `\\`, `\n`…); an encoder may also escape any other character (`\u0026` for `&` as Go
 * writes it, `\/` as PHP does, every character as `\uXXXX`), so a line holding such an escape
 * may hide one: the caller parses it (JSON.parse decodes) instead of passing it on unread.
 */
export function mayHoldSecret(line: string, scope?: string): boolean {
  return secrets.size > 0 && (containsSecret(line, scope) || HIDING_ESCAPE.test(line));
}

/**
 * `\u` and `\/`: the escapes JSON.stringify never writes for a character it can write as is. A
 * regular expression scans a backslash-dense line (text with many `\n`) ten times faster than
 * `includes` does.
 */
const HIDING_ESCAPE = /\\[u/]/;

/**
 * A JSON value (an upstream's message) with every registered secret in its strings and keys
 * written back as `${VAR}`: the same value when no secret is registered or none occurs (one
 * serialization to look), else a redacted copy. The upstream side applies it to everything an
 * upstream sends, so tool lists, prompts, resources, results, errors (`data` included) and what
 * is written from them (the lock, usage) carry no value the rc passed to it; `scope` names that
 * upstream, whose own credentials are looked for too (registerSecret).
 */
export function redactValue<T>(value: T, scope?: string): T {
  if (secrets.size === 0 || value === null || typeof value !== 'object') return typeof value === 'string' ? (redact(value, scope) as T) : value;
  const text = JSON.stringify(value);
  if (text === undefined || !containsSecret(text, scope)) return value;
  const holds = (key: string) => containsSecret(key, scope);
  return JSON.parse(text, (_key, item: unknown) => {
    if (typeof item === 'string') return redact(item, scope);
    if (item === null || typeof item !== 'object' || Array.isArray(item) || !Object.keys(item).some(holds)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([key, entry]) => [redact(key, scope), entry]));
  }) as T;
}

/**
 * Control characters but tab and newline: ESC (and C1 CSI) start terminal sequences, CR rewrites
 * a log line; bidirectional overrides and line separators reorder or break what is read.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with its control characters (see CONTROL) written as `\\uXXXX`: what every line written
 * to a terminal passes through (CLI output, logs), so no message, whatever it quotes, rewrites
 * the screen. Inside a JSON string the escape means the same character, so JSON output stays
 * the same value.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `text` on one line: escapeControls, and newlines written as `\\u000a` too. For what is quoted
 * from an rc, a catalog or an upstream into a warning or an error (a glob, a key, a name): a
 * line break in it would start a line of its author's choosing, and a CI log reads a line that
 * starts with `::` as a workflow command (GitHub Actions turns `::error::…` into an annotation).
 * CR, U+0085, U+2028 and U+2029 are escaped by escapeControls already.
 */
export function oneLine(text: string): string {
  return escapeControls(text).replace(/\n/g, '\\u000a');
}

/**
 * `text` with no line that a CI log reads as a workflow command: the first colon of a line that
 * starts (after spaces) with `::` written as `\u003a`. For messages that keep their lines (errors:
 * a config error's problems, a start failure's stderr tail), where an upstream's lines are quoted
 * whole: a child writing `::error::…` or `::add-mask::…` on its stderr before it fails reached
 * the operator's GitHub Actions log as a command.
 */
export function noWorkflowCommands(text: string): string {
  return text.includes('::') ? text.replace(/(^|\n)([^\S\n]*):(?=:)/g, '$1$2\\u003a') : text;
}

/**
 * Text from outside (an upstream's error body) cut to `max` characters (a whole code point kept or
 * dropped) and redacted, its control characters written as `\uXXXX`: it reaches terminals through
 * logs and CLI output, where an upstream's escape sequences could recolour, hide or rewrite what
 * the user reads, and clients through upstream errors.
 */
export function outsideText(text: string, max = 500): string {
  const clean = escapeControls(redact(String(text)));
  if (clean.length <= max) return clean;
  const kept = sliceWhole(clean, max);
  return `${kept}… (${clean.length - kept.length} more characters)`;
}

/** Forgets every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
  ordered = undefined;
}
