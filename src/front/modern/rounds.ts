import { CLIENT_CAPABILITIES_META_KEY, type ServerContext } from '@modelcontextprotocol/server';
import type { Gateway } from '../../hub/gateway.js';
import { isRoundState, type InputRequired } from '../../hub/input-rounds.js';
import type { ModernRoute } from './route.js';
import type { ModernView } from './view.js';

/**
 * Runs the work of a 2026-07-28 tools/call, prompts/get or resources/read so that the upstream
 * may ask the client something: a 2025 upstream's request becomes an input_required round
 * (Gateway.inputRounds) and the client's retry, carrying lazytools' requestState, resumes the
 * waiting call; a retry carrying another requestState is a 2026-07-28 upstream's own round,
 * handed to `work` to pass on (see `retryParams`). Rounds are bound to the bearer token's label
 * and to `subject` (`tools/call <name>`, `prompts/get <name>`, `resources/read <uri>`).
 */
export function withInputRounds<R>(
  gateway: Gateway,
  route: ModernRoute,
  view: ModernView,
  ctx: ServerContext,
  subject: string,
  work: (signal: AbortSignal) => Promise<R>,
): Promise<R | InputRequired | unknown> {
  const state = ctx.mcpReq.requestState();
  // The call outlives the request that started it (its answer may be a round): it runs on the
  // round's own signal, which the requests waiting on it can cancel.
  if (isRoundState(state)) return gateway.inputRounds.resume(route.tokenLabel, subject, state, ctx.mcpReq.inputResponses, ctx.mcpReq.signal);
  return gateway.inputRounds.begin(
    route.tokenLabel,
    subject,
    (asker, signal) => {
      view.asker = asker;
      return work(signal);
    },
    ctx.mcpReq.signal,
  );
}

/**
 * What goes upstream with a 2026-07-28 request beside its own params: a retry's inputResponses
 * and the upstream's requestState (the SDK lifts both out of the params its handlers see), and
 * the client's declared capabilities in the envelope, so the upstream asks only for what this
 * client can answer (not what lazytools' own connection declared).
 */
export function retryParams(ctx: ServerContext, meta?: unknown): Record<string, unknown> {
  const state = ctx.mcpReq.requestState();
  const responses = ctx.mcpReq.inputResponses;
  const declared = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
  const given = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  return {
    ...(responses !== undefined ? { inputResponses: responses } : {}),
    ...(typeof state === 'string' && !isRoundState(state) ? { requestState: state } : {}),
    _meta: { ...given, [CLIENT_CAPABILITIES_META_KEY]: declared ?? {} },
  };
}
