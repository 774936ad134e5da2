import type { CatalogTool } from '../../catalog/catalog.js';
import { callRefusal, statelessStrategy, type Boundary, type PolicySubject } from '../../focus/policy.js';
import type { FocusState } from '../../focus/machine.js';
import type { CallOrigin } from '../../upstream/primitives.js';
import type { RequestId } from '../../util/jsonrpc.js';
import type { CallVia, ToolsView } from '../../handlers/context.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { modernFocusMode } from './focus.js';
import type { ServedAt } from './reach.js';
import type { StatelessOrigin } from '../../hub/client-requests.js';
import { ErrorCode, rpcError } from '../../protocol/errors.js';
import type { Gateway } from '../../hub/gateway.js';
import type { InputAsker } from '../../hub/input-rounds.js';
import { declaresGroups } from '../../handlers/groups-ext.js';
import { ToolLists } from '../../handlers/tool-lists.js';

/**
 * One 2026-07-28 request as the mode rules and the meta-tools see it: a mode fixed for the
 * request (from its endpoint, token or variant, see policy.requestMode), nothing remembered
 * between requests. It has the shape of a legacy session where the meta-tools and
 * callCatalogTool look (gateway, mode, strategy, inMode, refusal, origin), with `stateless` set
 * so search adds nothing. Its tools/list (handlers/tool-lists) is the same whatever the request
 * declares: it carries a shared cache hint (`cacheScope` "public" without tokens), so it must not
 * vary by capabilities (a 2025 session, which no shared cache serves, leaves list_tool_groups out
 * for a client of the groups extension).
 */
export class ModernView extends ToolLists implements ToolsView, PolicySubject, StatelessOrigin {
  readonly stateless = true;
  /** The client capability an upstream needed during this request and the client did not declare. */
  missing: string | undefined;
  /** Carries an upstream's request to this request's client as an input_required round. */
  asker: InputAsker | undefined;
  readonly fixedMode: string | undefined;
  readonly strategy: 'proxy' | 'hybrid';

  constructor(
    readonly gateway: Gateway,
    readonly mode: string,
    /** True when the endpoint, `serve --mode` or a token fixed the mode: no focus_mode then. */
    readonly bound: boolean,
    /** The request's boundary (its endpoint and its token's modes; policy.boundaryOf). */
    readonly boundary: Boundary,
    strategySetting: string,
    /** The capabilities the request's envelope declared. */
    private readonly declared: Readonly<Record<string, unknown>> = {},
    /** Where the gateway serves (focus_mode tells how to reach a mode from there). */
    private readonly at: ServedAt = {},
  ) {
    super();
    this.fixedMode = bound ? mode : undefined;
    this.strategy = statelessStrategy(strategySetting);
  }

  /** The focus state this request stands in (its mode, nothing enabled or discovered). */
  get focus(): FocusState {
    return { mode: this.mode, enabled: [], disabled: [], discovered: [] };
  }

  /** One focus state for the whole request. */
  protected focusKey(): object {
    return this;
  }

  /** Requests of one view see the same groups: its mode, binding, boundary and strategy say which (not the request object). */
  override groupsKey(): string {
    return JSON.stringify([this.mode, this.bound, this.boundary, this.strategy]);
  }

  /** True when this request's client capabilities declare the groups extension (its own list then). */
  get groupsDeclared(): boolean {
    return declaresGroups(this.declared);
  }

  /** focus_mode for a request: how to reach a mode, never a switch (front/modern/focus). */
  focusMode(args: unknown): CallToolResult {
    return modernFocusMode(this, this.at, args);
  }

  /** A request has no focus changes to relate: runs the handler. */
  whileHandling<T>(_requestId: RequestId | undefined, handler: () => T): T {
    return handler();
  }

  /** Nothing to change: a stateless request has no focus state (search never enables). */
  focusEvent(): void {}

  /** Nothing to remember: usage counts calls by how they came, search state does not survive a request. */
  noteSearched(): void {}

  refusal(tool: CatalogTool): string | undefined {
    return callRefusal(this.gateway.config, this, tool);
  }

  /** The origin upstream requests carry for this request (no session: nothing routes back to it). */
  origin(requestId: RequestId | undefined): CallOrigin {
    return { session: this, requestId };
  }

  /**
   * An upstream asked this request's client something (sampling, elicitation, roots): without the
   * declared capability that is -32021 for the whole request (roots: an empty list); with it, an input_required round
   * for the client (InputRounds), whose retry brings the answer back to the upstream.
   */
  askClient(method: string, params: Record<string, unknown> | undefined, need: string | undefined, server: string): Promise<Record<string, unknown>> {
    // lazytools tells upstreams it has roots (it relays them), so one may ask at any time (the
    // filesystem server asks as it starts, maybe during this request): without declared roots
    // the answer is none, not a failed request.
    if (method === 'roots/list' && !this.declared.roots) return Promise.resolve({ roots: [] });
    if (need !== undefined && !this.declared[need]) {
      this.missing ??= need;
      return Promise.reject(rpcError(ErrorCode.MissingClientCapability, `lazytools: "${server}" needs the client capability ${need} (${method}), which this request did not declare`));
    }
    if (!this.asker) return Promise.reject(rpcError(ErrorCode.InternalError, `lazytools: ${method} from "${server}" came outside a request that can ask its client`));
    return this.asker.ask(method, params);
  }

  /** Records a call in the usage log under this request's mode (rc `usage: true`). */
  recordUsage(tool: CatalogTool, via: CallVia): void {
    this.gateway.usage?.record(this.mode, tool.id, via);
  }
}
