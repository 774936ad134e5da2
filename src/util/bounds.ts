/**
 * Bounds on values from outside (upstream answers, lock and catalog files). JSON.parse takes any
 * depth, but JSON.stringify, schema compilers and recursive walks overflow the stack on deep
 * nesting (a tool schema 20,000 levels deep made tools/list fail for every server), so deep or
 * huge values are refused where they come in, by one iterative walk.
 */

/** Deepest nesting of objects and arrays taken from outside (real tool schemas stay under 25). */
export const MAX_VALUE_DEPTH = 64;
/** Most objects, arrays and scalars in one taken value (real tool definitions stay under 2,000). */
export const MAX_VALUE_NODES = 50_000;

/**
 * Why `value` is too deep or too large to take, or undefined when it is within the bounds. The
 * walk is iterative and stops at the first bound crossed, so its own cost is bounded too.
 */
export function valueTooBig(value: unknown, maxDepth = MAX_VALUE_DEPTH, maxNodes = MAX_VALUE_NODES): string | undefined {
  const measured = measure(value, maxDepth, maxNodes, Number.POSITIVE_INFINITY);
  return typeof measured === 'string' ? measured : undefined;
}

/**
 * Most bytes one upstream definition (a tool, prompt, resource or template) takes as JSON. Every
 * answer that carries it (a tools/list page, describe_tools, search_tools with schemas) is at
 * least its size, and an SDK stdio client closes its connection on a message over 10 MiB: one
 * 12 MB title took every server's tools from such a client. Real definitions stay under 80 KB.
 */
export const MAX_DEFINITION_BYTES = 1024 * 1024;

/**
 * Why an upstream definition is too deep, too large or too long to take (valueTooBig, then its
 * JSON over MAX_DEFINITION_BYTES), or undefined. Its text is counted in the same walk; only a
 * definition whose count comes near the bound is serialized to measure it exactly.
 */
export function definitionTooBig(value: unknown): string | undefined {
  // A character takes at least one byte, so this many characters are over the bound already.
  const measured = measure(value, MAX_VALUE_DEPTH, MAX_VALUE_NODES, MAX_DEFINITION_BYTES);
  if (measured === 'chars') return `over ${MAX_DEFINITION_BYTES} bytes of JSON (at most ${MAX_DEFINITION_BYTES})`;
  if (typeof measured === 'string') return measured;
  // A character takes at most 6 bytes (`\u0001`), a value at most 32 besides its text (a number, quotes, `:` and `,`).
  if (measured.chars * 6 + measured.nodes * 32 <= MAX_DEFINITION_BYTES) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify(value));
  return bytes > MAX_DEFINITION_BYTES ? `${bytes} bytes of JSON (at most ${MAX_DEFINITION_BYTES})` : undefined;
}

/**
 * True when `value` takes more than `maxBytes` as JSON (or nests past MAX_MESSAGE_DEPTH). Counted
 * in one walk that stops at the bound; only a value whose count comes near it is serialized.
 */
export function jsonOver(value: unknown, maxBytes: number): boolean {
  // Every value takes at least a byte, and so does every character.
  const measured = measure(value, MAX_MESSAGE_DEPTH, maxBytes, maxBytes);
  if (typeof measured === 'string') return true;
  if (measured.chars * 6 + measured.nodes * 32 <= maxBytes) return false;
  return Buffer.byteLength(JSON.stringify(value) ?? '') > maxBytes;
}

/**
 * At least how many bytes `value` takes as JSON: its characters and values, counted in one walk
 * that stops past `max` (then max + 1). Cheap enough per tool to keep a running total of a list.
 */
export function jsonAtLeast(value: unknown, max: number): number {
  // Any depth: a definition nested too deep is left out by its own bound (definitionTooBig), not counted as huge.
  const measured = measure(value, Number.POSITIVE_INFINITY, max, max);
  return typeof measured === 'string' ? max + 1 : Math.min(max + 1, measured.nodes + measured.chars);
}

