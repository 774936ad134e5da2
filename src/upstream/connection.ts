import type { Client, PriorDiscovery, Transport } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../catalog/types.js';
import { outsideText, redact, redactValue } from '../util/redact.js';
import { ConnectFailure, connectEitherEra, type ClientHooks } from './client.js';
import { listPrimitives, listTools } from './lister.js';
import { ModernChannel } from './modern.js';
import type { UpstreamPrimitives } from './primitives.js';
import { StdioUpstreamTransport } from './stdio-transport.js';
import type { UpstreamRequest } from './types.js';

/** What one start learns: the connection, the era verdict and the server's answers (redacted). */
export interface Connection {
  client: Client;
  transport: Transport;
  discovery: PriorDiscovery;
  capabilities: Record<string, unknown> | undefined;
  instructions: string | undefined;
  tools: ToolDefinition[];
  primitives: UpstreamPrimitives;
  /** The 2026-07-28 side, when the server speaks that era. */
  modern: ModernChannel | undefined;
}

export interface OpenOptions {
  name: string;
  connect: () => Promise<Transport>;
  hooks: ClientHooks;
  /** The era verdict to connect with (the last connection's or the lock's). */
  known: PriorDiscovery | undefined;
  timeout: number;
  /** Speak 2026-07-28 or fail, and watch nothing (the twin). */
  twin: boolean;
  /** Wires the connection before anything is listed on it (the raw side, what its close means). */
  opened(client: Client, transport: Transport): void;
  /** The start failed: forget the connection before it is closed (its close is then no crash). */
  abandon(): void;
  warn(message: string): void;
  ask(request: UpstreamRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** A start that failed, with why for people (exit code and stderr tail of a child that died). */
export class StartFailure extends Error {}

/** Connects in the server's era and lists what it offers; fails with a StartFailure. */
export async function openConnection(options: OpenOptions): Promise<Connection> {
  let client: Client | undefined;
  let transport: Transport | undefined;
  try {
    ({ client, transport } = await connectEitherEra(options.connect, options.hooks, options.known, options.timeout, options.twin));
    options.opened(client, transport);
    const discover = client.getProtocolEra() === 'modern' ? client.getDiscoverResult() : undefined;
    const capabilities = redactValue(client.getServerCapabilities() as Record<string, unknown> | undefined, options.name);
    const instructions = redactValue(client.getInstructions(), options.name);
    const [tools, primitives] = await Promise.all([listTools(client, options.timeout, options.warn), listPrimitives(client, options.timeout, options.warn)]);
    const modern = discover ? new ModernChannel(options.name, client, capabilities ?? {}, options.hooks, options.ask) : undefined;
    // The twin serves requests only: the main connection watches for changes.
    if (!options.twin) void modern?.listen();
    return { client, transport, discovery: discover ? { kind: 'modern', discover: redactValue(discover, options.name) } : { kind: 'legacy' }, capabilities, instructions, tools, primitives, modern };
  } catch (error) {
    const failed = error instanceof ConnectFailure ? error : undefined;
    const message = describe(failed ? failed.failure : error, failed ? failed.transport : transport);
    options.abandon();
    await client?.close().catch(() => {});
    throw new StartFailure(message);
  }
}

/** Why a start failed, for people: exit code and stderr tail of a child that died, bodies cut short. */
function describe(error: unknown, transport: Transport | undefined): string {
  const err = error as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return redact(`command not found (${err.path ?? 'spawn'})`);
  // fetch says only "fetch failed": the reason (ENOTFOUND, ECONNREFUSED, a certificate) is its cause.
  const cause = (err?.cause as Error | undefined)?.message;
  const base = outsideText(`${err?.message ?? String(error)}${cause && err?.message?.includes(cause) !== true ? ` (${cause})` : ''}`);
  // An exit after lazytools closed the transport (an initialize answer refused) is not the cause.
  if (transport instanceof StdioUpstreamTransport && transport.exit && !transport.closeAsked) {
    const { code, signal } = transport.exit;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    return `the process ${how} during start-up (${base})${stderrSaid(transport)}${brokenNpxCache(transport.stderrSummary)}`;
  }
  return base;
}

/**
 * What a starting child wrote on stderr, as the tail of a start-up error (`; its stderr said:` and
 * its last lines), or '' when it wrote nothing or is no process: a proxy that cannot reach its
 * host says so there, and waits.
 */
export function stderrSaid(transport: Transport | undefined): string {
  const stderr = transport instanceof StdioUpstreamTransport ? transport.stderrSummary : '';
  return stderr ? `; its stderr said:\n${outsideText(stderr, 1400)}` : '';
}

/**
 * npx installs a package into its cache in place: an install stopped midway (a start timeout, a
 * gateway stopped during `npx -y`'s first download) or racing another npx leaves a folder that
 * fails with a missing module. Says which folder, since a stopped install is not mended by itself.
 */
function brokenNpxCache(stderr: string): string {
  if (!/MODULE_NOT_FOUND|Cannot find (?:module|package)/.test(stderr)) return '';
  const folder = /((?:[A-Za-z]:)?[^\s'"`]*[\\/]_npx[\\/][0-9a-f]+)[\\/]node_modules/.exec(stderr)?.[1];
  return folder ? `\nnpx's cache for this package looks incomplete (an install cut short, or another npx installing it at the same time): start it again, and if it fails the same way, delete ${outsideText(folder, 300)}` : '';
}
