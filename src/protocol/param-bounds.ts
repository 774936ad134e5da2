import { isObject } from '../util/json.js';
import { ErrorCode, isRequest, type RequestId } from './jsonrpc.js';
import { prototypeArgument, type PrototypeRefusal } from './proto-args.js';

/**
 * Keys one of a client request's records may hold where the SDK's request schema checks the record
 * key by key (zod v4 builds one issue per bad entry, then a message quoting all of them):
 * `prompts/get` `arguments` and `completion/complete` `context.arguments` (record<string, string>),
 * and the `experimental` and `extensions` capabilities of `initialize` or of a 2026-07-28 request's
 * `_meta` (record<string, object>). A prompt takes a handful of arguments, a client declares a
 * handful of capabilities; 200,000 number-valued arguments held the event loop ~4 s before any
 * handler ran (1.2 s of issues, 0.4 s and 36 MB of message, a 43.8 MiB error then refused), for
 * every client of the gateway; a 4 MiB HTTP body holds ~300,000 of them.
 */
export const MAX_RECORD_KEYS = 1024;

const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * What every client request passes before the SDK parses it, in both eras and on both fronts
 * (2025 sessions in callers/session.ts, 2026-07-28 requests in transports/http.ts and
 * transports/stdio-eras.ts): a record over MAX_RECORD_KEYS refused with -32602 naming its path,
 * then a `__proto__` argument (protocol/proto-args). Undefined: the request goes on untouched.
 */
export function refusedBeforeParsing(message: unknown, era: 'legacy' | 'modern'): PrototypeRefusal | undefined {
  return oversizedRecord(message) ?? prototypeArgument(message, era);
}

/** A -32602 answer when one of the records the SDK checks key by key holds more than MAX_RECORD_KEYS keys. */
export function oversizedRecord(message: unknown): { jsonrpc: '2.0'; id: RequestId; error: { code: number; message: string } } | undefined {
  if (!isRequest(message) || !isObject(message.params)) return undefined;
  const params = message.params;
  const path = oversizedPath(message.method, params);
  if (path === undefined) return undefined;
  const text = `${message.method}: params.${path} has more than ${MAX_RECORD_KEYS} keys, the most lazytools takes there; nothing was asked of any server.`;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: text } };
}

/** The path (under params) of the first record over the bound, if any. */
function oversizedPath(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'prompts/get' && overBound(params.arguments)) return 'arguments';
  if (method === 'completion/complete' && isObject(params.context) && overBound(params.context.arguments)) return 'context.arguments';
  if (method === 'initialize') {
    const at = oversizedCapability(params.capabilities);
    if (at !== undefined) return `capabilities.${at}`;
  }
  if (isObject(params._meta)) {
    const at = oversizedCapability(params._meta[CLIENT_CAPABILITIES_META_KEY]);
    if (at !== undefined) return `_meta["${CLIENT_CAPABILITIES_META_KEY}"].${at}`;
  }
  return undefined;
}

function oversizedCapability(capabilities: unknown): string | undefined {
  if (!isObject(capabilities)) return undefined;
  if (overBound(capabilities.experimental)) return 'experimental';
  if (overBound(capabilities.extensions)) return 'extensions';
  return undefined;
}

/** True for an object of more than MAX_RECORD_KEYS own keys; counting stops at the first key past the bound. */
function overBound(value: unknown): boolean {
  if (!isObject(value)) return false;
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (++count > MAX_RECORD_KEYS) return true;
  }
  return false;
}
