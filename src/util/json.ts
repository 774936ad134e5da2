import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ConfigError } from './errors.js';

/**
 * Reads a JSON file (catalogs, locks, client configs) with a ConfigError naming it on failure,
 * so a missing or broken file is a clear exit-2 message, never a stack trace.
 */
export async function readJsonFile(file: string, options: JsonOptions = {}): Promise<unknown> {
  return (await readJsonBytes(file, options)).json;
}

export interface JsonOptions {
  /**
   * Read JSON with comments and trailing commas (JSONC), as VS Code and Cursor write their
   * `mcp.json`: for client configs, never for lazytools' own files.
   */
  comments?: boolean;
}

/**
 * Bytes a JSON file lazytools reads (a lock, a catalog, a client config) may hold: far above any
 * real catalog (10,000 tools lock in tens of MiB), and below what a string can hold (512 MiB).
 */
export const MAX_JSON_FILE_BYTES = 256 * 1024 * 1024;

/**
 * JSON values a file lazytools reads whole may hold, counted before it is parsed
 * (moreJsonValuesThan). Within 256 MiB, 80 million empty objects (`[{},{},...]`) took `status` past
 * 6.8 GB and 12 minutes before it was stopped; a lock of 10,000 generated tools holds about
 * 400,000, the 966 real-world tools 48,000.
 */
export const MAX_JSON_FILE_VALUES = 4_000_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const BRACE = 0x7b;
const BRACKET = 0x5b;

/**
 * True when the JSON text holds more than `max` values, counted without parsing: one, plus each
 * comma, `{` and `[` outside strings (at least the values, at most twice them for empty
 * containers). Linear: a string is skipped to its closing quote at once. What it cannot read (an
 * unclosed string) counts as within: JSON.parse says what is wrong with it.
 */
export function moreJsonValuesThan(text: string, max: number): boolean {
  let count = 1;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      let end = at;
      do {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
      } while (escapedAt(text, end));
      at = end;
    } else if ((code === COMMA || code === BRACE || code === BRACKET) && ++count > max) return true;
  }
  return false;
}

/**
 * moreJsonValuesThan over a byte stream that comes in chunks (a remote server's body or SSE
 * event): `add` each chunk (or part of one), true once past `max`; `reset` for the next message.
 */
export class JsonValueCount {
  private count = 1;
  private inString = false;
  private escaped = false;

  constructor(private readonly max: number) {}

  add(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
    const view = bytes.subarray(from, to);
    const end = view.length;
    // Where the next quote and backslash of a string are, found once each (native scans): a string's
    // text is skipped, not read byte by byte, and a run of escapes scans no further than the quote.
    let quote = -1;
    let slash = -1;
    for (let at = 0; at < end; ) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          at++;
          continue;
        }
        if (quote < at) quote = found(view.indexOf(QUOTE, at), end);
        if (slash < at) slash = found(view.indexOf(BACKSLASH, at), end);
        if (slash < quote) {
          this.escaped = true;
          at = slash + 1;
        } else {
          this.inString = quote === end;
          at = quote + 1;
        }
        continue;
      }
      const byte = view[at++];
      if (byte === QUOTE) this.inString = true;
      else if ((byte === COMMA || byte === BRACE || byte === BRACKET) && ++this.count > this.max) return true;
    }
    return false;
  }

  reset(): void {
    this.count = 1;
    this.inString = false;
    this.escaped = false;
  }
}

/** An indexOf's answer, or `end` for none. */
function found(at: number, end: number): number {
  return at < 0 ? end : at;
}

/** True when the character at `at` follows an odd run of backslashes (escaped). */
function escapedAt(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
  return slashes % 2 === 1;
}

/** What a file lazytools reads whole must be: at most `max` bytes, and what it is called in a refusal. */
export interface FileBound {
  max: number;
  kind: string;
}

const JSON_FILE: FileBound = { max: MAX_JSON_FILE_BYTES, kind: 'a lazytools JSON file' };

const tooLarge = (bound: FileBound) => `over ${bound.max / 1024 / 1024} MiB: too large to be ${bound.kind}`;

/**
 * Why a file of these facts (fs.Stats) is not read whole (not a regular file, or too large), or
 * undefined: by default as a JSON file; `bound` for other files (an rc).
 */
