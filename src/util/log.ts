/**
 * Diagnostics go to stderr only: in stdio mode stdout carries the protocol. `LAZYTOOLS_QUIET=1`
 * silences warnings and info lines (errors still print).
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const stderrLogger: Logger = {
  info: (message) => {
    if (!quiet()) process.stderr.write(`[lazytools] ${message}\n`);
  },
  warn: (message) => {
    if (!quiet()) process.stderr.write(`[lazytools] warning: ${message}\n`);
  },
  error: (message) => {
    process.stderr.write(`[lazytools] error: ${message}\n`);
  },
};

/** A logger that drops everything: the default for library users and tests. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function quiet(): boolean {
  return process.env.LAZYTOOLS_QUIET === '1';
}
