import { statSync } from 'node:fs';
import path from 'node:path';
import { echoName } from '../util/errors.js';
import { UsageError } from './args.js';

/**
 * A file a command writes at a path the user gave (`lock --out`, `status --html`, `init --out`):
 * a usage error naming the flag, the path as given and what was expected, not the file system's
 * errno text (which named the temporary file `lock` writes first, and exited 1 as a crash).
 */
export interface OutputFile {
  /** The flag, e.g. `--out`. */
  flag: string;
  /** The path as the user typed it (quoted in errors). */
  given: string;
  /** The path resolved against the command's working folder (written). */
  file: string;
  /** A file name the error suggests inside a folder given instead (`lazytools.lock.json`). */
  example: string;
}

/**
 * Throws a UsageError when `output` cannot be written as a file: a folder is there, or the folder
 * it goes in is missing or is a file. Called before a command does its work (lock contacts every
 * server first), so the mistake costs nothing.
 */
export function checkOutputFile(output: OutputFile): void {
  const problem = outputProblem(output);
  if (problem) throw new UsageError(`${output.flag} ${quoted(output.given)}: ${problem}`);
}

/**
 * Runs `write` (which writes `output.file`), turning a file-system failure into a UsageError that
 * names the path as given and why (checkOutputFile's reasons, or the error code: EACCES, EROFS, ...).
 */
export async function writeOutputFile(output: OutputFile, write: () => void | Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    const problem = outputProblem(output) ?? `could not be written (${code}); expected a file path you can write`;
    throw new UsageError(`${output.flag} ${quoted(output.given)}: ${problem}`);
  }
}

function outputProblem({ file, given, example }: OutputFile): string | undefined {
  if (stat(file)?.isDirectory()) return `is a folder; expected a file path (e.g. ${path.join(given, example)})`;
  const folder = path.dirname(file);
  const parent = stat(folder);
  if (parent === undefined) return `the folder ${folder} does not exist; expected a file path in an existing folder`;
  if (!parent.isDirectory()) return `${folder} is not a folder; expected a file path in an existing folder`;
  return undefined;
}

/** What is at `file`, or undefined when nothing is (or a folder on the way is a file: ENOTDIR). */
function stat(file: string) {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function quoted(given: string): string {
  return `"${echoName(given)}"`;
}
