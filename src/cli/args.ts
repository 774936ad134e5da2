import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../util/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every command accepts. */
const common = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies Options;

type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T & typeof common; allowPositionals: boolean; strict: true }>>;

/** Parses a command's arguments; unknown flags are usage errors (exit 2) naming the flag. */
export function parse<T extends Options>(argv: string[], options: T, allowPositionals = false): Parsed<T> {
  try {
    return parseArgs({ args: argv, options: { ...common, ...options }, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(parserMessage((error as Error).message, argv));
  }
}

/** Node's parseArgs messages, rephrased: what was wrong and what to type instead. */
function parserMessage(message: string, argv: readonly string[]): string {
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1] ?? '';
    const at = argv.findIndex((arg) => arg === flag || /^-\w$/.test(arg));
    const value = argv[at + 1] ?? '';
    if (/^-\d/.test(value)) return `${flag}: expected a positive whole number, got "${value}"`;
    return `${flag}: expected a value, got the flag "${value}"; write ${flag}=${value} if you meant it as the value`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]}: expected a value after it`;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option "${unknown[1]}"; the options are listed below`;
  const positional = /^Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument "${positional[1]}": this command takes no positional arguments`;
  return message.replace(/\. To specify a positional argument.*$/s, '.');
}

/** A command-line mistake: printed with the command's usage, exit 2. */
export class UsageError extends ConfigError {}

/** A positive integer flag, or a usage error naming it. */
export function intFlag(value: string | undefined, flag: string, fallback: number, unit = ''): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag}: expected a positive whole number${unit ? ` of ${unit}` : ''} (e.g. --${flag} ${fallback}), got "${value}"`);
  return n;
}
