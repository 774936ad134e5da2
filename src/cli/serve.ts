import { serve } from '../app/serve.js';
import { steadyYoungGeneration } from '../util/memory.js';
import { quickerTierUp } from '../util/tier-up.js';
import { isStrategy, type Strategy } from '../config/strategies.js';
import { echoName } from '../util/errors.js';
import { configFlag, defineCommand, intFlag, MAX_TIMER_SECONDS, type FlagSpecs, UsageError } from './args.js';
import type { Command } from './io.js';
import { httpSnippets } from './snippets.js';

const serveFlags = {
  config: configFlag,
  mode: { type: 'string', value: 'M', help: 'serve one fixed mode only, without focus_mode (over HTTP at /mcp and\n/mcp/M; --mode a,b serves several, each at /mcp/<mode>)' },
  strategy: { type: 'string', value: 'S', help: 'notify | proxy | hybrid | auto (default: the rc\'s, else auto)' },
  http: { type: 'string', value: '[HOST:]PORT', help: 'serve Streamable HTTP at /mcp and /mcp/<mode> (default: stdio);\na port alone means 127.0.0.1:PORT' },
  'ignore-lock': { type: 'boolean', help: 'start every upstream at boot even when lazytools.lock.json exists' },
  watch: { type: 'boolean', help: 'reload the rc file when it changes (an invalid one is reported and ignored)' },
  token: { type: 'string', value: 'T', section: 'HTTP only:', help: 'require Authorization: Bearer T (default: $LAZYTOOLS_TOKEN)' },
  force: { type: 'boolean', help: 'allow a non-loopback address without a token' },
  'allow-host': { type: 'string', multiple: true, value: 'H', help: 'accept Host header H too (repeatable): "name" accepts name on any port,\n"name:port" only that port' },
  'allow-origin': { type: 'string', multiple: true, value: 'O', help: 'accept this Origin too (repeatable)' },
  'idle-timeout': { type: 'string', value: 'S', help: 'close HTTP sessions idle for S seconds (default 1800)' },
  'max-sessions': { type: 'string', value: 'N', help: 'most HTTP sessions open at once; initialize past it answers 503 (default 1000)' },
  metrics: { type: 'boolean', help: 'serve Prometheus metrics at /metrics (default: the rc\'s "metrics")' },
} as const satisfies FlagSpecs;

export const serveCommand: Command = defineCommand('serve', serveFlags, { about: 'Always over HTTP: /healthz (200 while up), /readyz (JSON; 503 until the servers\' first starts settled).' }, async ({ values }, io) => {
  let strategy: Strategy | undefined;
  if (values.strategy !== undefined) {
    if (!isStrategy(values.strategy)) throw new UsageError(`--strategy: expected notify, proxy, hybrid or auto, got "${echoName(values.strategy)}"`);
    strategy = values.strategy;
  }
  const http = values.http === undefined ? undefined : hostPort(values.http);
  if (!http) {
    const httpOnly = (['token', 'force', 'allow-host', 'allow-origin', 'idle-timeout', 'max-sessions', 'metrics'] as const).filter((flag) => values[flag] !== undefined);
    if (httpOnly.length > 0)
      throw new UsageError(
        `${httpOnly.map((f) => `--${f}`).join(', ')} ${httpOnly.length > 1 ? 'apply' : 'applies'} only to HTTP, and without --http this serves stdio: add --http PORT (or HOST:PORT), or drop ${httpOnly.length > 1 ? 'them' : 'it'}`,
      );
  }
  // `--token "$TOKEN"` with TOKEN unset: an empty token is no token, and the gateway served
  // without one (on loopback, silently) while its operator believed it required one.
  if (values.token !== undefined && values.token.trim() === '')
    throw new UsageError('--token: expected a token, got an empty value (was the variable passed to it unset?); to serve without a token, drop --token');
  const idleTimeoutMs = intFlag(values['idle-timeout'], 'idle-timeout', 1800, 'seconds', MAX_TIMER_SECONDS) * 1000;
  // A gateway is long-lived and mostly quiet: its start-up burst must not leave memory committed.
  steadyYoungGeneration();
  // Listen for the end before starting anything, so a signal during start-up still stops the children.
  const stopped = new Promise<'signal' | 'stdin'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
    if (!http) {
      process.stdin.once('end', () => resolve('stdin'));
      process.stdin.once('close', () => resolve('stdin'));
    }
  });
  const served = await serve({
    config: values.config,
    cwd: io.cwd,
    mode: values.mode,
    strategy,
    env: io.env,
    lock: !values['ignore-lock'],
    watch: values.watch,
    metrics: values.metrics,
    http: http && {
      ...http,
      token: values.token ?? io.env.LAZYTOOLS_TOKEN,
      force: values.force,
      allowedHosts: values['allow-host'],
      allowedOrigins: values['allow-origin'],
      idleTimeoutMs,
      maxSessions: intFlag(values['max-sessions'], 'max-sessions', 1000),
    },
    onListening: (url) => {
      io.err(`lazytools: serving ${url}${values.mode === undefined ? ` (fixed modes at ${url}/<mode>)` : ` (mode ${values.mode} only)`}`);
      const token = Boolean(values.token ?? io.env.LAZYTOOLS_TOKEN);
      io.err(['Connect a client:', ...httpSnippets(url, token).map(({ client, snippet }) => `  ${client.padEnd(15)}${snippet}`)].join('\n'));
    },
  });
  // Started: from here on the gateway relays the same few messages for as long as it runs, worth
  // optimizing early (start-up code keeps V8's default, so cold start compiles no more than before).
  quickerTierUp();
  // A person who ran `lazytools serve` in a terminal sees why nothing happens: stdio waits for a client.
  if (!http && process.stdin.isTTY)
    io.err('lazytools: serving MCP over stdio, waiting for an MCP client on stdin (a client starts this command itself; see `lazytools init`). Ctrl+C to stop; `lazytools serve --http 8080` serves clients over HTTP instead.');
  // A bug must not take the gateway down: log it and keep serving.
  process.on('unhandledRejection', (reason) => io.err(`lazytools: unhandled rejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}`));
  const reason = await Promise.race([stopped, served.ended]);
  // A signal: stop accepting, let the calls in flight finish, then end the upstreams' groups.
  if (reason === 'signal') await served.drain(SHUTDOWN_GRACE_MS);
  await served.close();
  if (reason === 'signal' || reason === 'stdin') return 0;
  if (typeof reason === 'string') {
    io.err(`lazytools: ${reason}`);
    return 1;
  }
  return 0;
});

/** How long a signalled gateway waits for the calls in flight before it ends them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** `--http PORT`, `:PORT`, `HOST:PORT` or `[IPv6]:PORT`; a port alone means 127.0.0.1. */
export function hostPort(value: string): { host: string; port: number } {
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+))?:)?(\d+)$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--http: expected PORT or HOST:PORT with a port from 0 to 65535 (e.g. 8080 or 127.0.0.1:8080), got "${echoName(value)}"`);
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}
