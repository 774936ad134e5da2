import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import type { CatalogTool, ToolDefinition } from '../catalog/catalog.js';
import { FOCUS_MODE } from '../catalog/own-tools.js';
import { switchRefusal } from '../focus/policy.js';
import { compactSoon, LARGE_CATALOG } from '../util/memory.js';
import { callCatalogTool, callContext, type CallContext } from './call.js';
import { handleFocusMode } from './focus-tool.js';
import { handleMetaTool, isMetaTool, unlistedMetaTool } from './meta-tools.js';
import { listPage } from './paging.js';
import { errorResult } from './results.js';
import type { ListEntry, ListingSession, RelayRoute } from './context.js';

/** tools/list (own tools, then the listed catalog tools, paged) and tools/call. */
export function registerTools(server: Server, session: ListingSession): void {
  server.setRequestHandler('tools/list', (request) => {
    const entries = session.listEntries();
    if (entries.length >= LARGE_CATALOG) compactSoon();
    return listPage(entries, request.params?.cursor, entryName, 'tools', listEntry) as never;
  });
  server.setRequestHandler('tools/call', (request, ctx) => handleCall(session, request.params.name, request.params.arguments, callContext(ctx)) as never);
}

/** Routes one call: focus_mode, a discovery meta-tool, or a catalog tool. Never throws. */
async function handleCall(session: ListingSession, name: string, args: unknown, call: CallContext): Promise<CallToolResult> {
  try {
    if (name === FOCUS_MODE) {
      const refused = switchRefusal(session);
      if (refused) return errorResult(refused);
      return session.whileHandling(call.requestId, () => handleFocusMode(session, args));
    }
    if (isMetaTool(name) && session.ownDefinitions().some((tool) => tool.name === name))
      return await session.whileHandling(call.requestId, () => handleMetaTool(session, name, args, call));
    // Upstream tools with these names are always served prefixed, so this is one of ours.
    if (isMetaTool(name)) return unlistedMetaTool(session, name);
    return await callCatalogTool(session, name, args, call, 'direct');
  } catch (error) {
    return errorResult(`lazytools could not handle "${name}": ${(error as Error).message}`);
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
 * object) under the config's `definitions`, which the caller compares too.
 */
export function entrySource(entry: ListEntry): ToolDefinition {
  return isCatalogTool(entry) ? entry.definition : entry;
}

/** A tools list as its sources (see entrySource) under a `definitions` setting. */
export interface ListSources {
  definitions: string;
  tools: ToolDefinition[];
}

/** Same listed tools? Same sources under the same `definitions` setting (see sameToolList). */
export function sameSources(a: ListSources, b: ListSources): boolean {
  return a.definitions === b.definitions && sameToolList(a.tools, b.tools);
}

/**
 * Same tools in the same order? Unchanged definitions are the same objects (the catalog keeps
 * them across rebuilds), so this is a pointer walk; only replaced objects are compared by content.
 */
export function sameToolList(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x?.name !== y?.name || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

