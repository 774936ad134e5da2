import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { interpolate, interpolateMap, PLAIN_VARIABLES, redactLiteralCredentials, UnsetVariableError } from '../config/env.js';
import { projectFolder } from '../util/root.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { ServerConfig } from '../config/schema.js';
import { clipText } from '../util/bounds.js';
import { compareStrings } from '../util/compare.js';
import { compileGlob } from '../util/glob.js';
import { silentLogger, type Logger } from '../util/log.js';
import { outsideText, registerSecret } from '../util/redact.js';
import { shownName } from '../config/secrets.js';
import { authorizedFetch } from './auth/fetch.js';
import { AuthSession } from './auth/session.js';
import { boundedFetch } from './bounded-fetch.js';
import { remoteTarget } from './auth/target.js';
import type { HttpTransportKind } from './http-transport.js';
import { ReadHold } from './flood.js';
import { StdioUpstreamTransport } from './stdio-transport.js';
import { streamCauses, type CausedBy } from './stream-cause.js';
import { Upstream } from './upstream.js';

export interface UpstreamsOptions {
  env?: NodeJS.ProcessEnv | undefined;
  logger?: Logger | undefined;
}

/**
 * One Upstream per enabled rc server. `${VAR}` is resolved here, up front: a missing variable
 * disables that server only, its start failing at once with the ConfigError naming the variable.
 * Stdio children run in the rc file's folder unless `cwd` says otherwise, with the SDK's safe
 * environment, the variables `envPassthrough` names (the entry's, else the top-level one), and
 * the rc `env`.
 */
export function createUpstreams(config: ResolvedConfig, options: UpstreamsOptions = {}): Upstream[] {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const baseDir = projectFolder(config.file, process.cwd());
  return Object.entries(config.servers as Record<string, ServerConfig>)
    .filter(([, server]) => server.disabled !== true)
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, server]) => {
      const options = { timeoutMs: server.timeout, idleTimeoutMs: server.idleTimeout, startTimeoutMs: server.startTimeout ?? config.startTimeoutMs, logger, sharedServer: server.url !== undefined };
      try {
        const passthrough = passedThrough(server.envPassthrough ?? config.envPassthrough, env, config.tokens);
        return new Upstream(name, { connect: connector(name, server, env, baseDir, logger, config.file, passthrough), ...options });
      } catch (error) {
        if (!(error instanceof UnsetVariableError)) throw error;
        // One server's unset variable disables that server, with the error: the others serve.
        const reason = error.file !== undefined && error.message.startsWith(`${error.file}: `) ? error.message.slice(error.file.length + 2) : error.message;
        return new Upstream(name, { connect: () => Promise.reject(error), disabled: reason, ...options });
      }
    });
}

/** lazytools' own variables (its bearer token, its cache folder...): never an upstream's. */
const OWN_VARIABLES = /^LAZYTOOLS_/i;

/**
 * Our variables that `patterns` (names or globs) name, for a child's environment: never
 * lazytools' own (LAZYTOOLS_*, its bearer token among them) nor one holding a bearer token of the
 * rc (`tokens`: their sha256). Each value passed is a secret from then on (shown as `${NAME}`, as
 * a `${VAR}` of the rc is), but for the plain ones every client sets (PLAIN_VARIABLES: HOME, PATH...).
 */
function passedThrough(patterns: readonly string[], env: NodeJS.ProcessEnv, tokens: ReadonlyArray<{ sha256: string }> = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (patterns.length === 0) return out;
  const matchers = patterns.map((pattern) => compileGlob(pattern));
  const token = (value: string): boolean => {
    if (tokens.length === 0) return false;
    const digest = createHash('sha256').update(value).digest('hex');
    return tokens.some((grant) => grant.sha256 === digest);
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || OWN_VARIABLES.test(key) || !matchers.some((re) => re.test(key)) || token(value)) continue;
    out[key] = value;
    if (!PLAIN_VARIABLES.has(key.toUpperCase())) registerSecret(value, key);
  }
  return out;
}

function connector(
  name: string,
  server: ServerConfig,
  env: NodeJS.ProcessEnv,
  baseDir: string,
  logger: Logger,
  file: string | undefined,
  passthrough: Record<string, string>,
): () => Promise<Transport> {
  const at = `servers.${shownName(name)}`;
  if (server.url !== undefined) {
    const target = remoteTarget(name, server, env, file);
    // Every connection to the server (both eras, the twin too) shares one sign-in session.
    const session = target.oauth ? new AuthSession(name, target.url, target.oauth.settings, target.oauth.file, boundedFetch(name), { onBound: (line) => logger.warn(line) }) : undefined;
    const remembered: { kind?: HttpTransportKind } = {};
    return async () => {
      // The SDK client is loaded with the first connection (a gateway on the lock starts without it).
      const { httpTransport } = await import('./http-transport.js');
      // One hold per connection: its flood gate stops reading its SSE streams past the budget (flood.ts).
      const hold = new ReadHold();
      const causes = streamCauses(boundedFetch(name, session ? authorizedFetch(session) : fetch, undefined, hold));
      const transport: Transport & CausedBy = Object.assign(httpTransport(target.url, target.transport, { headers: target.headers, fetch: causes.fetch }, remembered), {
        requestCause: causes.take,
        holdReading: (ms: number) => hold.holdReading(ms),
      });
      return transport;
    };
  }
  const command = interpolate(server.command ?? '', env, `${at}.command`, file);
  const args = (server.args ?? []).map((arg, i) => interpolate(arg, env, `${at}.args[${i}]`, file));
  const rcEnv = interpolateMap(server.env, env, `${at}.env`, file);
  redactLiteralCredentials(at, { env: server.env, args: server.args });
  const cwd = server.cwd === undefined ? baseDir : path.resolve(baseDir, interpolate(server.cwd, env, `${at}.cwd`, file));
  // Said once for the server's whole life (restarts included): a server that logs to stdout does it on every line.
  let noisy = false;
  const onNoise = (line: string) => {
    if (noisy) return;
    noisy = true;
    logger.warn(noiseWarning(name, line));
  };
  // Stderr lines come cut (MAX_STDERR_LINE); escaped here, as they reach a terminal.
  return async () => {
    const { getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
    return new StdioUpstreamTransport({ command, args, env: { ...getDefaultEnvironment(), ...passthrough, ...rcEnv }, cwd, onStderr: (line) => logger.info(`[${name}] ${outsideText(line, Number.POSITIVE_INFINITY)}`), onNoise });
  };
}

/** Characters of a server's stray stdout line quoted in its warning. */
const NOISE_QUOTE = 80;

/** The one warning about a server that writes lines other than MCP messages to stdout. */
function noiseWarning(name: string, line: string): string {
  const quote = clipText(line, NOISE_QUOTE + 1);
  return `${shownName(name)}: writes lines that are not MCP messages to stdout (first: ${JSON.stringify(quote)}); lazytools skips them and says so only this once. To silence it, make the server log to stderr or less (a quiet or log-level option or variable, in its documentation)`;
}
