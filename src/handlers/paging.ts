import { createHash } from 'node:crypto';
import { invalidCursor } from '../protocol/errors.js';

/**
 * Bounds of one page of a list lazytools serves. The MCP TypeScript SDK's stdio client refuses any
 * message over 10 MiB and closes the connection, so a 10,000-tool `tools/list` in one answer
 * (about 12 MB) breaks it. A page holds at most 1,000 items and at most 1 MiB of serialized
 * items, whichever comes first; a single item larger than the byte bound still gets a page of
 * its own (it is the upstream's definition, listed whole, and at most MAX_DEFINITION_BYTES: util/bounds).
 */
export const PAGE_MAX_ITEMS = 1_000;
export const PAGE_MAX_BYTES = 1024 * 1024;

/** One page of a list: its items, and the cursor of the next page when more follow. */
export interface Page<T> {
  items: T[];
  /** Present when more items follow: pass it back as `cursor` to get them. */
  nextCursor?: string;
}

/** Serialized sizes, computed once per (immutable) item object. */
const sizes = new WeakMap<object, number>();

/** Bytes of an item's JSON (UTF-8), cached per object: catalog definitions live as long as the catalog. */
export function jsonBytes(item: object): number {
  let size = sizes.get(item);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(item));
    sizes.set(item, size);
  }
  return size;
}

/**
 * One page of `items` after `cursor`. Pages are stable for a given list: the cursor carries a
 * digest of the list's keys and an offset, so a cursor from before the list changed is refused
 * with the spec's invalid-params error (protocol/errors invalidCursor) rather than answered with a
 * shifted, wrong page. The order is the caller's, which must be deterministic. `sized` gives
 * what is sent for an item (its bytes bound the page); it is called only up to the page's end.
 */
export function paginate<T extends object>(items: readonly T[], cursor: string | undefined, keyOf: (item: T) => string, sized: (item: T) => object = (item) => item): Page<T> {
  // The list's digest, worked out once per page (a cursor's check and the next cursor both need it).
  let listDigest: string | undefined;
  const digestOnce = () => (listDigest ??= digest(items, keyOf));
  const start = cursor === undefined ? 0 : offsetOf(cursor, items.length, digestOnce);
  if (start === 0 && items.length <= PAGE_MAX_ITEMS && fitsOnePage(items, sized)) return { items: items as T[] };
  let end = start;
  let bytes = 0;
  while (end < items.length && end - start < PAGE_MAX_ITEMS) {
    const size = jsonBytes(sized(items[end] as T));
    if (end > start && bytes + size > PAGE_MAX_BYTES) break;
    bytes += size;
    end++;
  }
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = encode(digestOnce(), end);
  return page;
}

function fitsOnePage<T extends object>(items: readonly T[], sized: (item: T) => object): boolean {
  let bytes = 0;
  for (const item of items) {
    bytes += jsonBytes(sized(item));
    if (bytes > PAGE_MAX_BYTES) return false;
  }
  return true;
}

function offsetOf(cursor: string, length: number, listDigest: () => string): number {
  const match = /^([A-Za-z0-9_-]{16})\.(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidCursor('not a cursor this server handed out');
  const offset = Number(match[2]);
  if (match[1] !== listDigest() || offset <= 0 || offset >= length) throw invalidCursor('the list changed since this cursor was handed out');
  return offset;
}

function encode(listDigest: string, offset: number): string {
  return Buffer.from(`${listDigest}.${offset}`).toString('base64url');
}

/** A short digest of the list's keys in order: equal lists page alike, any change voids old cursors. */
function digest<T>(items: readonly T[], keyOf: (item: T) => string): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(keyOf(item)).update('\n');
  return hash.digest('base64url').slice(0, 16);
}

/**
 * A list result page under `key` (`tools`, `prompts`, `resources`, ...), with `nextCursor` when
 * more follow; an invalid cursor is the spec's invalid-params error. `sent` maps an item to
 * what the answer carries, for the page's items only: a 10,000-tool list makes the listed
 * (compacted) definitions of one page, not of every tool, before its first answer.
 */
export function listPage<T extends object>(items: readonly T[], cursor: string | undefined, keyOf: (item: T) => string, key: string, sent: (item: T) => object = (item) => item): Record<string, unknown> {
  const page = paginate(items, cursor, keyOf, sent);
  const sentItems = page.items.map(sent);
  return page.nextCursor === undefined ? { [key]: sentItems } : { [key]: sentItems, nextCursor: page.nextCursor };
}

/**
 * The longest prefix of `items` whose JSON fits in `maxBytes` (at least one item), and how many
 * were left out: meta-tool answers (`search_tools` with schemas, `describe_tools` of many tools)
 * and a group's resource stay under the page bound instead of growing with the catalog. `sized`
 * gives what is sent for an item (as in paginate); it is called only up to the cut.
 */
export function fitting<T extends object>(items: readonly T[], maxBytes = PAGE_MAX_BYTES, sized: (item: T) => object = (item) => item): { kept: T[]; omitted: number } {
  let bytes = 0;
  let end = 0;
  while (end < items.length) {
    const size = jsonBytes(sized(items[end] as T)) + 1;
    if (end > 0 && bytes + size > maxBytes) break;
    bytes += size;
    end++;
  }
  return { kept: items.slice(0, end), omitted: items.length - end };
}

/** Lines joined with newlines, cut before the text passes `maxBytes`; `more` words what was left out. */
export function fitLines(lines: readonly string[], more: (omitted: number) => string, maxBytes = PAGE_MAX_BYTES): string {
  let bytes = 0;
  let end = 0;
  while (end < lines.length) {
    const size = Buffer.byteLength(lines[end] as string) + 1;
    if (end > 0 && bytes + size > maxBytes) break;
    bytes += size;
    end++;
  }
  const kept = lines.slice(0, end).join('\n');
  return end < lines.length ? `${kept}\n${more(lines.length - end)}` : kept;
}
