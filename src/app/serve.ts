import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { findConfig, type FoundConfig } from '../config/find.js';
import { usagePath } from '../usage/record.js';
import type { Strategy } from '../config/schema.js';
import type { ServerTools } from '../catalog/catalog.js';
import { lockBytesIfPresent } from '../catalog/lock-path.js';
import { ConfigError } from '../util/errors.js';
import { hasOwn } from '../util/own.js';
import { outsideText } from '../util/redact.js';
import { stderrLogger, type Logger } from '../util/log.js';
import type { Gateway } from './gateway.js';
import type { HttpFront, HttpOptions } from '../transports/http.js';
import type { FrontSession } from '../callers/session.js';
import { StdioFrontTransport } from '../transports/stdio.js';
import { startAnswers } from '../transports/start-answers.js';

export interface ServeOptions {
  config?: string | undefined;
  cwd?: string | undefined;
  /**
   * Fixed mode (`serve --mode`): the stdio session never leaves it; over HTTP only this mode is
   * served (`a,b` serves several, each at `/mcp/<mode>`, the first also at `/mcp`).
   */
  mode?: string | undefined;
  strategy?: Strategy | undefined;
  /** Serve Streamable HTTP instead of stdio. */
  http?: HttpOptions | undefined;
  /** Prometheus metrics at /metrics over HTTP (default: the rc's `metrics`). */
  metrics?: boolean | undefined;
  /** Tool lists from a lock: their upstreams start on first use. Default: the lock beside the rc file. */
  locked?: ServerTools[] | undefined;
  /** Reload the rc file when it changes; an invalid one is reported and the old one kept. */
  watch?: boolean | undefined;
  /** false: ignore the lock file and start every upstream at boot. */
  lock?: boolean | undefined;
  logger?: Logger | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Called with the URL as soon as the HTTP listener is up (before upstreams have started). */
  onListening?: ((url: string) => void) | undefined;
}

