import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ServedStrategy } from '../catalog/own-tools.js';
import { resolveScope, servedStrategy, type Route, type Scope } from '../focus/scope.js';
import { initialFocus, type FocusState } from '../focus/state.js';
import { missingClientCapability, modeRefused, noAskingRequest } from '../protocol/errors.js';
import { CallerBase, type VisibleSet } from './caller.js';
import type { StatelessOrigin } from './client-requests.js';
import type { Hub } from './hub.js';
import type { InputAsker } from './input-rounds.js';

/**
 * The caller of one 2026-07-28 request: its scope from the route and the request's server variant
 * (focus/scope.ts), with the client capabilities its envelope declared; the invalid-params error
 * saying why when it may not run.
 */
export function requestCaller(hub: Hub, route: Route, request: { variant?: unknown; declared?: unknown } = {}): ModernRequest {
  const scope = resolveScope(hub.config, route, { era: 'modern', variant: request.variant });
  if ('refusal' in scope) throw modeRefused(scope.refusal);
  const declared = typeof request.declared === 'object' && request.declared !== null ? (request.declared as Record<string, unknown>) : {};
  return new ModernRequest(hub, route, scope, declared);
}

/** Scopes (mode and boundary) whose visible sets one config keeps for its requests; past it they start over. */
const SHARED_SCOPES = 256;
/**
 * The visible sets of 2026-07-28 requests, per config, then per scope: a request's focus is its
 * mode's initial one, so requests of one scope share one set until the catalog or the config
 * changes (a bearer token's boundary or hiddenTools "reject" asks it on every call).
 */
const sharedVisible = new WeakMap<object, Map<string, VisibleSet>>();

/**
 * One 2026-07-28 request as every handler sees it: its scope resolved from the request (endpoint,
 * token, server variant; focus/scope.ts), the initial focus of its mode, nothing remembered
 * between requests. Its tools/list is the same whatever the request declares: it carries a
 * shared cache hint (`cacheScope` "public" without tokens), so it must not vary by capabilities
 * (a 2025 session, which no shared cache serves, leaves list_tool_groups out for a client of the
 * groups extension).
 */
export class ModernRequest extends CallerBase implements StatelessOrigin {
  readonly era = 'modern';
  readonly focus: FocusState;
  readonly strategy: ServedStrategy;
  /** The client capability an upstream needed during this request and the client did not declare. */
  missing: string | undefined;
  /** Carries an upstream's request to this request's client as an input_required round. */
  asker: InputAsker | undefined;

  constructor(
    hub: Hub,
    route: Route,
    scope: Scope,
    /** The capabilities the request's envelope declared. */
    private readonly declared: Readonly<Record<string, unknown>> = {},
  ) {
    super(hub, route, scope);
    this.focus = initialFocus(scope.mode);
    this.strategy = servedStrategy(route.strategy ?? hub.config.strategy, 'modern');
  }

  clientCapabilities(): ClientCapabilities {
    return this.declared as ClientCapabilities;
  }

  /** A request's focus is its mode's initial one: its visible set follows its mode and boundary. */
  protected override focusKey(): string {
    return JSON.stringify([this.mode, this.boundary.modes ?? null, this.boundary.token]);
  }

  protected override keptVisible(): VisibleSet | undefined {
    return sharedVisible.get(this.hub.config)?.get(this.focusKey());
  }

  protected override keepVisible(set: VisibleSet): void {
    let sets = sharedVisible.get(this.hub.config);
    if (!sets) sharedVisible.set(this.hub.config, (sets = new Map()));
    if (sets.size >= SHARED_SCOPES) sets.clear();
    sets.set(set.focus as string, set);
  }

  /** A request's focus is new each time: its groups follow its mode, fixed mode, boundary and strategy. */
  override groupsKey(): string {
    return JSON.stringify([this.mode, this.fixedMode, this.boundary, this.strategy]);
  }

  /**
   * An upstream asked this request's client something (sampling, elicitation, roots): without the
   * declared capability that is -32021 for the whole request (roots: an empty list); with it, an
   * input_required round for the client (InputRounds), whose retry brings the answer back to the upstream.
   */
  askClient(method: string, params: Record<string, unknown> | undefined, need: string | undefined, server: string): Promise<Record<string, unknown>> {
    // lazytools tells upstreams it has roots (it relays them), so one may ask at any time (the
    // filesystem server asks as it starts, maybe during this request): without declared roots
    // the answer is none, not a failed request.
    if (method === 'roots/list' && !this.declared.roots) return Promise.resolve({ roots: [] });
    if (need !== undefined && !this.declared[need]) {
      this.missing ??= need;
      return Promise.reject(missingClientCapability(need, { method, server }));
    }
    if (!this.asker) return Promise.reject(noAskingRequest(method, server));
    return this.asker.ask(method, params);
  }
}
