import type { ResolvedConfig } from '../config/resolve.js';
import type { Route } from '../focus/scope.js';

/** Where a 2026-07-28 client can reach a mode without a session. */
export interface ModeReach {
  /** The server variant id to send as `_meta["io.modelcontextprotocol/server-variant"]`, when variants are on. */
  variant?: string;
  /** The endpoint that serves only this mode, over HTTP. */
  url?: string;
  /** The command that serves only this mode over stdio. */
  command?: string;
}

/** Where the gateway serves (a caller's route): the HTTP base (`http://host:port/mcp`) or stdio, and the modes `serve --mode` serves. */
export type ServedAt = Pick<Route, 'baseUrl' | 'served'>;

/**
 * The ways a modern client reaches `mode`: its variant (when variants are on and offer it), its
 * `/mcp/<mode>` URL over HTTP (when this gateway serves it), or `serve --mode` over stdio.
 */
export function reachOf(config: Pick<ResolvedConfig, 'variants'>, at: ServedAt, mode: string): ModeReach {
  const reach: ModeReach = {};
  if (config.variants?.includes(mode)) reach.variant = mode;
  if (at.baseUrl !== undefined && (at.served === undefined || at.served.includes(mode))) reach.url = `${at.baseUrl}/${encodeURIComponent(mode)}`;
  if (at.baseUrl === undefined) reach.command = `lazytools serve --mode ${mode}`;
  return reach;
}

/** One line saying how to reach a mode. */
export function reachText(mode: string, reach: ModeReach): string {
  const ways: string[] = [];
  if (reach.variant) ways.push(`send _meta {"io.modelcontextprotocol/server-variant": "${reach.variant}"} on each request`);
  if (reach.url) ways.push(`connect to ${reach.url}`);
  if (reach.command) ways.push(`run \`${reach.command}\``);
  return ways.length > 0 ? `To work in mode "${mode}": ${ways.join(', or ')}.` : `Mode "${mode}" is not served here.`;
}
