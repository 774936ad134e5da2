/**
 * What `lazytools init` treats as a secret when it imports a client's config. One home for the
 * heuristic, so env values, headers, arguments and warnings agree: a value is a secret when its
 * key says so (`*_TOKEN`, `*_KEY`, `*SECRET*`, `PASSWORD`, ...), when it carries credentials (a
 * URL with `user:password@` or a credential query parameter, a known token prefix), or when it is
 * a long high-entropy string. Package names (`@modelcontextprotocol/server-memory`), paths, plain
 * URLs, flags and log levels are not: they stay in the rc, where the user can read them.
 */

import { createHash } from 'node:crypto';
import { clipText, trimEnds } from '../util/bounds.js';
import { echoName } from '../util/errors.js';
import { oneLine } from '../util/redact.js';

/** Key names (env variables, flags, headers) whose value is a credential. */
const SECRET_KEY = /(?:^|[_-])(?:token|secret|password|passwd|pwd|pass|pat|auth|authorization|credentials?|cookie|session|key|apikey|private)(?:[_-]|$)|token|secret|password|api[_-]?key|access[_-]?key|private[_-]?key|credential|cookie|bearer/i;
/** Key names that end in `key` but name no credential (a sort key, a key file's path is checked by value). */
const HARMLESS_KEY = /(?:^|[_-])(?:sort|primary|partition|group|cache|index|hot|shortcut|keyboard|public)[_-]?key$|(?:^|[_-])(?:key|token)[_-]?(?:file|path|dir|name)$/i;
/** Query parameters that carry credentials. */
const SECRET_PARAM = /token|secret|password|passwd|api[_-]?key|apikey|auth|credential|signature|^sig$|^key$|session/i;
/** Prefixes of well-known credentials (OpenAI, GitHub, Slack, AWS, GitLab, Google, Stripe, ...). */
const TOKEN_PREFIX = /^(?:sk-|sk_live_|rk_live_|pk_live_|ghp_|gho_|ghs_|ghu_|ghr_|github_pat_|xox[abprs]-|AKIA|ASIA|glpat-|AIza|ya29\.|npm_|hf_|eyJ[A-Za-z0-9_-]{8,}\.)/;

/** Whether a flag, env or header name says its value is a credential (`GITHUB_TOKEN`, `--api-key`). */
export function isSecretKey(key: string): boolean {
  const name = key.replace(/^-+/, '');
  return SECRET_KEY.test(name) && !HARMLESS_KEY.test(name);
}

/** Whether a URL query parameter carries credentials (`?apiKey=`, `&access_token=`). */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/**
 * Whether a value looks like a credential wherever it appears: a known token prefix, a URL with a
 * password or a credential query value, or a long random-looking run of characters. Paths, package
 * names and URLs without credentials are not.
 */
export function looksSecret(value: string): boolean {
  const text = value.trim();
  if (text === '' || text.startsWith('${')) return false;
  if (TOKEN_PREFIX.test(text)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return urlHasCredentials(text);
  return text.split(/[\s,;]+/).some(randomLooking);
}

/**
 * Whether a name or key (an rc server, group or mode name, a key of the rc) is a credential pasted
 * there, the one rule every place that prints one goes by (shownName, quotedName, withoutSecretName):
 * looksSecret, except that a known token prefix counts only before a token-shaped rest (eight
 * characters or more, not words and numbers joined by `-`, `_` or `.`). `hf_hub`, `sk-learn` or
 * `npm_tools` are names (as values they stay secrets: looksSecret); `hf_` and 34 random
 * characters is a token.
 */
export function secretName(name: string): boolean {
  const text = name.trim();
  const prefix = TOKEN_PREFIX.exec(text);
  if (!prefix || prefix[0].startsWith('eyJ')) return looksSecret(name);
  const rest = text.slice(prefix[0].length).replace(/^[-_.]+/, '');
  if (rest.length >= 8 && /^[A-Za-z0-9_.=+/-]+$/.test(rest) && !wordsAndNumbers(rest)) return true;
  return text.split(/[\s,;]+/).some(randomLooking);
}

/** Characters of one name or key a config error shows. */
const SHOWN_NAME = 80;

/**
 * A key or name as a config error shows it: cut to SHOWN_NAME characters, and never one that
 * looks like a credential (a token pasted where a key or a group name goes): config errors reach
 * terminals and CI logs, so such a name is described, not quoted. It stays on one line (oneLine):
 * a newline in it would start a line of the rc author's choosing in the error.
 */
export function shownName(name: string, what: 'name' | 'key' = 'name'): string {
  return secretName(name) ? hiddenName(name, what) : oneLine(pathKey(name));
}

/** `server:name` as a warning shows one server's tool or prompt: the server as shownName says it, the name cut to one line (echoName). */
export function shownEntry(server: string, name: string): string {
  return `${shownName(server)}:${echoName(name)}`;
}

/**
 * A key as a config error's key path shows it: shownName without the escapes, as the path is
 * printed by zod, which writes a key with a line break as a JSON string (escaped once, not twice).
 */
export function pathKey(key: string): string {
  if (secretName(key)) return hiddenName(key, 'key');
  return clipText(key, SHOWN_NAME + 1);
}

/**
 * A name where outputs must tell names apart (a /metrics label: two servers under one label had
 * their series merged): shownName, and for a name that looks like a secret, `#` and the first 8
 * hex digits of its sha256 after the description, the same on every scrape and restart. Two
 * tokens of one length are described alike; 32 bits of a digest give neither back.
 */
export function distinctShownName(name: string): string {
  return secretName(name) ? `${hiddenName(name, 'name')} #${createHash('sha256').update(name).digest('hex').slice(0, 8)}` : shownName(name);
}

/** What an error says in place of a name that looks like a secret: its length, never its text. */
function hiddenName(name: string, what: 'name' | 'key'): string {
  return `<a ${name.length}-character ${what} that looks like a secret, not shown>`;
}

/**
 * `text` with every occurrence of `name` written as shownName shows it, when the name looks like
 * a secret (a token pasted as an rc server's name): for messages that quote a name beside other
 * text (an upstream's start or call errors), which reach terminals, CI logs and the model.
 */
export function withoutSecretName(text: string, name: string): string {
  return name !== '' && secretName(name) ? text.split(name).join(hiddenName(name, 'name')) : text;
}

/** A name in double quotes as a config error quotes it (shownName; a secret-looking one unquoted, described). */
export function quotedName(name: string): string {
  return secretName(name) ? shownName(name) : `"${shownName(name)}"`;
}

/**
 * `text` (a parser's message and the lines of the file around the fault) with every word that
 * looks like a credential (looksSecret), and every value of a key that names one (isSecretKey:
 * `"GITHUB_TOKEN": "…"`, `password: …`), replaced by `<secret not shown>`: a secret pasted into a
 * broken rc must not reach the terminal or a CI log with the error.
 */
export function withoutSecrets(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      cutWords(line)
        .replace(/(["']?)([\w.-]+)\1(\s*[:=]\s*)(["']?)([^"'\s,}\]]*)/g, (whole, quote: string, key: string, sep: string, open: string, value: string) =>
          value !== '' && isSecretKey(key) ? `${quote}${key}${quote}${sep}${open}<secret not shown>` : whole,
        )
        .replace(/[^\s"'`,{}[\]()]+/g, (word) => (looksSecret(word) ? '<secret not shown>' : word)),
    )
    .join('\n');
}

