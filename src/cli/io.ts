import { escapeControls, oneLine, redact } from '../util/redact.js';

/** Where a command writes: process streams in the binary, buffers in tests. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The process streams; secrets from the environment are shown as `${VAR}`, and control characters
 * are escaped (escapeControls), whatever a command prints (a name or text from an upstream, a
 * lock or an rc); `--json` output stays the same JSON value.
 */
export const processIO: CliIO = {
  out: (text) => void process.stdout.write(line(escapeControls(redact(text)))),
  err: (text) => void process.stderr.write(line(escapeControls(redact(text)))),
  cwd: process.cwd(),
  env: process.env,
};

/**
 * Writes one warning line to stderr: `warning: ` and `message` on one line (oneLine), whatever it
 * quotes from an rc, a catalog or an upstream (a glob with a newline and `::error::` after it
 * would print a line GitHub Actions reads as a workflow command).
 */
export function warnLine(io: CliIO, message: string): void {
  io.err(`warning: ${oneLine(message)}`);
}

/** A command: parses its argv, calls the library, renders; returns the exit code. */
export interface Command {
  name: string;
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

function line(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
