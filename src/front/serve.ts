import { loadConfig } from '../config/load.js';
import { resolveConfig } from '../config/resolve.js';
import type { Strategy } from '../config/schema.js';
import type { ServerTools } from '../catalog/catalog.js';
import { ConfigError, UnknownNameError } from '../util/errors.js';
import { stderrLogger, type Logger } from '../util/log.js';
import { Gateway } from './gateway.js';
import { serveHttp, type HttpFront, type HttpOptions } from './http.js';
import { StdioFrontTransport } from './stdio.js';

export interface ServeOptions {
  config?: string | undefined;
  cwd?: string | undefined;
  /** Fixed mode for the stdio session (`serve --mode`). */
  mode?: string | undefined;
  strategy?: Strategy | undefined;
  /** Serve Streamable HTTP instead of stdio. */
  http?: HttpOptions | undefined;
  /** Tool lists known ahead (lock file): upstreams start on first use. */
  known?: ServerTools[] | undefined;
  logger?: Logger | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export interface Served {
  gateway: Gateway;
  http: HttpFront | undefined;
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
  const { config: rc, file } = await loadConfig({ file: options.config, cwd: options.cwd });
  const config = resolveConfig(rc, file);
  if (options.mode !== undefined && !config.modes[options.mode])
    throw new ConfigError(`--mode: ${new UnknownNameError('mode', options.mode, Object.keys(config.modes)).message}`);
  const gateway = new Gateway({ config, logger, known: options.known, env: options.env });
  await gateway.start();
  for (const warning of gateway.warnings) logger.warn(warning);
  let http: HttpFront | undefined;
  if (options.http) {
    http = await serveHttp(gateway, { strategy: options.strategy, ...options.http });
  } else {
    const session = gateway.createSession({ mode: options.mode, strategy: options.strategy });
    await session.connect(new StdioFrontTransport());
  }
  return {
    gateway,
    http,
    async close() {
      await http?.close();
      await gateway.close();
    },
  };
}
