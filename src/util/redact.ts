/**
 * Secrets read from the environment (`${VAR}` in the rc) must never be shown: not in logs, errors,
 * `lock` output or the text a model reads. Interpolation registers each value it substitutes, and
 * every place that prints text passes it through `redact`, which writes `${VAR}` back. Process-wide
 * on purpose: an upstream's error message may quote a value anywhere (a URL, a command path, an
 * echoed query key), and the places that print are many.
 */

/** Shorter values are not redacted: they would blank out ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;

/** value -> `${VAR}`; kept sorted longest first when read, so overlapping values redact whole. */
const secrets = new Map<string, string>();
let ordered: Array<[string, string]> | undefined;

/** Remembers that `value` came from environment variable `name` (also its URL-encoded form). */
export function registerSecret(value: string, name: string): void {
  if (value.length < MIN_SECRET_LENGTH) return;
  const placeholder = `\${${name}}`;
  for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
    if (form.length >= MIN_SECRET_LENGTH && !secrets.has(form)) {
      secrets.set(form, placeholder);
      ordered = undefined;
    }
  }
}

/** `text` with every registered secret replaced by its `${VAR}`. */
export function redact(text: string): string {
  if (secrets.size === 0 || text.length === 0) return text;
  ordered ??= [...secrets].sort(([a], [b]) => b.length - a.length);
  let out = text;
  for (const [value, placeholder] of ordered) if (out.includes(value)) out = out.split(value).join(placeholder);
  return out;
}

/** Text from outside (an upstream's error body) cut to `max` characters and redacted. */
export function outsideText(text: string, max = 500): string {
  const clean = redact(String(text));
  return clean.length > max ? `${clean.slice(0, max)}… (${clean.length - max} more characters)` : clean;
}

/** Forgets every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
  ordered = undefined;
}
