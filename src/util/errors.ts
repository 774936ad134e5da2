import { closestNames, suggestionText } from './closest.js';
import { capText } from './bounds.js';
import { oneLine } from './redact.js';

/** Characters of a client-given name an error message repeats (a name can be a megabyte long). */
export const NAME_ECHO_MAX = 200;

/** Valid names an UnknownNameError lists; the rest are counted (an rc can define thousands of groups). */
const VALID_LISTED = 40;

/** A name a caller gave, as messages repeat it: cut to NAME_ECHO_MAX characters, on one line (oneLine). */
export function echoName(input: string): string {
  return oneLine(capText(input, NAME_ECHO_MAX, 'name'));
}

/**
 * A problem with the rc file or the command line. The CLI prints `message` (never a stack trace)
 * and exits 2. `file` names the config file; the message already carries key paths.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(file ? `${file}: ${message}` : message);
  }
}

/**
 * A mode, group or tool name that does not exist. `suggestions` holds the closest valid names so
 * callers (CLI, focus_mode, meta-tools) can answer "did you mean".
 */
export class UnknownNameError extends Error {
  override readonly name = 'UnknownNameError';
  readonly suggestions: string[];
  constructor(
    readonly kind: 'mode' | 'group' | 'tool' | 'server',
    readonly input: string,
    readonly valid: readonly string[],
  ) {
    const suggestions = closestNames(input, valid);
    const listed = valid.length > VALID_LISTED ? `${valid.slice(0, VALID_LISTED).join(', ')} and ${valid.length - VALID_LISTED} more` : valid.join(', ');
    super(`Unknown ${kind} "${echoName(input)}".${suggestionText(suggestions)} Valid ${kind}s: ${listed}.`);
    this.suggestions = suggestions;
  }
}
