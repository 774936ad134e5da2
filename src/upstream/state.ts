import type { Notification, PriorDiscovery } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../catalog/types.js';
import type { Era } from '../protocol/era.js';
import { NO_PRIMITIVES, type CallOrigin, type UpstreamPrimitives } from './primitives.js';
import type { PrimitiveKind, UpstreamRequest, UpstreamStatus } from './types.js';

/**
 * What the rest of lazytools reads of an upstream (status, lists, era, capabilities) and the
 * hooks it sets on one (changes, metrics, requests to the client): the face of Upstream, kept
 * apart from its lifecycle and call paths (upstream.ts).
 */
export abstract class UpstreamState {
  status: UpstreamStatus = 'idle';
  tools: ToolDefinition[] = [];
  lastError: string | undefined;
  /** Called after the upstream's own tools/list_changed has been re-listed. */
  onToolsChanged: ((upstream: this) => void) | undefined;
  /** Called when the status changes. */
  onStatus: ((upstream: this) => void) | undefined;
  /**
   * Hears each relayed request as it ends (metrics): method, tool or prompt name, milliseconds,
   * and whether it failed (an error, or a tool result with isError). Unset: no cost.
   */
  onSettled: ((upstream: this, method: string, name: string, ms: number, failed: boolean) => void) | undefined;
  /** Prompts, resources and templates, as listed at start and after the upstream's list_changed. */
  primitives: UpstreamPrimitives = NO_PRIMITIVES;
  /** The server's capabilities and instructions from its initialize answer (verbatim). */
  capabilities: Record<string, unknown> | undefined;
  instructions: string | undefined;
  /**
   * The era verdict, the one place the era is kept: the last connection's (`modern` with its
   * server/discover result, or `legacy`), or the lock's before the first start. The next start
   * connects with it and skips the probe.
   */
  discovery: PriorDiscovery | undefined;
  /** The latest request sent for a front session (routes requests that arrive outside a call). */
  lastOrigin: CallOrigin | undefined;
  /** Called after a prompts or resources list_changed was re-listed. */
  onPrimitivesChanged: ((upstream: this, kind: PrimitiveKind) => void) | undefined;
  /** Other notifications of the upstream (log messages, resources/updated), verbatim. */
  onNotification: ((upstream: this, notification: Notification) => void) | undefined;
  /** True while something needs the process even without calls (a session's subscriptions). */
  keepAlive: (() => boolean) | undefined;
  /**
   * The client capabilities to declare at the next start (sampling, elicitation, roots): the
   * front reflects its clients' own. Default: everything lazytools can route.
   */
  clientCapabilities: (() => Record<string, unknown>) | undefined;
  /** What clients are shown of the server's instructions (rc `pin`: the lock's); unset: `instructions`. */
  servedInstructions: (() => string | undefined) | undefined;
  /** Requests the upstream sends its client (sampling, elicitation, roots); the answer goes back. */
  onRequest: ((upstream: this, request: UpstreamRequest, signal: AbortSignal) => Promise<Record<string, unknown>>) | undefined;

  /** The protocol era the server speaks (see discovery): `modern` (2026-07-28) or `legacy`. */
  get era(): Era | undefined {
    return this.discovery?.kind;
  }
}
