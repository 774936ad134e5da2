/**
 * Checks on rc values that reach the OS or the wire as they are. Node refuses a NUL in a
 * command, argument, working folder or env entry, and fetch refuses a header name that is no
 * HTTP token or a value with a line break, a NUL or a character past Latin-1; both errors quote
 * the whole value, so a token beside a stray character reached `serve`'s log and `lock`'s output.
 * Refused at load instead, as config errors with the key path, never the value.
 */

/** What a config error says of a command, argument, folder or env entry with a NUL. */
export const NUL_MESSAGE = 'expected no NUL character (\\u0000): the system cannot pass one (the value is not shown)';

/** What a config error says of a header name fetch cannot send. */
export const HEADER_NAME_MESSAGE = "expected an HTTP header name: letters, digits and !#$%&'*+-.^_`|~, no spaces";

/** What a config error says of a header value fetch cannot send. */
export const HEADER_VALUE_MESSAGE = 'expected a header value without line breaks or NUL, of Latin-1 characters only (the value is not shown)';

/** Whether `text` holds no NUL (a command, argument, folder or env entry the system can pass). */
export function withoutNul(text: string): boolean {
  return !text.includes('\0');
}

/** Whether `name` is an HTTP header name (RFC 9110 token). */
export function headerName(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}

/** Whether fetch can send `value` as a header value (no CR, LF or NUL; each character one byte). */
export function headerValue(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- the characters fetch refuses are exactly what is looked for
  return !/[\0\r\n]|[^\u0000-\u00ff]/.test(value);
}
