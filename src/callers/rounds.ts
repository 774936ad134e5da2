import { CLIENT_CAPABILITIES_META_KEY, type ServerContext } from '@modelcontextprotocol/server';
import { callContext } from '../handlers/call.js';
import type { CallContext } from '../handlers/caller.js';
import { missingClientCapability } from '../protocol/errors.js';
import { isRoundState } from './input-rounds.js';
import type { ModernRequest } from './request.js';

/**
 * How one unit of a 2026-07-28 request's work runs (the `run` of its CallerFront): with the
 * retry's material for the upstream (retryParams), inside an input round when `subject` names one
 * (an upstream may ask the client something: a 2025 upstream's request becomes an input_required
 * round and the client's retry, carrying lazytools' requestState, resumes the waiting call), and
 * failed as a whole with -32021 when an upstream needed a client capability the request did not
 * declare. Rounds are bound to the bearer token (roundOwner) and to `subject` (`tools/call <name>`,
 * `prompts/get <name>`, `resources/read <uri>`).
 */
export async function runModern<R>(caller: ModernRequest, ctx: ServerContext, subject: string | undefined, work: (call: CallContext) => Promise<R>): Promise<unknown> {
  const call: CallContext = { ...callContext(ctx), passInput: { retry: (meta) => retryParams(ctx, meta) } };
  let result: unknown;
  try {
    result = subject === undefined ? await work(call) : await withInputRounds(caller, ctx, subject, (signal) => work({ ...call, signal }));
  } catch (error) {
    if (caller.missing === undefined) throw error;
  }
  // An upstream needed a capability the client did not declare: the request fails as a whole.
  if (caller.missing !== undefined) throw missingClientCapability(caller.missing);
  return result;
}

/**
 * Runs `work` so that the upstream may ask the client something (see runModern). A retry carrying
 * another requestState is a 2026-07-28 upstream's own round, handed to `work` to pass on.
 */
function withInputRounds<R>(caller: ModernRequest, ctx: ServerContext, subject: string, work: (signal: AbortSignal) => Promise<R>): Promise<unknown> {
  const state = ctx.mcpReq.requestState();
  const rounds = caller.hub.inputRounds;
  // The call outlives the request that started it (its answer may be a round): it runs on the
  // round's own signal, which the requests waiting on it can cancel.
  if (isRoundState(state)) return rounds.resume(roundOwner(caller.route), subject, state, ctx.mcpReq.inputResponses, ctx.mcpReq.signal);
  return rounds.begin(
    roundOwner(caller.route),
    subject,
    (asker, signal) => {
      caller.asker = asker;
      return work(signal);
    },
    ctx.mcpReq.signal,
  );
}

/**
 * Whose a round is: the bearer token's label and modes (undefined without a token). A reload that
 * gives the token other modes leaves its open rounds to no one: a retry resumed a call begun under
 * the old modes, returning the result of a tool the token may no longer call.
 */
function roundOwner(route: ModernRequest['route']): string | undefined {
  return route.tokenLabel === undefined ? undefined : JSON.stringify([route.tokenLabel, route.tokenModes ?? []]);
}

/**
 * Which round owners (roundOwner) the rc's `tokens` still admit: a token of the same label and
 * modes; a round begun without a token while the gateway is still `open` (no rc tokens, or
 * serve's shared `--token`). A reload ends the others' rounds (InputRounds.abandon).
 */
export function roundOwners(tokens: ReadonlyArray<{ label: string; modes: readonly string[] }>, open: boolean): (owner: string | undefined) => boolean {
  const owners = new Set(tokens.map((grant) => roundOwner({ tokenLabel: grant.label, tokenModes: grant.modes })));
  return (owner) => (owner === undefined ? open : owners.has(owner));
}

/**
 * What goes upstream with a 2026-07-28 request beside its own params: a retry's inputResponses
 * and the upstream's requestState (the SDK lifts both out of the params its handlers see), and
 * the client's declared capabilities in the envelope, so the upstream asks only for what this
 * client can answer (not what lazytools' own connection declared).
 */
function retryParams(ctx: ServerContext, meta?: unknown): Record<string, unknown> {
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