export function jsonFileRefusal(info: { isFile(): boolean; size: number }, bound: FileBound = JSON_FILE): string | undefined {
  if (!info.isFile()) return `not a regular file (a device, FIFO, socket or folder): expected ${bound === JSON_FILE ? 'a JSON file' : bound.kind}`;
  return info.size > bound.max ? tooLarge(bound) : undefined;
}

/**
 * A file's bytes; a ConfigError naming the file when it cannot be read. Only a regular file of at
 * most MAX_JSON_FILE_BYTES is read: a lock committed as a link to `/dev/zero` (git keeps links)
 * would grow the process without end, and a FIFO would never answer (opened non-blocking, it is
 * refused at once).
 */
export async function readBytes(file: string): Promise<Buffer> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const refused = jsonFileRefusal(await handle.stat());
    if (refused) throw new ConfigError(refused, file);
    const bytes = await handle.readFile();
    // It may have grown since the stat.
    if (bytes.length > MAX_JSON_FILE_BYTES) throw new ConfigError(tooLarge(JSON_FILE), file);
    return bytes;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? 'file not found' : `could not read file (${code ?? String(error)})`, file);
  } finally {
    await handle?.close();
  }
}

/**
 * readJsonFile, with the file's bytes too (what a lock's stamp is keyed by, see lock-stamp.ts);
 * `read` is the file's content when the caller already read it (one read: what was hashed is what is parsed).
 */
export async function readJsonBytes(file: string, options: JsonOptions = {}, read?: Buffer): Promise<{ json: unknown; bytes: Buffer }> {
  const bytes = read ?? (await readBytes(file));
  const text = options.comments ? blankJsonc(bytes.toString('utf8')) : bytes.toString('utf8');
  if (text.length > MAX_JSON_FILE_VALUES && moreJsonValuesThan(text, MAX_JSON_FILE_VALUES))
    throw new ConfigError(`holds more than ${MAX_JSON_FILE_VALUES.toLocaleString('en-US')} JSON values: too many to be a lazytools JSON file (a lock of 10,000 tools holds about 400,000)`, file);
  try {
    return { json: JSON.parse(text) as unknown, bytes };
  } catch (error) {
    // V8 quotes up to 10 characters either side of the fault ('Unexpected token 'S', "SECRET_TOK"... is
    // not valid JSON'): a lock that is a link to another file (/proc/self/environ, a token file)
    // would print them. The fault's position is said without its neighbours.
    const message = (error as Error).message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ' (not valid JSON)');
    throw new ConfigError(`invalid JSON: ${message}${whereInJson(text, message)}`, file);
  }
}

/**
 * ` (line L, column C)` for a JSON.parse error that gives only a position (Node 20), and what
 * hand-edited client configs most often hold there: a trailing comma or a comment.
 */
function whereInJson(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  if (!at || /\bline\b/.test(message)) return '';
  const position = Number(at[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  const next = text.slice(position, position + 2);
  const hint = /,\s*$/.test(before) ? ': a trailing comma, which JSON does not allow' : next === '//' || next === '/*' ? ': a comment, which JSON does not allow' : '';
  return ` (line ${line}, column ${column}${hint})`;
}

/** A JSON object (not null, not an array): what untrusted payloads are checked against before use. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSONC as JSON: comments and trailing commas become spaces (newlines kept), so positions in a
 * parse error still point into the file as written. Works on UTF-16 positions throughout (an
 * emoji before a comment once shifted every blank after it) and copies the text in slices: a
 * client config of 100 MB once took a character array of its length, and the heap with it.
 */
export function blankJsonc(text: string): string {
  // [start, end) ranges to blank, found in order; a trailing comma is found after the comments behind it.
  const ranges: Array<[number, number]> = [];
  let comma = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      comma = -1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      ranges.push([i, end === -1 ? text.length : end]);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      ranges.push([i, end === -1 ? text.length : end + 2]);
      i = end === -1 ? text.length : end + 1;
    } else if (c === ',') comma = i;
    else if ((c === '}' || c === ']') && comma !== -1) {
      ranges.push([comma, comma + 1]);
      comma = -1;
    } else if (c !== undefined && c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') comma = -1;
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let from = 0;
  for (const [start, end] of ranges) {
    parts.push(text.slice(from, start), text.slice(start, end).replace(/[^\r\n]/g, ' '));
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
