import { serve } from '../front/serve.js';
import { strategySchema, type Strategy } from '../config/schema.js';
import { intFlag, parse, UsageError } from './args.js';
import type { Command } from './io.js';

export const serveCommand: Command = {
  name: 'serve',
  usage: `lazytools serve [--config F] [--mode M] [--strategy S] [--http [HOST:]PORT] [--token T] [--force]
                       [--allow-host H] [--allow-origin O] [--idle-timeout S] [--max-sessions N]
                       [--ignore-lock] [--watch] [--metrics]

  --config F          rc file (default: discovered)
  --mode M            serve one fixed mode only, without focus_mode (over HTTP at /mcp and
                      /mcp/M; --mode a,b serves several, each at /mcp/<mode>)
  --strategy S        notify | proxy | hybrid | auto (default: the rc's, else hybrid)
  --http [HOST:]PORT  serve Streamable HTTP at /mcp and /mcp/<mode> (default: stdio);
                      a port alone means 127.0.0.1:PORT
  --ignore-lock       start every upstream at boot even when lazytools.lock.json exists
  --watch             reload the rc file when it changes (an invalid one is reported and ignored)
  HTTP only:
  --token T           require Authorization: Bearer T (default: $LAZYTOOLS_TOKEN)
  --force             allow a non-loopback address without a token
  --allow-host H      accept Host header H too (repeatable): "name" accepts name on any port,
                      "name:port" only that port
  --allow-origin O    accept this Origin too (repeatable)
  --idle-timeout S    close HTTP sessions idle for S seconds (default 1800)
  --max-sessions N    most HTTP sessions open at once; initialize past it answers 503 (default 1000)
  --metrics           serve Prometheus metrics at /metrics (default: the rc's "metrics")
  Always over HTTP: /healthz (200 while up), /readyz (JSON; 503 until the servers' first starts settled)`,
  async run(argv, io) {
    const { values } = parse(argv, {
      config: { type: 'string', short: 'c' },
      mode: { type: 'string' },
      strategy: { type: 'string' },
      http: { type: 'string' },
      token: { type: 'string' },
      force: { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
      'allow-origin': { type: 'string', multiple: true },
      'idle-timeout': { type: 'string' },
      'max-sessions': { type: 'string' },
      'ignore-lock': { type: 'boolean' },
      watch: { type: 'boolean' },
      metrics: { type: 'boolean' },
    });
    let strategy: Strategy | undefined;
    if (values.strategy !== undefined) {
      const parsed = strategySchema.safeParse(values.strategy);
      if (!parsed.success) throw new UsageError(`--strategy: expected notify, proxy, hybrid or auto, got "${values.strategy}"`);
      strategy = parsed.data;
    }
    const http = values.http === undefined ? undefined : hostPort(values.http);
    if (!http) {
      const httpOnly = (['token', 'force', 'allow-host', 'allow-origin', 'idle-timeout', 'max-sessions', 'metrics'] as const).filter((flag) => values[flag] !== undefined);
      if (httpOnly.length > 0)
        throw new UsageError(
          `${httpOnly.map((f) => `--${f}`).join(', ')} ${httpOnly.length > 1 ? 'apply' : 'applies'} only to HTTP, and without --http this serves stdio: add --http PORT (or HOST:PORT), or drop ${httpOnly.length > 1 ? 'them' : 'it'}`,
        );
    }
    const idleTimeoutMs = intFlag(values['idle-timeout'], 'idle-timeout', 1800, 'seconds') * 1000;
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
      onListening: (url) => io.err(`lazytools: serving ${url}${values.mode === undefined ? ` (fixed modes at ${url}/<mode>)` : ` (mode ${values.mode} only)`}`),
    });
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
  },
};

/** How long a signalled gateway waits for the calls in flight before it ends them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** `--http PORT`, `:PORT`, `HOST:PORT` or `[IPv6]:PORT`; a port alone means 127.0.0.1. */
export function hostPort(value: string): { host: string; port: number } {
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+))?:)?(\d+)$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--http: expected PORT or HOST:PORT with a port from 0 to 65535 (e.g. 8080 or 127.0.0.1:8080), got "${value}"`);
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}
