import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import { findTool, type CatalogTool, type ToolDefinition } from '../catalog/catalog.js';
import { FOCUS_MODE } from '../catalog/own-tools.js';
import { switchRefusal } from '../focus/policy.js';
import { notHandled, toolError, toolFailed } from '../protocol/errors.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { callCatalogTool, permitted } from './call.js';
import type { CallContext, Caller, CallerFront, ListEntry, RelayRoute } from './caller.js';
import { focusMode } from './focus-mode.js';
import { handleMetaTool, isMetaTool, unlistedMetaTool } from './meta-tools.js';
import { listPage } from './paging.js';

/**
 * tools/list (own tools, then the listed catalog tools, paged) and tools/call, for both eras: the
 * front gives the caller of each request (a 2025 session, a 2026-07-28 request) and runs each call.
 */
export function registerTools<C extends Caller>(server: Server, front: CallerFront<C>): void {
  server.setRequestHandler('tools/list', (request, ctx) => {
    const entries = front.callerOf(ctx).listEntries();
    if (entries.length >= LARGE_CATALOG) compactSoon();
    return listPage(entries, request.params?.cursor, entryName, 'tools', listEntry) as never;
  });
  server.setRequestHandler('tools/call', (request, ctx) => {
    const caller = front.callerOf(ctx);
    const { name, arguments: args } = request.params;
    return front.run(caller, ctx, `tools/call ${name}`, (call) => handleCall(caller, name, args, call)) as never;
  });
}

/**
 * Routes one call: focus_mode (when policy lets the caller use it), a discovery meta-tool, or a
 * catalog tool. Never throws, except an upstream's JSON-RPC error on a 2026-07-28 retry
 * (callCatalogTool), which is that request's answer.
 */
async function handleCall(caller: Caller, name: string, args: unknown, call: CallContext): Promise<CallToolResult> {
  try {
    if (name === FOCUS_MODE) {
      const refused = switchRefusal(caller);
      if (refused) return toolError(refused);
      return caller.whileHandling(call.requestId, () => focusMode(caller, args));
    }
    if (isMetaTool(name) && caller.ownDefinitions().some((tool) => tool.name === name))
      return await caller.whileHandling(call.requestId, () => handleMetaTool(caller, name, args, call));
    // Upstream tools with these names are always served prefixed, so this is one of ours.
    if (isMetaTool(name)) return unlistedMetaTool(caller, name);
    return await callCatalogTool(caller, name, args, call, 'direct');
  } catch (error) {
    if (call.passInput && typeof (error as { code?: unknown }).code === 'number') throw error;
    return notHandled(name, error as Error);
  }
}

/**
 * The relay route of a 2025 session's `tools/call` for a catalog tool its permit allows (the
 * upstream's own name put back); undefined leaves the request to the SDK handler (own tools,
 * refusals, unknown names), which asks the same permit and answers why.
 */
export function toolRelayRoute(caller: Caller, params: Record<string, unknown>): RelayRoute | undefined {
  // Only a catalog tool is relayed: any other name (lazytools' own tools, an unknown one) is the
  // SDK handler's, which answers it once. Asking the permit first built an unknown-tool refusal
  // (a did-you-mean over every visible tool) for each own-tool call, and threw it away.
  if (typeof params.name !== 'string' || !findTool(caller.hub.catalog, params.name)) return undefined;
  const found = permitted(caller, params.name);
  if ('result' in found) return undefined;
  const { tool, upstream } = found;
  const name = params.name;
  return {
    upstream,
    params: tool.name === name ? params : { ...params, name: tool.name },
    failure: (error) => ({ result: toolFailed(name, error) }),
    record: () => caller.recordUsage(tool, 'direct'),
  };
}

function isCatalogTool(entry: ListEntry): entry is CatalogTool {
  return 'exposedName' in entry && 'definition' in entry;
}

/** The name a `tools/list` entry is listed under. */
export function entryName(entry: ListEntry): string {
  return isCatalogTool(entry) ? entry.exposedName : entry.name;
}

/** The definition a `tools/list` entry sends: a catalog tool's listed form is made on first use. */
export function listEntry(entry: ListEntry): ToolDefinition {
  return isCatalogTool(entry) ? entry.listed : entry;
}

/**
 * What decides an entry's listed definition, for change checks without making it: a catalog
 * tool's listed form is a function of its definition (compaction is cached per definition
 * object) under the config's `definitions`, which list-changes' sameSources compares too.
 */
export function entrySource(entry: ListEntry): ToolDefinition {
  return isCatalogTool(entry) ? entry.definition : entry;
}