/**
 * A frame line (`  4 | …`) with the words its parser cut at either end (`... ser:hunter2@db`,
 * `postgres://u:pw1234 ...`: YAML frames cut long lines around the fault) shown as `<cut>`: a
 * part of a word cannot be judged (a URL without its scheme, or its `@`, or a key under 24
 * characters does not look like one), and the rest of the line is judged as usual.
 */
function cutWords(line: string): string {
  if (!/^[ \t>]*\d+ \|/.test(line)) return line;
  return line.replace(/(\| +\.\.\. )[^\s"'`,{}[\]()]+/, '$1<cut>').replace(/[^\s"'`,{}[\]()|]+( \.\.\.)$/, '<cut>$1');
}

/** `scheme://user:password@` or a credential query parameter with a value. */
export function urlHasCredentials(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:[^@/\s]+@/i.test(url)) return true;
  // A name stops at the next `?` too: `[^=&#]+` ran from each `?` of a run of them to its end (quadratic).
  for (const match of url.matchAll(/[?&]([^=&#?]+)=([^&#]+)/g)) if (isSecretParam(match[1] as string) && !(match[2] as string).startsWith('${')) return true;
  return false;
}

/**
 * A run of 24+ token characters mixing letters and digits with high entropy: API keys, base64
 * blobs, hex digests. A path or package name (`/`-separated words) is not one, even when long.
 */
function randomLooking(word: string): boolean {
  const token = trimToToken(word);
  if (token.length < 24 || !/^[A-Za-z0-9+/=_.-]+$/.test(token)) return false;
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  // Path or package segments: each a word of letters with at most a version number.
  if (token.includes('/') && token.split('/').every((segment) => segment.length < 24 || /^[a-z]+(?:[-_.][a-z0-9]+)*$/i.test(segment))) return false;
  if (wordsAndNumbers(token)) return false;
  // A path (absolute, home or relative) ending in a program or file name: a store hash or an
  // installed folder in its middle (`/nix/store/<hash>-nodejs-20/bin/node`) is no credential.
  if (/^(?:[/~.]|[A-Za-z]:\/)/.test(word) && token.includes('/') && wordsAndNumbers(token.slice(token.lastIndexOf('/') + 1))) return false;
  return entropy(token) >= 3.5;
}

/**
 * `word` without the punctuation around it: none but letters and digits in front, and none but
 * those and `=` (base64 padding) behind, by a scan (trimEnds: an rc value of 300,000 marks
 * between two letters took about a minute with `/[^A-Za-z0-9=]+$/`).
 */
function trimToToken(word: string): string {
  return trimEnds(word, (char) => !/[A-Za-z0-9]/.test(char), (char) => !/[A-Za-z0-9=]/.test(char));
}

/** Words and numbers joined by `-`, `_`, `.` or `/` (`server-memory-2024-11-05`): a name, not a token. */
function wordsAndNumbers(text: string): boolean {
  return text.split(/[-_./]/).every((part) => /^(?:[A-Za-z]{1,16}|[0-9]{1,8})$/.test(part));
}

/** Shannon entropy in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
