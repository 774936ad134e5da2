/** URL checks of the rc contract (schema.ts): which URLs a server or endpoint may have. */

import { replaceBraced } from '../util/braces.js';

/** Shown when a URL carries user:password@: such URLs end up in error messages and logs. */
export const USERINFO_MESSAGE = 'credentials in the URL (user:password@host) would show in errors and logs: use headers instead (e.g. "headers": {"Authorization": "Bearer ${TOKEN}"})';

/** True for an http: or https: URL as the rc writes it, each `${VAR}` read as a word: a `file:` or `javascript:` one was taken, then failed each start with "fetch failed". */
export function httpUrl(url: string): boolean {
  // A whole URL from the environment is checked once it is read (upstream/auth/target.ts, search/embeddings.ts).
  if (/^\$\{[^}]+\}$/.test(url)) return true;
  const shape = replaceBraced(url, /\$\{[^}]*\}/g, () => 'x');
  return URL.canParse(shape) && /^https?:$/.test(new URL(shape).protocol);
}

/** True when an (http) URL carries a user name or password. */
export function hasUserinfo(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}
