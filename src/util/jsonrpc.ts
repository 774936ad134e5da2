import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Loose JSON-RPC shapes for the hot path: lazytools relays upstream payloads without parsing them
 * into SDK types, so these guards look at the envelope only.
 */
export type RequestId = string | number;

export interface RawRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface RawNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface RawResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export function isRequest(message: unknown): message is RawRequest {
  const m = message as RawRequest;
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');
}

export function isNotification(message: unknown): message is RawNotification {
  const m = message as RawNotification & { id?: unknown };
  return typeof m.method === 'string' && m.id === undefined;
}

export function isResponse(message: unknown): message is RawResponse {
  const m = message as RawResponse & { method?: unknown };
  return m.method === undefined && (typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m);
}

/** A JSON-RPC envelope check: an object with `jsonrpc: "2.0"`. */
export function isEnvelope(value: unknown): value is JSONRPCMessage {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
