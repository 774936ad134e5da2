import type { CallToolResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../catalog/catalog.js';
import { FOCUS_MODE } from '../catalog/own-tools.js';
import { switchRefusal } from '../focus/policy.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { callCatalogTool, callContext, type CallContext } from './call.js';
import { handleMetaTool, isMetaTool, unlistedMetaTool } from './meta-tools.js';
import { listPage } from './paging.js';
import { entryName, listEntry } from './tool-lists.js';
import { errorResult } from './results.js';
import { echoName } from '../util/errors.js';
import type { ListingSession, RelayRoute, ToolsView } from './context.js';

/**
 * How a front runs one tools/call around the handler: the 2025 session calls it with the SDK
 * request's context; a 2026-07-28 request adds its input rounds and capability checks
 * (front/modern/server).
 */
export type CallRunner<V extends ToolsView> = (view: V, ctx: ServerContext, name: string, handle: (call: CallContext) => Promise<CallToolResult>) => Promise<unknown>;

const runDirectly: CallRunner<ToolsView> = (_view, ctx, _name, handle) => handle(callContext(ctx));

/**
 * tools/list (own tools, then the listed catalog tools, paged) and tools/call, for both eras:
 * `viewOf` gives the session's view (2025) or the request's (2026-07-28), `run` wraps each call.
 */
export function registerTools<V extends ToolsView>(server: Server, viewOf: (ctx: ServerContext) => V, run: CallRunner<V> = runDirectly): void {
  server.setRequestHandler('tools/list', (request, ctx) => {
    const entries = viewOf(ctx).listEntries();
    if (entries.length >= LARGE_CATALOG) compactSoon();
    return listPage(entries, request.params?.cursor, entryName, 'tools', listEntry) as never;
  });
  server.setRequestHandler('tools/call', (request, ctx) => {
    const view = viewOf(ctx);
    const { name, arguments: args } = request.params;
    return run(view, ctx, name, (call) => handleCall(view, name, args, call)) as never;
  });
}

/**
 * Routes one call: focus_mode (when policy lets the caller change its mode), a discovery
 * meta-tool, or a catalog tool. Never throws, except an upstream's JSON-RPC error on a
 * 2026-07-28 retry (callCatalogTool), which is that request's answer.
 */
async function handleCall(view: ToolsView, name: string, args: unknown, call: CallContext): Promise<CallToolResult> {
  try {
    if (name === FOCUS_MODE) {
      const refused = switchRefusal(view);
      if (refused) return errorResult(refused);
      return view.whileHandling(call.requestId, () => view.focusMode(args));
    }
    if (isMetaTool(name) && view.ownDefinitions().some((tool) => tool.name === name))
      return await view.whileHandling(call.requestId, () => handleMetaTool(view, name, args, call));
    // Upstream tools with these names are always served prefixed, so this is one of ours.
    if (isMetaTool(name)) return unlistedMetaTool(view, name);
    return await callCatalogTool(view, name, args, call, 'direct');
  } catch (error) {
    if (call.passInput && typeof (error as { code?: unknown }).code === 'number') throw error;
    return errorResult(`lazytools could not handle "${echoName(name)}": ${(error as Error).message}`);
  }
}

/**
 * The relay route of a `tools/call` for a permitted catalog tool (the upstream's own name put
 * back); undefined leaves the request to the SDK handler (own tools, refusals, unknown names).
 */
export function toolRelayRoute(session: ListingSession, params: Record<string, unknown>): RelayRoute | undefined {
  if (typeof params.name !== 'string') return undefined;
  const tool: CatalogTool | undefined = session.gateway.catalog.byName.get(params.name);
  if (!tool || session.refusal(tool)) return undefined;
  const upstream = session.gateway.upstreamOf(tool);
  if (!upstream) return undefined;
  return {
    upstream,
    params: { ...params, name: tool.name },
    failure: (error) => ({ result: errorResult(`Tool "${tool.exposedName}" failed: ${error.message}`) }),
    record: () => session.recordUsage(tool, 'direct'),
  };
}
