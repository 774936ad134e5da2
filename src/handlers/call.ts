import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { findTool, type CatalogTool } from '../catalog/catalog.js';
import { boundaryAllowsMode, callRefusal, modeNamed, switchRefusal, visibleModeNames, visibleToolNames } from '../focus/policy.js';
import { initialFocus } from '../focus/state.js';
import { modeMembers } from '../focus/visible.js';
import { UnknownNameError } from '../util/errors.js';
import { toolError, toolFailed, unknownTool, upstreamFailure } from '../protocol/errors.js';
import { usableProgressToken } from '../protocol/jsonrpc.js';
import { UpstreamError } from '../upstream/error.js';
import type { Upstream } from '../upstream/upstream.js';
import { clientHints, suggestionText } from '../util/closest.js';
import type { CallContext, Caller, CallVia } from './caller.js';

/** The call context of an SDK request handler. */
export function callContext(ctx: ServerContext): CallContext {
  return {
    requestId: ctx.mcpReq.id,
    signal: ctx.mcpReq.signal,
    // A token too long to repeat in every notification gets none (protocol/jsonrpc usableProgressToken).
    progressToken: usableProgressToken(ctx.mcpReq._meta?.progressToken),
    notify: (method, params) => void ctx.mcpReq.notify({ method, params } as never).catch(() => {}),
  };
}

/**
 * The permit of one call, asked by every path that runs a catalog tool (the SDK handler,
 * execute_tool, a 2025 session's raw relay): the tool and its upstream when the caller may call
 * it now, else the isError result saying why (held back by rc `pin`, unknown to this caller,
 * refused by the mode's rules, its server not configured).
 */
export function permitted(caller: Caller, name: string, refusal: (tool: CatalogTool) => string | undefined = (tool) => caller.refusal(tool)): { tool: CatalogTool; upstream: Upstream } | { result: CallToolResult } {
  const { catalog, config, driftHeld } = caller.hub;
  const tool = findTool(catalog, name);
  // A held-back tool is in no mode yet: for a token's caller it does not exist (its reason names its server).
  const held = tool || caller.boundary?.token ? undefined : driftHeld.get(name);
  if (held) return { result: toolError(`"${name}" is held back: ${held}.`) };
  if (!tool) return { result: unknownTool(name, suggestionText(clientHints.closest(name, () => visibleToolNames(catalog, config, caller.boundary)))) };
  const refused = refusal(tool);
  if (refused) return { result: toolError(refused) };
  const upstream = caller.hub.upstreamOf(tool);
  if (!upstream) return { result: toolError(`Tool "${name}" belongs to server "${tool.server}", which is not configured.`) };
  return { tool, upstream };
}

/**
 * The rule of a call execute_tool runs in another mode than the caller's (`mode`, stateless: no
 * session changes): the mode's own rules (read-only, hiddenTools, a token's boundary), or why the
 * caller may not run anything in that mode (unknown to it, or its mode is fixed to another).
 */
export function ruleOfMode(caller: Caller, mode: string): ModeRule | { refused: string } {
  const config = caller.hub.config;
  const modes = visibleModeNames(config, caller.boundary);
  const unknown = () => ({ refused: new UnknownNameError('mode', mode, modes).message });
  if (!modeNamed(config, mode) || !modes.includes(mode)) return unknown();
  const fixed = switchRefusal(caller);
  if (fixed !== undefined) return { refused: fixed };
  if (!boundaryAllowsMode(caller.boundary, mode)) return unknown();
  let members: Set<string> | undefined;
  const subject = {
    mode,
    fixedMode: undefined,
    stateless: caller.stateless,
    boundary: caller.boundary,
    inMode: (tool: CatalogTool) => (members ??= new Set(modeMembers(caller.hub.catalog, config, initialFocus(mode)).map((member) => member.id))).has(tool.id),
  };
  return { mode, refusal: (tool) => callRefusal(config, subject, tool) };
}

/** The mode a call runs in when it is not the caller's own (execute_tool's `mode`), and that mode's rule. */
export interface ModeRule {
  mode: string;
  refusal: (tool: CatalogTool) => string | undefined;
}

/**
 * Calls a catalog tool by exposed name or id once the permit allows it (a server known only from
 * the lock starts first, and the permit is asked again of its live definition); the caller's own
 * mode and rule unless execute_tool names another mode (`other`). Failures are `isError` results
 * naming the tool.
 */
export async function callCatalogTool(caller: Caller, name: string, args: unknown, call: CallContext | undefined, via: CallVia, other?: ModeRule): Promise<CallToolResult> {
  const refusal = other?.refusal;
  let found = permitted(caller, name, refusal);
  if ('result' in found) return found.result;
  if (found.upstream.status !== 'ready') {
    // A tool known from the lock: start its server, then decide again on its live definition
    // (placed afresh, checked against the lock's pins), not on what the lock said of it.
    try {
      await found.upstream.start();
    } catch (error) {
      return toolFailed(name, error as Error);
    }
    found = permitted(caller, name, refusal);
    if ('result' in found) return found.result;
  }
  const { tool, upstream } = found;
  // A call is counted in the mode it ran in: recorded calls make a tool part of that mode
  // (policy usedInMode), so one run in another mode must not widen the caller's own.
  caller.recordUsage(tool, via, other?.mode);
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
