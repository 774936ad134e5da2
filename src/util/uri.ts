/**
 * Percent-decoding that never throws: a URL's password, a query value or a group name's segment
 * may hold a stray `%` (`%E0%A4%A`), which decodeURIComponent refuses.
 */

/** `text` percent-decoded, or `text` itself when it is not valid percent-encoding. */
export function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
