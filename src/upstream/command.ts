import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export interface CommandLookup {
  /** The child's environment: PATH (and PATHEXT on Windows) are read from it, as spawn does. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where a command with a path separator is relative to (the child's working directory). */
  cwd?: string | undefined;
  platform?: NodeJS.Platform | undefined;
}

/** What cmd.exe tries when PATHEXT is unset. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * The file a shell would run for `command`, so an rc written for one platform starts on another:
 * a bare name is looked up in PATH; on Windows a name without one of PATHEXT's extensions gets
 * each of them in turn, as cmd.exe does (`npx` is `npx.cmd`, `uvx` is `uvx.exe`). A name with a
 * path separator is taken relative to `cwd`. Returns `command` unchanged when nothing is found,
 * so spawning it reports "command not found" as before.
 */
export function resolveCommand(command: string, lookup: CommandLookup): string {
  const platform = lookup.platform ?? process.platform;
  const windows = platform === 'win32';
  const names = windows ? windowsNames(command, variable(lookup.env, 'PATHEXT', windows) ?? DEFAULT_PATHEXT) : [command];
  const hasSeparator = command.includes('/') || (windows && command.includes('\\'));
  const dirs = hasSeparator ? [lookup.cwd ?? process.cwd()] : (variable(lookup.env, 'PATH', windows) ?? '').split(windows ? ';' : ':').filter((dir) => dir.length > 0);
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.resolve(dir.replace(/^"(.*)"$/, '$1'), name);
      if (runnable(file, windows)) return file;
    }
  }
  return command;
}

/** `npx` -> `npx.com`, `npx.exe`, ... (PATHEXT's extensions, lowercased); a name that already ends in one of them stays as it is. */
function windowsNames(command: string, pathext: string): string[] {
  const extensions = pathext.split(';').filter((ext) => ext.length > 0);
  const ext = path.extname(command).toLowerCase();
  if (ext !== '' && extensions.some((e) => e.toLowerCase() === ext)) return [command];
  return extensions.map((e) => `${command}${e.toLowerCase()}`);
}

/** An environment variable; Windows names are case-insensitive (`Path`). */
function variable(env: CommandLookup['env'], name: string, windows: boolean): string | undefined {
  if (!windows) return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function runnable(file: string, windows: boolean): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (!windows) accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
