/**
 * Query hygiene: raw task text as an agent or a user pastes it carries URLs, file paths, ids,
 * hashes, email addresses and base64 blobs. Their fragments are not what the task is about and, left in, they
 * outnumber the words that are. Before a query is tokenized, a URL becomes its host's words
 * (and a few plain path words), a path its last name (with its parent's when that names
 * something, and "file" or "folder"), an opaque token nothing; the text read is bounded, so a
 * query's work is too.
 */

import { unicodeWords } from './tokenize.js';
import { trimEnds } from '../util/bounds.js';

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
/** Punctuation trimmed off a token's start (opening) and end (closing): see trimEdges. */
const OPENING = new Set('("\'`<[{');
const CLOSING = new Set(')"\'`>]},.;:!?');

/** `token` without its opening punctuation in front and its closing punctuation behind ("(see", "done).", "'quoted'"), by a scan (trimEnds). */
function trimEdges(token: string): string {
  return trimEnds(token, (char) => OPENING.has(char), (char) => CLOSING.has(char));
}
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
/** An account or contract address of Ethereum-style chains: 0x and 40 hex digits. */
const CHAIN_ADDRESS = /^0x[0-9a-f]{40}$/i;
/** A transaction hash of those chains: 0x and 64 hex digits. */
const CHAIN_HASH = /^0x[0-9a-f]{64}$/i;
/** A name ending in a dot and a suffix: a file ("report.docx") or a host ("amaz0n.com"). */
const DOTTED_NAME = /^[\p{L}\p{N}_-][\p{L}\p{N}_.-]*\.([a-z0-9]{1,10})$/iu;
const HOST_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,10}$/i;
/** Latitude and longitude written as a pair ("31.2304, 121.4737"); quantifiers bounded, so linear. */
const COORDINATES = /(?:^|[\s(])-?\d{1,3}\.\d{2,8}\s{0,3},\s{0,3}-?\d{1,3}\.\d{2,8}(?=$|[\s),.;])/;
/** Phone numbers: international ("+44 20 7946 0018") or North American ("(555) 123-4567", "555-123-4567"). */
const PHONE = /(?:^|\s)(?:\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}|\(\d{3}\)\s?\d{3}-\d{4}|\d{3}-\d{3}-\d{4})(?=$|[\s,.;)])/;

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
    const token = trimEdges(raw);
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

/**
 * Kinds of value a query may carry that say what it is about although their characters are no
 * words: an IP address asks for a tool that locates or looks up IPs, "report.docx" for one that
 * reads Word documents. Which words each stands for is reviewed data (vocabulary/search/values.json).
 */
export const VALUE_KINDS = ['email', 'url', 'host', 'ip', 'coordinates', 'chain-address', 'chain-hash', 'phone'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** The values a query carries: their kinds, and the suffixes of the file names it names. */
interface QueryValues {
  kinds: Set<ValueKind>;
  /** File name suffixes, lowercase, without the dot ("docx"), at most MAX_SUFFIXES. */
  suffixes: Set<string>;
}

/** File name suffixes read from one query at most. */
const MAX_SUFFIXES = 8;

/**
 * What values a query carries (see VALUE_KINDS), read from the text `cleanQuery` reads. A dotted
 * name is a file when `isFileSuffix` knows its suffix, else a host when `isHostSuffix` knows it
 * ("main.go" is neither).
 *
 * @example
 * queryValues('where is 8.8.8.8, and what is in /tmp/a.docx', ...); // kinds: ip; suffixes: docx
 */
export function queryValues(query: string, isFileSuffix: (suffix: string) => boolean, isHostSuffix: (suffix: string) => boolean): QueryValues {
  const text = query.length > MAX_QUERY_READ ? query.slice(0, MAX_QUERY_READ) : query;
  const kinds = new Set<ValueKind>();
  const suffixes = new Set<string>();
  // Every kind has a dot, an @, a colon or a digit: plain prose (most queries) has no value to read.
  if (!/[.@:\d]/.test(text)) return { kinds, suffixes };
  for (const raw of text.split(/\s+/)) {
    const token = trimEdges(raw);
    if (token.length < 4) continue;
    if (EMAIL_ADDRESS.test(token)) kinds.add('email');
    else if (URL_START.test(token)) kinds.add('url');
    else if (IPV4.test(token)) kinds.add('ip');
    else if (CHAIN_ADDRESS.test(token)) kinds.add('chain-address');
    else if (CHAIN_HASH.test(token)) kinds.add('chain-hash');
    else {
      // A path's last name: "/root/docs/exchange.docx" names a .docx file.
      const name = token.slice(Math.max(token.lastIndexOf('/'), token.lastIndexOf('\\')) + 1);
      const suffix = DOTTED_NAME.exec(name)?.[1]?.toLowerCase();
      if (suffix === undefined) continue;
      if (isFileSuffix(suffix)) {
        if (suffixes.size < MAX_SUFFIXES) suffixes.add(suffix);
      } else if (name === token && HOST_NAME.test(token) && isHostSuffix(suffix)) kinds.add('host');
    }
  }
  if (COORDINATES.test(text)) kinds.add('coordinates');
  if (PHONE.test(text)) kinds.add('phone');
  return { kinds, suffixes };
}

/**
 * Quoted text: "…", “…”, ‘…’, or '…' opened after a space, a bracket or a colon (an apostrophe,
 * "nvidia's", opens nothing). Spans are bounded, so the scan is linear.
 */
const QUOTED = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|‘([^’\n]{1,200})’|(?:^|(?<=[\s(:]))'([^'\n]{1,200})'(?=$|[\s).,;:!?])/g;

/**
 * Words a query has only inside quotes, when it has words outside them too: a title, a name or a
 * phrase in quotes ("find the painting 'Corridor in the Asylum'", "mark the 'rotate root keys'
 * task as done") is a value the tool takes, not what the tool does. Undefined when there are none.
 */
export function quotedWords(query: string): ReadonlySet<string> | undefined {
  if (!/["“‘']/.test(query)) return undefined;
  const quoted: string[] = [];
  const rest = query.slice(0, MAX_QUERY_READ).replace(QUOTED, (_match, ...spans: unknown[]) => {
    quoted.push(spans.slice(0, 4).find((span): span is string => typeof span === 'string') ?? '');
    return ' ';
  });
  if (quoted.length === 0) return undefined;
  const outside = new Set(unicodeWords(rest));
  if (outside.size === 0) return undefined;
  const only = new Set(unicodeWords(quoted.join(' ')).filter((word) => !outside.has(word)));
  return only.size === 0 ? undefined : only;
}
