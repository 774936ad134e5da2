import type { CatalogHub, RoutingContext, ServerState, SessionLink } from '../handlers/caller.js';
import type { ListKind } from '../upstream/types.js';
import type { PrimitiveKind } from '../upstream/upstream.js';
import type { InputRounds } from './input-rounds.js';

/**
 * The gateway as callers and transports reach it (app/gateway.ts implements it): the catalog
 * view every handler reads, the routing of prompts and resources, the open 2025 sessions, the
 * 2026-07-28 input rounds, and the hooks that tell fronts when a list may have changed.
 */
export interface Hub extends CatalogHub, RoutingContext {
  /** The open 2025 sessions (callers/session.ts adds and removes its own). */
  readonly sessions: Set<OpenSession>;
  /** 2025 upstreams' questions to 2026-07-28 clients, waiting for the clients' retries. */
  readonly inputRounds: InputRounds<unknown>;
  /**
   * Told when a list may have changed: `tools` after the catalog was rebuilt or the config
   * reloaded, `prompts`/`resources` when an upstream's list changed. The 2026-07-28 fronts turn
   * these into notifications on subscriptions/listen streams (they check what really changed,
   * groups-listen too); on `tools` the fronts also end what a reload took away (http-grants
   * revoked, a stdio fixed mode gone) and /metrics prunes its labels.
   */
  readonly listChangeListeners: Set<(kind: ListKind) => void>;
  /** list_changed notifications sent to sessions (metrics). */
  listChangedSent: number;
  /** True once the initial starts settled (readiness). */
  readonly settled: boolean;
  /** The initial start while it runs (lists wait for it), else undefined. */
  ready(): Promise<void> | undefined;
  /** A session closed: it leaves `sessions`, and its resource subscriptions are dropped. */
  sessionClosed(session: OpenSession): void;
  serverStates(): ServerState[];
}

/** A 2025 session as the gateway keeps it: told of reloads, catalog rebuilds and upstream list changes. */
export interface OpenSession extends SessionLink {
  /** The upstreams this session may reach (a token's servers only): what it may hear from. */
  readonly routing: Pick<RoutingContext, 'upstreams'>;
  /** After a config reload: keeps its mode and groups where they still fit; a fixed mode gone ends it. */
  reconfigure(): void;
  /** After the catalog was rebuilt: checks its list (list_changed only when it changed). */
  catalogChanged(): void;
  /** An upstream's prompts or resources changed: tells the client when it may hear so. */
  listChanged(kind: PrimitiveKind): void;
  close(): Promise<void>;
}
