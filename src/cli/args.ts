import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../util/closest.js';
import { ConfigError, echoName } from '../util/errors.js';
import { MAX_TIMER_MS } from '../util/bounds.js';
import type { CliIO, Command } from './io.js';

/**
 * One flag of a command: what node's parseArgs needs, plus the value's name and a help line. Each
 * command keeps one such spec; its parser and its `--help` are both made from it, so the help
 * cannot leave a flag out.
 */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in the usage (`F`, `N`, `HOST:PORT`). */
  value?: string;
  /** One line (wrapped with `\n` for more) saying what the flag does and its default. */
  help: string;
  /** A heading printed above this flag in the help ("HTTP only:"). */
  section?: string;
}
export type FlagSpecs = Record<string, FlagSpec>;

/** Options every command accepts. */
const common = {
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', short: 'v', help: 'print the version' },
} as const satisfies FlagSpecs;

/** `--config F`, shared by every command that reads the rc. */
export const configFlag = { type: 'string', short: 'c', value: 'F', help: 'rc file (default: discovered .lazytoolsrc*, lazytools.config.*, package.json#lazytools)' } as const satisfies FlagSpec;

export type Parsed<T extends FlagSpecs> = ReturnType<typeof parseArgs<{ args: string[]; options: T & typeof common; allowPositionals: boolean; strict: true }>>;

/** Parses a command's arguments; unknown flags are usage errors (exit 2) naming the flag and the closest ones. */
export function parse<T extends FlagSpecs>(argv: string[], flags: T, allowPositionals = false): Parsed<T> {
  const all: FlagSpecs = { ...common, ...flags };
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, flag] of Object.entries(all)) options[name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) };
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true }) as Parsed<T>;
  } catch (error) {
    throw new UsageError(parserMessage((error as Error).message, argv, Object.keys(all)));
  }
}

/** What `usageText` prints besides the flags; `args` (a positional's name) also lets the parser take positionals. */
export interface UsageOptions {
  args?: string;
  about?: string;
}

/**
 * A command made from its flag spec: the usage and the parser come from the same spec, and `run`
 * gets the parsed arguments (positionals only when `usage.args` names them).
 */
export function defineCommand<T extends FlagSpecs>(name: string, flags: T, usage: UsageOptions, run: (parsed: Parsed<T>, io: CliIO) => Promise<number>): Command {
  return { name, usage: usageText(name, flags, usage), run: (argv, io) => run(parse(argv, flags, usage.args !== undefined), io) };
}

/**
 * A command's usage, made from its flag spec: the synopsis line, an optional paragraph, then one
 * line per flag (common ones last).
 */
export function usageText(command: string, flags: FlagSpecs, options: UsageOptions = {}): string {
  const word = (name: string, flag: FlagSpec) => `[--${name}${flag.value ? ` ${flag.value}` : ''}]${flag.multiple ? '...' : ''}`;
  const synopsis = [`lazytools ${command}`, ...(options.args ? [options.args] : []), ...Object.entries(flags).map(([name, flag]) => word(name, flag))];
  const lines: string[] = [];
  let line = '';
  for (const part of synopsis) {
    if (line.length > 0 && line.length + part.length + 1 > 96) {
      lines.push(line);
      // Continuation lines line up under the first flag, after main's `Usage: ` prefix.
      line = ' '.repeat(`Usage: lazytools ${command} `.length) + part;
    } else line = line.length > 0 ? `${line} ${part}` : part;
  }
  lines.push(line);
  const label = (name: string, flag: FlagSpec) => `${flag.short ? `-${flag.short}, ` : ''}--${name}${flag.value ? ` ${flag.value}` : ''}`;
  const entries = Object.entries({ ...flags, ...common }) as Array<[string, FlagSpec]>;
  const width = Math.max(...entries.map(([name, flag]) => label(name, flag).length)) + 2;
  const help: string[] = [];
  for (const [name, flag] of entries) {
    if (flag.section) help.push(`  ${flag.section}`);
    const [first = '', ...rest] = flag.help.split('\n');
    help.push(`  ${label(name, flag).padEnd(width)}${first}`, ...rest.map((text) => `  ${' '.repeat(width)}${text}`));
  }
  return [...lines, '', ...(options.about ? [options.about.replace(/^/gm, '  '), ''] : []), ...help].join('\n');
}

/** Node's parseArgs messages, rephrased: what was wrong and what to type instead. */
function parserMessage(message: string, argv: readonly string[], flags: readonly string[]): string {
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1] ?? '';
    const at = argv.findIndex((arg) => arg === flag || /^-\w$/.test(arg));
    const value = argv[at + 1] ?? '';
    if (/^-\d/.test(value)) return `${flag}: expected a positive whole number, got "${echoName(value)}"`;
    return `${flag}: expected a value, got the flag "${echoName(value)}"; write ${flag}=${echoName(value)} if you meant it as the value`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]}: expected a value after it`;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option "${echoName(unknown[1] ?? '')}".${didYouMean((unknown[1] ?? '').replace(/^-+/, '').replace(/=.*$/, ''), flags).replace(/"([\w-]+)"/g, '"--$1"')}`;
  const positional = /^Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument "${echoName(positional[1] ?? '')}": this command takes no positional arguments`;
  return message.replace(/\. To specify a positional argument.*$/s, '.');
}

/** A command-line mistake: printed with a pointer to the command's `--help`, exit 2. */
export class UsageError extends ConfigError {}

/** A positive integer flag up to `max` (a timer's seconds: MAX_TIMER_MS / 1000), or a usage error naming it. */
export function intFlag(value: string | undefined, flag: string, fallback: number, unit = '', max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n <= 0 || n > max)
    throw new UsageError(`--${flag}: expected a positive whole number${unit ? ` of ${unit}` : ''}${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''} (e.g. --${flag} ${fallback}), got "${echoName(value)}"`);
  return n;
}

/** Most seconds a timer flag takes (`auth --timeout`, `serve --idle-timeout`): what a Node timer can wait. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
