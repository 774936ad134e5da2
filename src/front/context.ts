import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { CallOrigin } from '../upstream/primitives.js';
import { UpstreamError, type Upstream } from '../upstream/upstream.js';
import type { RequestId } from '../util/jsonrpc.js';
import type { PromptIndex } from './prompts.js';
import type { ResourceIndex, Subscriptions } from './resources.js';

/**
 * What the routing modules (prompts, resources, completion, logging, client requests) need from
 * the gateway: the upstreams and the indexes built from their lists. Narrow on purpose: a handler
 * cannot reach focus state or the tool catalog through it.
 */
export interface RoutingContext {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly subscriptions: Subscriptions;
  prompts(): PromptIndex;
  resources(): ResourceIndex;
  /** Re-sends the lowest log level any session asked for to the upstreams that log. */
  applyLogLevels(): Promise<void>;
}

/** One client session as the routing modules see it. */
export interface SessionContext {
  readonly routing: RoutingContext;
  /** The level this session set with logging/setLevel (undefined: everything). */
  logLevel: string | undefined;
  /** The origin upstream requests carry for a front request of this session. */
  origin(requestId: RequestId | undefined): CallOrigin;
  clientCapabilities(): ClientCapabilities | undefined;
  /** Sends a notification to this session's client (on the request's stream when related). */
  notify(method: string, params: Record<string, unknown> | undefined, relatedRequestId?: RequestId): void;
  /** Sends a request to this session's client and resolves with its answer, verbatim. */
  forward(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId | undefined, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** A JSON-RPC error the SDK's Protocol sends as is: code, message and data unprefixed. */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/** Turns an upstream failure into the error the client receives (the upstream's own, verbatim). */
export function upstreamFailure(error: unknown): Error {
  if (error instanceof UpstreamError && error.rpcError) return rpcError(error.rpcError.code, error.rpcError.message, error.rpcError.data);
  return rpcError(-32603, (error as Error).message);
}

export const INVALID_PARAMS = -32602;
export const RESOURCE_NOT_FOUND = -32002;
