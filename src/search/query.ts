/**
 * Query hygiene: raw task text as an agent or a user pastes it carries URLs, file paths, ids,
 * hashes, email addresses and base64 blobs. Their fragments are not what the task is about and, left in, they
 * outnumber the words that are. Before a query is tokenized, a URL becomes its host's words
 * (and a few plain path words), a path its last name, an opaque token nothing; the text read is
 * bounded, so a query's work is too.
 */

/** Characters of a query read at most (a pasted blob is skipped whole, so this is generous). */
const MAX_QUERY_READ = 65_536;
/** Characters of cleaned query text kept at most: past this, raw task text is data, not a request. */
export const MAX_QUERY_CHARS = 4_096;
/** Distinct query terms kept at most, in order of appearance. */
export const MAX_QUERY_TERMS = 32;
/**
 * Words of a query read at most: repeated words and stopwords do not count towards
 * MAX_QUERY_TERMS, so without this a query of one word repeated (or a long camelCase run that
 * splits into thousands) made the synonym pass scan every word against every phrase, seconds of
 * blocked event loop for one search_tools call.
 */
export const MAX_QUERY_WORDS = 256;
/** Longer words are skipped: no tool's text has them, and stemming one costs in its length. */
export const MAX_WORD_CHARS = 64;

const URL_START = /^(?:[a-z][a-z0-9+.-]{1,15}:\/\/|www\.)/i;
const DOMAIN_PATH = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/\S/i;
/** Host labels that name no site: `www`, common top-level and second-level domains. */
const HOST_NOISE = new Set('www m com org net io dev app ai co uk de fr jp cn ru edu gov info biz me tv us html htm php asp aspx'.split(' '));
/** Directory names that say nothing about the task. */
const PATH_NOISE = new Set('home root users user tmp var usr opt mnt src lib bin etc data documents desktop downloads'.split(' '));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BLOB = /^[A-Za-z0-9+/=_-]{40,}$/;
/** An email address names a person, not what to do: "email tom@acme.io the checklist" is about sending email. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
const EDGE_PUNCTUATION = /^[("'`<[{]+|[)"'`>\]},.;:!?]+$/g;

/**
 * The query text that carries meaning: URLs as host words, paths as their last name, opaque
 * tokens (UUIDs, hashes, long ids, base64, email addresses) dropped, about `MAX_QUERY_CHARS` kept.
 *
 * @example
 * cleanQuery('summarize https://www.youtube.com/watch?v=dQw4w9WgXcQ'); // 'summarize youtube watch'
 */
export function cleanQuery(query: string): string {
  const text = query.length > MAX_QUERY_READ ? query.slice(0, MAX_QUERY_READ) : query;
  // Plain prose (no URL, path or long token) passes unchanged: most queries.
  if (text.length <= MAX_QUERY_CHARS && !/[/\\:@]|\S{20,}/.test(text)) return text;
  const out: string[] = [];
  let kept = 0;
  for (const raw of text.split(/\s+/)) {
    if (kept > MAX_QUERY_CHARS) break;
    const token = raw.replace(EDGE_PUNCTUATION, '');
    if (token.length === 0) continue;
    if (isOpaque(token)) continue;
    const words = URL_START.test(token) || DOMAIN_PATH.test(token) ? urlWords(token) : isPath(token) ? pathWords(token) : [token];
    for (const word of words) kept += word.length + 1;
    out.push(...words);
  }
  return out.join(' ');
}

/** Whether a word (already split from its text) is an id rather than a word: kept out of queries. */
export function isOpaqueWord(word: string): boolean {
  if (word.length < 8) return false;
  if (/^\d+$/.test(word)) return true;
  const digits = word.replace(/\D/g, '').length;
  if (/^[0-9a-f]+$/.test(word) && digits > 0) return true;
  return word.length >= 12 && digits >= 2 && digits < word.length;
}

function isOpaque(token: string): boolean {
  if (UUID.test(token) || EMAIL_ADDRESS.test(token)) return true;
  if (BLOB.test(token) && !/^[a-z]+(?:[-_][a-z]+)*$/i.test(token)) return true;
  if (token.startsWith('data:') && token.length > 40) return true;
  return /^[A-Za-z0-9]+$/.test(token) && token.length >= 12 && isOpaqueWord(token.toLowerCase());
}

/** A URL's host labels that name the site, then up to three plain words of its path. */
function urlWords(url: string): string[] {
  const rest = url.replace(/^[a-z][a-z0-9+.-]{1,15}:\/\//i, '');
  const slash = rest.search(/[/?#]/);
  const host = (slash >= 0 ? rest.slice(0, slash) : rest).replace(/:\d+$/, '').replace(/^[^@]*@/, '');
  const words = host.split('.').filter((label) => label.length > 1 && !HOST_NOISE.has(label.toLowerCase()) && !/^\d+$/.test(label));
  const path = slash >= 0 ? rest.slice(slash) : '';
  const pathWords = path
    .split(/[/?#&=._-]+/)
    .filter((part) => /^[a-z]{3,15}$/i.test(part) && !HOST_NOISE.has(part.toLowerCase()))
    .slice(0, 3);
  return [...words, ...pathWords];
}

function isPath(token: string): boolean {
  if (/^(?:~|\.{1,2})?[/\\]/.test(token) || /^[a-z]:[/\\]/i.test(token)) return true;
  return (token.match(/[/\\]/g)?.length ?? 0) >= 2;
}

/** A path's last meaningful name ("/root/html/ai.html" -> "ai html"), with its parent when that names something. */
function pathWords(path: string): string[] {
  const parts = path.split(/[/\\]+/).filter((part) => part.length > 0 && part !== '.' && part !== '..' && part !== '~' && !/^[a-z]:$/i.test(part));
  const last = parts.at(-1);
  if (last === undefined) return [];
  const parent = parts.at(-2);
  // A path names a file (with an extension) or a folder: say so, the task is about one.
  const names = [last.replace(/[._-]+/g, ' '), /\.[a-z0-9]{1,5}$/i.test(last) ? 'file' : 'folder'];
  if (parent !== undefined && !PATH_NOISE.has(parent.toLowerCase()) && !isOpaque(parent)) names.unshift(parent);
  return names;
}

