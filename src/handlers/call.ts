import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { findTool, type CatalogTool } from '../catalog/catalog.js';
import type { RequestId } from '../util/jsonrpc.js';
import { didYouMean } from '../util/closest.js';
import { echoName } from '../util/errors.js';
import { visibleToolNames } from '../focus/policy.js';
import { UpstreamError } from '../upstream/error.js';
import type { Upstream } from '../upstream/upstream.js';
import { upstreamFailure, type CallVia, type ToolSession } from './context.js';
import { errorResult } from './results.js';

/** How a call reached a tool: named directly, or through execute_tool. */

/**
 * One `tools/call` as the tool handlers see it: its id, its cancellation and how to report
 * progress. Narrow on purpose, and free of SDK types, so any front (a session, a stateless
 * request) can build one.
 */
export interface CallContext {
  readonly requestId: RequestId | undefined;
  readonly signal: AbortSignal | undefined;
  /** The client's progress token, when it asked for progress. */
  readonly progressToken: unknown;
  /** Sends a notification related to this call (progress). */
  notify(method: string, params: Record<string, unknown>): void;
  /**
   * A 2026-07-28 front: the upstream's own input_required results go back to the client as
   * sent, and `retry` (its inputResponses and requestState on the client's retry) goes with the call.
   */
  readonly passInput?: { retry: Record<string, unknown> } | undefined;
}

/** The call context of an SDK request handler. */
export function callContext(ctx: ServerContext): CallContext {
  return {
    requestId: ctx.mcpReq.id,
    signal: ctx.mcpReq.signal,
    progressToken: ctx.mcpReq._meta?.progressToken,
    notify: (method, params) => void ctx.mcpReq.notify({ method, params } as never).catch(() => {}),
  };
}

/** The tool and its upstream when the session may call it now, else the isError result saying why. */
function permitted(session: CallingSession, name: string): { tool: CatalogTool; upstream: Upstream } | { result: CallToolResult } {
  const catalog = session.gateway.catalog;
  const tool = findTool(catalog, name);
  const held = tool ? undefined : session.gateway.heldBack.get(name);
  if (held) return { result: errorResult(`"${name}" is held back: ${held}.`) };
  if (!tool) return { result: errorResult(`Unknown tool "${echoName(name)}".${didYouMean(name, visibleToolNames(catalog, session.gateway.config, session.boundary))} Use search_tools to find tools.`) };
  const refusal = session.refusal(tool);
  if (refusal) return { result: errorResult(refusal) };
  const upstream = session.gateway.upstreamOf(tool);
  if (!upstream) return { result: errorResult(`Tool "${name}" belongs to server "${tool.server}", which is not configured.`) };
  return { tool, upstream };
}

/** What calling a catalog tool needs from its caller: a session, or a stateless request (front/modern). */
export type CallingSession = Pick<ToolSession, 'gateway' | 'refusal' | 'recordUsage' | 'origin' | 'boundary'>;

/**
 * Calls a catalog tool by exposed name or id, after the mode's checks (focus/policy): read-only
 * modes refuse tools not annotated read-only; `policy.hiddenTools: reject` refuses tools outside
 * the mode. Failures are `isError` results naming the tool.
 */
export async function callCatalogTool(session: CallingSession, name: string, args: unknown, call: CallContext | undefined, via: CallVia): Promise<CallToolResult> {
  let found = permitted(session, name);
  if ('result' in found) return found.result;
  if (found.upstream.status !== 'ready') {
    // A tool known from the lock: start its server, then decide again on its live definition
    // (placed afresh, checked against the lock's pins), not on what the lock said of it.
    try {
      await found.upstream.start();
    } catch (error) {
      return errorResult(`Tool "${name}" failed: ${(error as Error).message}`);
    }
    found = permitted(session, name);
    if ('result' in found) return found.result;
  }
  const { tool, upstream } = found;
  session.recordUsage(tool, via);
  const progressToken = call?.progressToken;
  try {
    const result = await upstream.call(
      { name: tool.name, arguments: (args ?? {}) as Record<string, unknown>, ...call?.passInput?.retry },
      {
        signal: call?.signal,
        inputRequired: call?.passInput ? 'return' : undefined,
        origin: session.origin(call?.requestId),
        onProgress: progressToken === undefined || !call ? undefined : (params) => call.notify('notifications/progress', { ...params, progressToken }),
      },
    );
    return result as CallToolResult;
  } catch (error) {
    // In 2026-07-28, an upstream's protocol error on a retry (a tampered requestState, a missing
    // capability) is the request's answer, passed on as the upstream sent it.
    if (call?.passInput && error instanceof UpstreamError && error.rpcError) throw upstreamFailure(error);
    return errorResult(`Tool "${name}" failed: ${(error as Error).message}`);
  }
}
