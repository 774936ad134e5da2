/**
 * `text` as one flat string. V8 keeps a string made by `+` or a template literal (13 characters
 * or more) as a rope: a 32-byte node per join, holding its pieces. Most are short-lived, but one
 * kept per tool for as long as the gateway runs (a topic's or a placement's reason) costs several
 * times its characters: at 10,000 tools, ropes were 9 MB of the heap. Array join copies its parts
 * into one new string when it has two or more; the text is the same.
 */
export function flatString(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}

/** `parts` joined by `separator`, as one flat string (see flatString). */
export function flatJoin(parts: readonly string[], separator: string): string {
  return parts.length === 1 ? flatString(parts[0] ?? '') : parts.join(separator);
}
