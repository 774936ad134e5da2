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
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/, '.'));
  }
}

/** A command-line mistake: printed with the command's usage, exit 2. */
export class UsageError extends ConfigError {}

/** A positive integer flag, or a usage error naming it. */
export function intFlag(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag}: expected a positive whole number, got "${value}"`);
  return n;
}
