import { escapeControls, noWorkflowCommands, oneLine, redact } from '../util/redact.js';

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
 * lock or an rc), and no line of stderr is a CI workflow command (noWorkflowCommands; stdout
 * carries `check --format github`'s own); `--json` output stays the same JSON value.
 */
export const processIO: CliIO = {
  out: (text) => void process.stdout.write(line(escapeControls(redact(text)))),
  err: (text) => void process.stderr.write(line(noWorkflowCommands(escapeControls(redact(text))))),
  cwd: process.cwd(),
  env: process.env,
};

/**
 * Keeps the process alive when the reader of stdout or stderr goes away: `lazytools groups | head`
 * closes the pipe after a few lines, and a client or wrapper may close the gateway's stderr while
 * it still talks over stdin and stdout. Node raises that as an 'error' event (EPIPE) on the stream,
 * which without a listener ends the process with a stack trace and exit 1 (a stdio gateway then
 * answered nothing). What was lost is only output nobody reads: the command goes on and returns
 * its own exit code; `serve`'s stdio transport still ends its session on an EPIPE of stdout.
 */
export function surviveClosedOutput(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on('error', () => {});
}

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