export interface Served {
  gateway: Gateway;
  http: HttpFront | undefined;
  /**
   * Resolves when the stdio session ended (stdin closed, stdout broke, or its fixed mode left the
   * config on reload: then with that reason); never for HTTP.
   */
  ended: Promise<string | undefined>;
  /**
   * The first half of a graceful stop (SIGTERM): stops accepting HTTP connections, then waits up
   * to `graceMs` for the calls in flight to be answered. close() ends the rest.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Loads the rc file, starts the upstreams and serves one stdio session (default) or HTTP
 * sessions. Logs go to stderr; in stdio mode stdout carries only the protocol.
 *
 * @example
 * const served = await serve({ http: { port: 8080 } });
 */
export async function serve(options: ServeOptions = {}): Promise<Served> {
  const logger = options.logger ?? stderrLogger;
  const found = await findConfig({ file: options.config, cwd: options.cwd });
  const { file } = found;
  let locked = options.locked;
  const cwd = options.cwd ?? process.cwd();
  const lockedBytes = locked === undefined && options.lock !== false ? await lockBytesIfPresent(file, cwd) : undefined;
  // stdio on a lock: the opening exchange may be answered from an earlier start's answers before
  // the catalog is built (start-answers.ts), keyed by the rc as read: the schema that validates it
  // is about half of the code a start loads. The messages read meanwhile go to the session after.
  let stdio = !options.http && lockedBytes ? new StdioFrontTransport() : undefined;
  const opening = stdio && lockedBytes && startAnswers(stdio, { lockBytes: lockedBytes.bytes, rc: found.value, rcFile: file, usage: await usageState(found, cwd), mode: options.mode, strategy: options.strategy, env: options.env ?? process.env, cwd }, logger);
  // Without an entry for this start, nothing waits for the client: the catalog is built at once.
  const held = opening?.known() ? await opening.open() : [];
  // What the opening did not need loads only now: the schema, the catalog builder, the hub, the SDK's server.
  const [{ validated }, { resolveConfig }, { withUsage }, { readLock }, { Gateway }, { serveStdioEras }, { classifyEra }, { openSession }] = await Promise.all([
    import('../config/load.js'),
    import('../config/resolve.js'),
    import('../usage/record.js'),
    import('../catalog/lock.js'),
    import('./gateway.js'),
    import('../transports/stdio-eras.js'),
    import('../protocol/era.js'),
    import('../callers/session.js'),
  ]);
  // An entry is only ever written by a start whose rc was valid: the same rc as read is again.
  const config = await withUsage(resolveConfig(validated(found.value, file), file), process.cwd());
  const modes = options.mode === undefined ? undefined : options.mode.split(',').map((mode) => mode.trim());
  const unknownMode = modes && (await import('../focus/policy.js')).unknownServedMode(config, modes);
  if (unknownMode !== undefined) throw new ConfigError(`--mode: ${unknownMode}`);
  if (modes && modes.length > 1 && !options.http) throw new ConfigError('--mode: a stdio session serves one mode; several (a,b) need --http');
  if (lockedBytes) {
    const lock = await readLock(lockedBytes);
    logger.info(`using ${lock.file}: upstreams start on their first call`);
    for (const warning of lock.warnings) logger.warn(warning);
    // A server the rc no longer names is not served from the lock: its tools could not be called.
    locked = lock.sources.filter((source) => hasOwn(config.servers, source.server));
    const gone = lock.sources.filter((source) => !hasOwn(config.servers, source.server)).map((source) => outsideText(source.server, 64));
    if (gone.length > 0) logger.warn(`${lock.file}: server(s) ${gone.slice(0, 5).join(', ')}${gone.length > 5 ? ` and ${gone.length - 5} more` : ''} are in the lock but not in the rc: left out (run lazytools lock to refresh it)`);
  }
  if (Object.keys(config.servers).length === 0)
    logger.warn(
      `serving 0 tools: ${file ? `${file} lists no servers` : `no rc file found from ${cwd} up to the project root`}. ` +
        'Add servers with `lazytools init --from claude-desktop|cursor|vscode|claude-code|PATH`, or write "servers" in .lazytoolsrc.json (see the README).',
    );
  // A listener that would be refused is refused before anything starts.
  if (options.http) (await import('../transports/http-guard.js')).refuseOpenAddress(options.http.host ?? '127.0.0.1', Boolean(options.http.token) || config.tokens.length > 0, options.http.force);
  const gateway = new Gateway({ config, logger, locked, env: options.env });
  // Answers are recorded only when no server starts at boot (a live list may differ run to run).
  if (opening) {
    opening.cacheable = [...gateway.upstreams.keys()].every((name) => locked?.some((source) => source.server === name));
    opening.legacy = (message) => classifyEra(message) !== 'modern';
  }
  // Requests that need the catalog wait for this (gateway.ready), bounded by the start timeouts.
  const starting = gateway.start();
  let http: HttpFront | undefined;
  if (options.http) {
    // Listen first: an upstream slow to initialize must not keep the listener down.
    try {
      const { serveHttp } = await import('../transports/http.js');
      // prom-client loads only when metrics are on: a gateway without them starts as before.
      const metrics = (options.metrics ?? config.metrics) ? (await import('./metrics.js')).createMetrics(gateway) : undefined;
      http = await serveHttp(gateway, { strategy: options.strategy, modes, metrics, ...options.http });
    } catch (error) {
      await gateway.close();
      throw error;
    }
    options.onListening?.(http.url);
  }
  await starting;
  for (const warning of gateway.warnings) logger.warn(warning);
  // Prompts left out for a name already taken are said now (the gateway says those of tools as it builds), not at a first prompts/list.
  gateway.prompts();
  const watcher = options.watch && file ? watchConfig(file, gateway, logger) : undefined;
  let ended = new Promise<string | undefined>(() => {});
  if (!http) {
    // The opening message picks the era: initialize keeps today's session, a 2026-07-28 request the modern server.
    let session: FrontSession | undefined;
    stdio ??= new StdioFrontTransport();
    stdio.warn = (message) => logger.warn(message);
    const connection = serveStdioEras(gateway, stdio, {
      served: modes,
      strategy: options.strategy,
      legacy: async (transport) => {
        session = openSession(gateway, { served: modes, strategy: options.strategy });
        await session.connect(transport);
      },
    });
    // serveStdioEras took the handler over (synchronously): what the opening read goes first.
    stdio.deliver(held.splice(0));
    ended = connection.then(
      async ({ ended }) => (await ended) ?? session?.endReason,
      (error: unknown) => {
        logger.error(`stdio: ${(error as Error).message}`);
        return `stdio: ${(error as Error).message}`;
      },
    );
  }
  return {
    gateway,
    http,
    ended,
    async drain(graceMs) {
      http?.stopAccepting();
      const deadline = Date.now() + graceMs;
      const busy = () => (http?.inFlight ?? 0) + [...gateway.upstreams.values()].reduce((n, upstream) => n + upstream.inFlight, 0) > 0;
      while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async close() {
      watcher?.close();
      // No message may have arrived yet (no session): stop reading stdin so the process can exit.
      await stdio?.close();
      await http?.close();
      await gateway.close();
    },
  };
}

/** Reloads the rc file on change, debounced; a broken file leaves the running config in force. */
function watchConfig(file: string, gateway: Gateway, logger: Logger): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  // Loads may overlap (a JS rc may await its secrets): only the latest one is applied, else a
  // slow load of an older version would undo a newer edit (a token removed coming back).
  let latest = 0;
  const reload = async () => {
    const load = ++latest;
    try {
      const [{ loadConfig }, { resolveConfig }, { withUsage }] = await Promise.all([import('../config/load.js'), import('../config/resolve.js'), import('../usage/record.js')]);
      const { config: rc } = await loadConfig({ file });
      const config = await withUsage(resolveConfig(rc, file), process.cwd());
      if (load !== latest) return logger.info(`reload of ${file} skipped: it changed again while it loaded`);
      await gateway.reload(config);
      logger.info(`reloaded ${file}`);
    } catch (error) {
      logger.error(`config reload failed, keeping the previous config: ${(error as Error).message}`);
    }
  };
  const watcher = watch(path.dirname(file), (_event, name) => {
    if (name !== path.basename(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 100);
  });
  watcher.unref();
  return watcher;
}

/**
 * What the start answers know of the usage file (its weights feed the modes): its size and time
 * when the rc records usage, else ''. A changed file misses, and the answers are checked anyway.
 */
async function usageState(found: FoundConfig, cwd: string): Promise<string> {
  if ((found.value as { usage?: unknown } | undefined)?.usage !== true) return '';
  try {
    const info = await stat(usagePath(found.file, cwd));
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return 'none';
  }
}
