import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { parseConfig } from '../config/load.js';
import { resolveConfig } from '../config/resolve.js';
import { serverNameProblem, type RcConfig } from '../config/schema.js';
import { quotedName } from '../config/secrets.js';
import { ConfigError } from '../util/errors.js';
import { Upstream } from '../upstream/upstream.js';
import { stderrLogger, type Logger } from '../util/log.js';
import { VERSION } from '../util/version.js';
import type { SessionOptions } from '../callers/session.js';
import { Gateway } from './gateway.js';
import type { FrontSession } from '../callers/session.js';

/** Anything that serves MCP over a transport: the SDK's `McpServer` or low-level `Server`. */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
}

export interface CurateOptions extends SessionOptions {
  /**
   * Server name used in tool ids (`<name>:<tool>`), `tools.<id>` keys and group `servers`
   * patterns, as an rc's server names are (letters, digits, `_`, `-`, `.`, at most 64; else a
   * ConfigError). Default: the server's own name from its `serverInfo` (`new McpServer({ name })`).
   */
  name?: string | undefined;
  /** rc-style configuration: groups, modes, defaultMode, strategy, ... (validated like an rc file). */
  config?: RcConfig | undefined;
  /** Where warnings (unknown `tools.<id>` keys, tools in no group) go; default stderr. */
  logger?: Logger | undefined;
}

/** Your server, curated: connect it to any transport instead of the original. */
export interface CuratedServer {
  gateway: Gateway;
  /** Connects one client session (call once per transport). */
  connect(transport: Transport): Promise<FrontSession>;
  close(): Promise<void>;
}

/**
 * Curates an SDK server in process: its tools become an in-process upstream (InMemoryTransport)
 * behind lazytools' focus modes, search and budgets, with no child process and no network.
 *
 * @example
 * const app = new McpServer({ name: 'billing', version: '1.0.0' }); // tool ids: billing:<tool>
 * app.registerTool('bill_customer', { ... }, handler);
 * const curated = await curate(app, { config: { groups: { billing: { tools: ['*invoice*'] } },
 *   modes: { billing: { groups: ['billing'] } }, defaultMode: 'billing' } });
 * await curated.connect(new StdioServerTransport());
 */
export async function curate(server: ConnectableServer, options: CurateOptions = {}): Promise<CuratedServer> {
  const config = resolveConfig(parseConfig(options.config ?? {}));
  const name = options.name ?? (await serverName(server, config.startTimeoutMs));
  // Named as an rc names a server: "a:b" split every id, and any length reached every id, search answer and log line.
  const badName = serverNameProblem(name);
  if (badName !== undefined) throw new ConfigError(`name: ${quotedName(name)} cannot name a server: expected ${badName}`);
  let connected = false;
  const upstream = new Upstream(name, {
    connect: async () => {
      if (connected) throw new Error(`the in-process server "${name}" cannot be reconnected`);
      connected = true;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      // Awaited: a server that will not connect (one already connected elsewhere) fails the start
      // with its reason, instead of an unhandled rejection that ends the host process.
      await server.connect(serverSide);
      return clientSide;
    },
    logger: options.logger,
    startTimeoutMs: config.startTimeoutMs,
  });
  const logger = options.logger ?? stderrLogger;
  const gateway = new Gateway({ config, upstreams: [upstream], logger });
  await gateway.start();
  if (upstream.status !== 'ready') {
    // Why the start failed (its error, or the start timeout it ran past), as `serve` logs it.
    const reason = gateway.serverStates().find((state) => state.name === name)?.reason ?? upstream.lastError;
    await gateway.close();
    throw new Error(reason ?? `could not list the tools of "${name}"`);
  }
  for (const warning of gateway.warnings) logger.warn(warning);
  return {
    gateway,
    async connect(transport) {
      const session = gateway.createSession({ mode: options.mode, strategy: options.strategy });
      await session.connect(transport);
      return session;
    },
    close: () => gateway.close(),
  };
}

/**
 * The server's own name, from the `serverInfo` of an in-memory handshake (then closed), so tool
 * ids read `billing:bill_customer` for `new McpServer({ name: 'billing' })`; "app" when it has none
 * or one an rc could not hold (serverNameProblem: a 100,000-character name was repeated in every
 * search answer, once per tool).
 * Bounded by the start timeout like the start itself: a server whose connect() or initialize
 * never finishes failed curate() with no end.
 */
async function serverName(server: ConnectableServer, timeoutMs: number): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const probe = new Client({ name: 'lazytools-curate', version: VERSION });
  const handshake = (async () => {
    await server.connect(serverSide);
    await probe.connect(clientSide);
    const name = probe.getServerVersion()?.name;
    return typeof name === 'string' && serverNameProblem(name) === undefined ? name : 'app';
  })();
  // Settled late (after the timeout) it has no one to tell.
  handshake.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the server gave no serverInfo within the start timeout (${timeoutMs} ms): its connect() or initialize did not finish (pass \`name\` to name it without asking)`)), timeoutMs);
  });
  try {
    return await Promise.race([handshake, late]);
  } finally {
    clearTimeout(timer);
    await probe.close().catch(() => {});
  }
}
