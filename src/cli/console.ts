import { format } from 'node:util';
import { toStderr } from '../util/log.js';
import { outsideText } from '../util/redact.js';

/** Characters of one console line of a dependency that reach stderr. */
const CONSOLE_CHARS = 4_000;

const LEVELS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Routes what dependencies write with `console.*` to stderr as lazytools' own lines go: secrets
 * shown as `${VAR}`, control characters escaped, each cut to CONSOLE_CHARS. The MCP SDK warns
 * there with an authorization server's or an upstream's own text (an OAuth error's description,
 * which may quote the request's client credentials; a raw error body; an excluded tool's name),
 * and `console.log` would write into stdout, the protocol under `serve` over stdio. Returns the
 * undo (tests).
 */
export function routeConsole(write: (text: string) => void = toStderr): () => void {
  const before = LEVELS.map((level) => [level, console[level]] as const);
  const line = (...args: unknown[]) => write(`${outsideText(format(...args), CONSOLE_CHARS)}\n`);
  for (const level of LEVELS) console[level] = line;
  return () => {
    for (const [level, original] of before) console[level] = original;
  };
}
