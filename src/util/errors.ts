import { closestNames, suggestionText } from './closest.js';

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
    super(`Unknown ${kind} "${input}".${suggestionText(suggestions)} Valid ${kind}s: ${valid.join(', ')}.`);
    this.suggestions = suggestions;
  }
}
