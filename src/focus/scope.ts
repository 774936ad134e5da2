import type { ServedStrategy } from '../catalog/own-tools.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Strategy } from '../config/schema.js';
import type { Era } from '../protocol/era.js';
import { clipText } from '../util/bounds.js';
import { modeNamed, servedRefusal, someModes, type Boundary } from './policy.js';

/*
 * The one resolver of a caller's scope: its mode, whether that mode is fixed, its boundary and
 * the strategy it is served with, from what the transport knows (a Route) and what the caller
 * says (its era, a 2026-07-28 request's server variant, a 2025 client's name). Every front asks
 * here: the HTTP listener for its path and token checks, a 2025 session when it opens and when
 * its client initializes, a 2026-07-28 request for each message, the listen streams per change.
 */

/** What the transport knows about a caller before its first message; the same for both eras. */
export interface Route {
  /** The mode of the path (`/mcp/<mode>`). */
  endpoint?: string | undefined;
  /** The modes `serve --mode` serves (the only ones reachable), when set. */
  served?: readonly string[] | undefined;
  /** The modes the bearer token may use (rc `auth.tokens`). */
  tokenModes?: readonly string[] | undefined;
  /** The token's label, for messages (never the token). */
  tokenLabel?: string | undefined;
  /** The strategy setting (`--strategy`, `?strategy=`), else the rc's. */
  strategy?: Strategy | undefined;
  /** The HTTP endpoint without a mode (`http://127.0.0.1:8765/mcp`); undefined over stdio. */
  baseUrl?: string | undefined;
  /** The variant hints of a server/discover request (callers/variants variantHintsOf). */
  variantHints?: unknown;
  /** True when answers depend on the bearer token (the rc maps tokens): lists are `private`. */
  tokenScoped?: boolean | undefined;
}

/** A caller's scope: the mode it starts in (a request: runs in), its fixed mode, its boundary. */
export interface Scope {
  mode: string;
  /** Set when nothing the caller does may change its mode (endpoint, `serve --mode`, a token's only mode). */
  fixedMode: string | undefined;
  boundary: Boundary;
}

/**
 * The scope of a caller. A 2025 session: the endpoint's mode (or the first `serve --mode` one)
 * fixes it, a token of one mode too; a token of several lets it switch among them. A 2026-07-28
 * request: its variant, else its endpoint, else the first served mode the token allows, else the
 * token's first mode, else `defaultMode`; any of endpoint, served modes or token fixes it. A
 * variant must be offered (rc `variants`), an endpoint's mode cannot be swapped by a variant, and
 * nothing leaves the served modes or the token's. The refusal names what is allowed.
 */
export function resolveScope(config: Pick<ResolvedConfig, 'modes' | 'defaultMode' | 'variants'>, route: Route, caller: { era: Era; variant?: unknown }): Scope | { refusal: string } {
  if (caller.era === 'modern') {
    const resolved = requestMode(config, route, caller.variant);
    if ('refusal' in resolved) return resolved;
    return { mode: resolved.mode, fixedMode: resolved.bound ? resolved.mode : undefined, boundary: boundaryOf(route) };
  }
  const endpoint = route.endpoint ?? route.served?.[0];
  if (route.tokenModes !== undefined) {
    const allowed = requestMode(config, { ...route, endpoint });
    if ('refusal' in allowed) return allowed;
  }
  const boundary = boundaryOf({ ...route, endpoint, served: undefined });
  const fixedMode = endpoint ?? (boundary.modes?.length === 1 ? boundary.modes[0] : undefined);
  return { mode: fixedMode ?? boundary.modes?.find((name) => modeNamed(config, name)) ?? config.defaultMode, fixedMode, boundary };
}

/**
 * The strategy a caller is served with. A 2026-07-28 request: `proxy` stays, every other setting
 * becomes `hybrid`, since no list changes per client (`notify`'s search-adds-to-the-list cannot
 * work, and `auto` would vary the list by client name). A 2025 session: `auto` by its client's
 * name (CLIENT_TABLE; unknown clients, and reports that know no client, get `hybrid`).
 */
