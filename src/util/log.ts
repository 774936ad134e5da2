import { redact } from './redact.js';

/**
 * Diagnostics go to stderr only: in stdio mode stdout carries the protocol. `LAZYTOOLS_QUIET=1`
 * silences warnings and info lines (errors still print).
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Writes to stderr with secrets from the environment shown as `${VAR}`. */
export const stderrLogger: Logger = {
  info: (message) => {
    if (!quiet()) process.stderr.write(`[lazytools] ${redact(message)}\n`);
  },
  warn: (message) => {
    if (!quiet()) process.stderr.write(`[lazytools] warning: ${redact(message)}\n`);
  },
  error: (message) => {
    process.stderr.write(`[lazytools] error: ${redact(message)}\n`);
  },
};

/** A logger that drops everything: the default for library users and tests. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function quiet(): boolean {
  return process.env.LAZYTOOLS_QUIET === '1';
}
