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
  // Read on every message too (nestedDeeperThan): two stacks and plain loops, no pair or array
  // of children made per value; with no bound on their number, scalars are not even stacked.
  const items: unknown[] = [value];
  const depths: number[] = [1];
  const counted = Number.isFinite(maxNodes);
  const push = (child: unknown, depth: number) => {
    if (!counted && (child === null || typeof child !== 'object')) return;
    items.push(child);
    depths.push(depth);
  };
  let nodes = 0;
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop() as number;
    if (++nodes > maxNodes) return `more than ${maxNodes} values`;
    if (item === null || typeof item !== 'object') continue;
    if (depth > maxDepth) return `nested more than ${maxDepth} levels deep`;
    if (Array.isArray(item)) for (let i = 0; i < item.length; i++) push(item[i], depth + 1);
    else for (const key in item) if (Object.hasOwn(item, key)) push((item as Record<string, unknown>)[key], depth + 1);
  }
  return undefined;
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

/** `text` in at most `max` characters: cut with an ellipsis when longer (a line a model or a person reads, not a value); a whole code point is kept or dropped. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, wholeEnd(text, max - 1))}…`;
}

/** `text` cut to `max` characters with a note saying so (a whole code point is kept or dropped). */
export function capText(text: string, max: number, what: string): string {
  return text.length <= max ? text : `${text.slice(0, wholeEnd(text, max))}… [${what} cut by lazytools at ${max} characters]`;
}

/** `end`, or one less when a cut there would keep the first half of a surrogate pair: half an emoji is no character (JSON carries it as \ud83d, a terminal shows garbage). */
function wholeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}