export function servedStrategy(setting: Strategy, era: Era = 'legacy', clientName?: string): ServedStrategy {
  if (era === 'modern') return setting === 'proxy' ? 'proxy' : 'hybrid';
  if (setting !== 'auto') return setting;
  const name = (clientName ?? '').toLowerCase();
  return CLIENT_TABLE.find((row) => name.includes(row.match))?.strategy ?? 'hybrid';
}

/**
 * The strategy each known client gets under `auto`, by `clientInfo.name` (lowercase substring,
 * first match wins). Clients that act on `notifications/tools/list_changed` within a conversation
 * get `notify`; clients that ignore it get `proxy` (constant list, everything through
 * execute_tool); Claude Code, reported to often ignore changes mid-conversation, gets `hybrid`.
 */
const CLIENT_TABLE: ReadonlyArray<{ match: string; strategy: ServedStrategy }> = [
  { match: 'claude-code', strategy: 'hybrid' }, // Claude Code
  { match: 'claude', strategy: 'proxy' }, // Claude Desktop
  { match: 'cursor', strategy: 'proxy' },
  { match: 'codex', strategy: 'proxy' },
  { match: 'continue', strategy: 'proxy' },
  { match: 'zed', strategy: 'proxy' },
  { match: 'visual studio code', strategy: 'notify' }, // VS Code Copilot
  { match: 'vscode', strategy: 'notify' },
  { match: 'copilot', strategy: 'notify' }, // Copilot CLI
  { match: 'windsurf', strategy: 'notify' },
  { match: 'cline', strategy: 'notify' },
  { match: 'goose', strategy: 'notify' },
];

/** The boundary of a route: its fixed mode (or the served ones) narrowed by its token's modes. */
export function boundaryOf(route: Pick<Route, 'endpoint' | 'served' | 'tokenModes' | 'tokenLabel'>): Boundary {
  const { endpoint, served, tokenModes } = route;
  const fixed = endpoint !== undefined ? [endpoint] : served;
  const modes = tokenModes === undefined ? fixed : fixed === undefined ? [...tokenModes] : fixed.filter((name) => tokenModes.includes(name));
  return { modes, token: tokenModes !== undefined, label: route.tokenLabel };
}

/** Characters of an unknown variant (any JSON value a request sends) its refusal quotes. */
const VARIANT_ECHO = 80;

/** The mode a stateless request runs in (and whether something fixed it), or why it may not run. */
function requestMode(config: Pick<ResolvedConfig, 'modes' | 'defaultMode' | 'variants'>, route: Route, variant?: unknown): { mode: string; bound: boolean } | { refusal: string } {
  const { endpoint, served, tokenModes } = route;
  if (variant !== undefined) {
    if (config.variants === undefined) return { refusal: 'Server variants are not enabled on this gateway (rc "variants": {"enabled": true}); omit io.modelcontextprotocol/server-variant.' };
    if (typeof variant !== 'string' || !config.variants.includes(variant) || !modeNamed(config, variant))
      return { refusal: `Unknown server variant ${clipText(JSON.stringify(variant) ?? String(variant), VARIANT_ECHO)}. Variants: ${someModes(config.variants.filter((name) => !tokenModes || tokenModes.includes(name)))}.` };
  }
  const unknownEndpoint = endpoint === undefined ? undefined : servedRefusal(config, endpoint, undefined, tokenModes);
  if (unknownEndpoint !== undefined) return { refusal: unknownEndpoint };
  if (endpoint !== undefined && variant !== undefined && variant !== endpoint)
    return { refusal: `This endpoint serves mode "${endpoint}" only; variant "${String(variant)}" is served at /mcp without a mode (or at /mcp/${String(variant)}).` };
  const mode =
    (variant as string | undefined) ??
    endpoint ??
    (served && tokenModes ? served.find((name) => tokenModes.includes(name)) : undefined) ??
    served?.[0] ??
    tokenModes?.[0] ??
    config.defaultMode;
  const unserved = servedRefusal(config, mode, served, tokenModes);
  if (unserved !== undefined) return { refusal: unserved };
  if (tokenModes !== undefined && !tokenModes.includes(mode)) return { refusal: `The bearer token${route.tokenLabel ? ` "${route.tokenLabel}"` : ''} may use mode(s) ${someModes(tokenModes)} only, not "${mode}".` };
  return { mode, bound: endpoint !== undefined || served !== undefined || tokenModes !== undefined };
}
