import { escapeControls, noWorkflowCommands, oneLine, redact } from './redact.js';

/**
 * Diagnostics go to stderr only: in stdio mode stdout carries the protocol. `LAZYTOOLS_QUIET=1`
 * silences warnings and info lines (errors still print).
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Writes to stderr with secrets from the environment shown as `${VAR}` and control characters
 * escaped (escapeControls): a message may quote an upstream (an error text, a name), and an
 * escape sequence in it would reach the operator's terminal. Info and warning lines are one line
 * each (oneLine): a newline quoted from an rc or an upstream would start a line of its own
 * (`::error::…`, a workflow command to a CI log). Errors keep theirs (a config error lists its
 * problems a line each; the names it quotes are one line already, see shownName), none of them
 * a workflow command (noWorkflowCommands: a start failure quotes the child's stderr lines).
 */
export const stderrLogger: Logger = {
  info: (message) => {
    if (!quiet()) toStderr(`[lazytools] ${oneLine(redact(message))}\n`);
  },
  warn: (message) => {
    if (!quiet()) toStderr(`[lazytools] warning: ${oneLine(redact(message))}\n`);
  },
  error: (message) => {
    toStderr(`[lazytools] error: ${noWorkflowCommands(escapeControls(redact(message)))}\n`, true);
  },
};

/**
 * Bytes of log lines that may wait unread on stderr (a pipe its reader left) before lines are
 * dropped. Well over what a command says in one burst: a pipe takes 64 KiB before writes wait, so
 * a CLI's warnings written in one go (a lock of thousands of tools) wait here even for a reader
 * that keeps up, and must all get there.
 */
export const MAX_UNREAD_LOG_BYTES = 8 * 1024 * 1024;

/**
 * Writes lines to `stream` (read when called: tests replace process.stderr) while at most `max`
 * bytes wait unread on it; past that each line is dropped and counted, and the count is said
 * once the reader catches up (on the stream's drain, or before the next line written: a flood
 * that stops leaves no line after it). Writing to a pipe queues in memory whatever its reader
 * does: a client that does not read the gateway's stderr while a stdio upstream wrote
 * 4,000-character stderr lines as fast as it could (each relayed) took the gateway past 1.1 GB in
 * 30 s, growing towards the heap limit. An `urgent` line (lazytools' errors) is dropped only past
 * twice `max`: a relayed flood must not take the room of the error that says what went wrong. A
 * file or terminal is written at once (nothing waits).
 */
export function boundedLines(stream: () => LineStream, max = MAX_UNREAD_LOG_BYTES): (line: string, urgent?: boolean) => void {
  let dropped = 0;
  /** The stream whose drain will say the count (one listener per stall). */
  let waiting: object | undefined;
  const sayDropped = (out: LineStream) => {
    if (dropped > 0) out.write(`[lazytools] warning: ${dropped} log line(s) dropped: more than ${max} bytes of them waited unread on stderr\n`);
    dropped = 0;
  };
  return (line, urgent = false) => {
    const out = stream();
    if ((out.writableLength ?? 0) > (urgent ? 2 * max : max)) {
      dropped++;
      if (waiting !== out) {
        waiting = out;
        out.once('drain', () => {
          if (waiting === out) waiting = undefined;
          sayDropped(out);
        });
      }
      return;
    }
    if ((out.writableLength ?? 0) <= max) sayDropped(out);
    out.write(line);
  };
}

/** What boundedLines writes to (process.stderr, a test's stream). */
interface LineStream {
  write(chunk: string): unknown;
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
}

/** One line to stderr, as every lazytools line and dependency console line goes (boundedLines). */
export const toStderr = boundedLines(() => process.stderr);

/** A logger that drops everything: the default for library users and tests. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function quiet(): boolean {
  return process.env.LAZYTOOLS_QUIET === '1';
}
