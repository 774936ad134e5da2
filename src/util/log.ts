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
    if (!quiet()) process.stderr.write(`[lazytools] ${oneLine(redact(message))}\n`);
  },
  warn: (message) => {
    if (!quiet()) process.stderr.write(`[lazytools] warning: ${oneLine(redact(message))}\n`);
  },
  error: (message) => {
    process.stderr.write(`[lazytools] error: ${noWorkflowCommands(escapeControls(redact(message)))}\n`);
  },
};

/** A logger that drops everything: the default for library users and tests. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function quiet(): boolean {
  return process.env.LAZYTOOLS_QUIET === '1';
}