/**
 * The one walk behind valueTooBig and definitionTooBig: the nodes and the characters (strings and
 * keys) of `value`, or why it crosses a bound (`chars` for maxChars). Characters are counted only
 * when maxChars is finite, scalars stacked only when maxNodes is.
 */
function measure(value: unknown, maxDepth: number, maxNodes: number, maxChars: number): { nodes: number; chars: number } | string {
  // Read on every message too (nestedDeeperThan): two stacks and plain loops, no pair or array
  // of children made per value; with no bound on their number, scalars are not even stacked.
  const items: unknown[] = [value];
  const depths: number[] = [1];
  const counted = Number.isFinite(maxNodes);
  const texts = Number.isFinite(maxChars);
  const push = (child: unknown, depth: number) => {
    if (!counted && (child === null || typeof child !== 'object')) return;
    items.push(child);
    depths.push(depth);
  };
  let nodes = 0;
  let chars = 0;
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop() as number;
    if (++nodes > maxNodes) return `more than ${maxNodes} values`;
    if (item === null || typeof item !== 'object') {
      if (texts && typeof item === 'string' && (chars += item.length) > maxChars) return 'chars';
      continue;
    }
    if (depth > maxDepth) return `nested more than ${maxDepth} levels deep`;
    if (Array.isArray(item)) for (let i = 0; i < item.length; i++) push(item[i], depth + 1);
    else
      for (const key in item)
        if (Object.hasOwn(item, key)) {
          push((item as Record<string, unknown>)[key], depth + 1);
          if (texts && (chars += key.length) > maxChars) return 'chars';
        }
  }
  return { nodes, chars };
}

/**
 * Deepest nesting of one whole JSON-RPC message taken from a client or an upstream. JSON.parse
 * takes any depth, but a message re-serialized on its way on (JSON.stringify, redaction) overflowed
 * the stack from about 5,000 levels: a 10 KB client line, or an upstream's result or log line,
 * ended the gateway. Real messages stay under 40 levels (tool definitions are bounded at 64).
 */
export const MAX_MESSAGE_DEPTH = 512;

/** True when `value` nests objects and arrays deeper than `max` levels (valueTooBig's walk, with no bound on its size). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  return valueTooBig(value, max, Number.POSITIVE_INFINITY) !== undefined;
}

/** A size in bytes as messages say it: "4.0 MiB". */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `text` in at most `max` characters: cut with an ellipsis when longer (a line a model or a person reads, not a value); a whole code point is kept or dropped. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, wholeEnd(text, max - 1))}…`;
}

/** `text` cut to `max` characters with a note saying so (a whole code point is kept or dropped). */
export function capText(text: string, max: number, what: string): string {
  return text.length <= max ? text : `${text.slice(0, wholeEnd(text, max))}… [${what} cut by lazytools at ${max} characters]`;
}

/** `text` cut to at most `max` characters with nothing added, a whole code point kept or dropped: text sent on (an embeddings input), not read by a person. */
export function sliceWhole(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, wholeEnd(text, max));
}

/** The last `max` characters of `text` (all of it when shorter), a whole code point kept or dropped at the start: the tail of a log. */
export function tailWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.length - max;
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}

/** `end`, or one less when a cut there would keep the first half of a surrogate pair: half an emoji is no character (JSON carries it as \ud83d, a terminal shows garbage). */
function wholeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * Longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). setTimeout runs a longer one
 * after 1 ms with only a process warning, so an rc `startTimeout: 3000000000` failed every start
 * at once ("no answer within the start timeout (3000000000 ms)"): every timeout lazytools takes
 * from an rc or a flag stays at most this.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `text` without the characters at its start that `dropStart` accepts and those at its end that
 * `dropEnd` accepts, found by a scan: a regular expression such as `/[…]+$/` tries the run from
 * each of its characters, quadratic in a long run (a query word or rc value of marks held the
 * event loop for seconds to minutes).
 */
export function trimEnds(text: string, dropStart: (char: string) => boolean, dropEnd: (char: string) => boolean): string {
  let start = 0;
  while (start < text.length && dropStart(text[start] as string)) start++;
  let end = text.length;
  while (end > start && dropEnd(text[end - 1] as string)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
