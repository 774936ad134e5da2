import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { findTool, type CatalogTool } from '../catalog/catalog.js';
import { visibleToolNames } from '../focus/policy.js';
import { toolError, toolFailed, unknownTool, upstreamFailure } from '../protocol/errors.js';
import { UpstreamError } from '../upstream/error.js';
import type { Upstream } from '../upstream/upstream.js';
import { didYouMean } from '../util/closest.js';
import type { CallContext, Caller, CallVia } from './caller.js';

/** The call context of an SDK request handler. */
export function callContext(ctx: ServerContext): CallContext {
  return {
    requestId: ctx.mcpReq.id,
    signal: ctx.mcpReq.signal,
    progressToken: ctx.mcpReq._meta?.progressToken,
    notify: (method, params) => void ctx.mcpReq.notify({ method, params } as never).catch(() => {}),
  };
}

/**
 * The permit of one call, asked by every path that runs a catalog tool (the SDK handler,
 * execute_tool, a 2025 session's raw relay): the tool and its upstream when the caller may call
 * it now, else the isError result saying why (held back by rc `pin`, unknown to this caller,
 * refused by the mode's rules, its server not configured).
 */
export function permitted(caller: Caller, name: string): { tool: CatalogTool; upstream: Upstream } | { result: CallToolResult } {
  const { catalog, config, driftHeld } = caller.hub;
  const tool = findTool(catalog, name);
  const held = tool ? undefined : driftHeld.get(name);
  if (held) return { result: toolError(`"${name}" is held back: ${held}.`) };
  if (!tool) return { result: unknownTool(name, didYouMean(name, visibleToolNames(catalog, config, caller.boundary))) };
  const refusal = caller.refusal(tool);
  if (refusal) return { result: toolError(refusal) };
  const upstream = caller.hub.upstreamOf(tool);
  if (!upstream) return { result: toolError(`Tool "${name}" belongs to server "${tool.server}", which is not configured.`) };
  return { tool, upstream };
}

/**
 * Calls a catalog tool by exposed name or id once the permit allows it (a server known only from
 * the lock starts first, and the permit is asked again of its live definition). Failures are
 * `isError` results naming the tool.
 */
export async function callCatalogTool(caller: Caller, name: string, args: unknown, call: CallContext | undefined, via: CallVia): Promise<CallToolResult> {
  let found = permitted(caller, name);
  if ('result' in found) return found.result;
  if (found.upstream.status !== 'ready') {
    // A tool known from the lock: start its server, then decide again on its live definition
    // (placed afresh, checked against the lock's pins), not on what the lock said of it.
    try {
      await found.upstream.start();
    } catch (error) {
      return toolFailed(name, error as Error);
    }
    found = permitted(caller, name);
    if ('result' in found) return found.result;
  }
  const { tool, upstream } = found;
  caller.recordUsage(tool, via);
  const progressToken = call?.progressToken;
  try {
    const result = await upstream.call(
      { name: tool.name, arguments: (args ?? {}) as Record<string, unknown>, ...call?.passInput?.retry() },
      {
        signal: call?.signal,
        inputRequired: call?.passInput ? 'return' : undefined,
        origin: caller.origin(call?.requestId),
        onProgress: progressToken === undefined || !call ? undefined : (params) => call.notify('notifications/progress', { ...params, progressToken }),
      },
    );
    return result as CallToolResult;
  } catch (error) {
    // In 2026-07-28, an upstream's protocol error on a retry (a tampered requestState, a missing
    // capability) is the request's answer, passed on as the upstream sent it.
    if (call?.passInput && error instanceof UpstreamError && error.rpcError) throw upstreamFailure(error);
    return toolFailed(name, error as Error);
  }
}

/**
 * Sends a request of the caller's (prompts/get, resources/read, completion/complete) to the
 * upstream that serves it and returns the answer verbatim; its error, verbatim too. In
 * 2026-07-28 the retry's material goes with it and the upstream's own input_required rounds come
 * back as sent.
 */
export async function forward(caller: Caller, upstream: Upstream, method: string, params: Record<string, unknown>, call: CallContext): Promise<never> {
  try {
    const sent = call.passInput ? { ...params, ...call.passInput.retry(params._meta) } : params;
    return (await upstream.request(method, sent, { origin: caller.origin(call.requestId), signal: call.signal, inputRequired: call.passInput ? 'return' : undefined })) as never;
  } catch (error) {
    throw upstreamFailure(error);
  }
}
