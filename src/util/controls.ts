/**
 * Control characters in text that reaches a model or a terminal: one home for the set and for
 * blanking it, so a catalog summary and an rc's own text are held to the same rule.
 */

/**
 * C0 and C1 controls, DEL, line separators and bidirectional overrides: never in a tool name
 * (catalog/admit.ts), a summary or the rc's free text. Printed they are terminal escapes (an
 * upstream's description cleared the screen and wrote the clipboard through `lazytools search`),
 * and a model's client renders what the model reads.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with each of CONTROL_CHARACTERS (newlines and tabs too) made a space: for text read as
 * one line (a summary, a description, an alias), where an escape would act and a line break would
 * start a line of its author's choosing. Same length, so a bound checked before still holds.
 */
export function blankControls(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ');
}
