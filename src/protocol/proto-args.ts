import type { CallToolResult } from '@modelcontextprotocol/server';
import { ErrorCode, isRequest, type RequestId } from './jsonrpc.js';
import { toolError } from './errors.js';
import { echoName } from '../util/errors.js';

/** The answer to a request refused for a `__proto__` argument: a tool error result, or a JSON-RPC error. */
export type PrototypeRefusal =
  | { jsonrpc: '2.0'; id: RequestId; result: CallToolResult }
  | { jsonrpc: '2.0'; id: RequestId; error: { code: number; message: string } };

/**
 * A request whose arguments hold an own `__proto__` key (JSON.parse keeps it as a key): the SDK's
 * request parsing, and zod wherever arguments are read as a record, leave that key out without a
 * word, so the request ran without it (focus_mode `{"__proto__": …}` answered status as if asked
 * for nothing; prompts/get and completion/complete asked the upstream without it). Refused before
 * any parsing, in both eras, with the key path named; nothing runs. Where arguments are:
 * - `tools/call`: `arguments`, at its top or one object down (execute_tool's `arguments`),
 *   answered as a tool error (isError) the model reads;
 * - `prompts/get`: `arguments`; `completion/complete`: `context.arguments` (the arguments already
 *   given), answered as an Invalid Params error, those methods having no error result.
 * Other keys named like Object's own (`constructor`, `prototype`, `toString`) are plain data keys
 * JSON and the SDK keep: they pass to the upstream as written.
 */
export function prototypeArgument(message: unknown, era: 'legacy' | 'modern'): PrototypeRefusal | undefined {
  if (!isRequest(message)) return undefined;
  const params = message.params;
  if (message.method === 'tools/call') {
    const at = protoKeyAt(params?.arguments, '', true);
    if (at === undefined) return undefined;
    const tool = typeof params?.name === 'string' ? params.name : 'tools/call';
    const result = toolError(`${echoName(tool)}: ${refusalText(at)} nothing was called.`);
    // A 2026-07-28 result says it is complete (the SDK's answers do).
    return { jsonrpc: '2.0', id: message.id, result: era === 'modern' ? { ...result, resultType: 'complete' } : result };
  }
  let at: string | undefined;
  let what: string;
  if (message.method === 'prompts/get') {
    at = protoKeyAt(params?.arguments, '', false);
    what = `prompts/get ${JSON.stringify(echoName(typeof params?.name === 'string' ? params.name : ''))}`;
  } else if (message.method === 'completion/complete') {
    const context = params?.context;
    at = isObject(context) ? protoKeyAt(context.arguments, 'context.arguments.', false) : undefined;
    what = 'completion/complete';
  } else return undefined;
  if (at === undefined) return undefined;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `${what}: ${refusalText(at)} nothing was asked of any server.` } };
}

function refusalText(path: string): string {
  return `argument "${path}": "__proto__" is JavaScript's prototype key, never an argument name;`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path (after `prefix`) of an own `__proto__` key at the top of `args`, or, when `nested`, in one of its object values. */
function protoKeyAt(args: unknown, prefix: string, nested: boolean): string | undefined {
  if (!isObject(args)) return undefined;
  if (Object.hasOwn(args, '__proto__')) return `${prefix}__proto__`;
  if (!nested) return undefined;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const value = args[key];
    if (isObject(value) && Object.hasOwn(value, '__proto__')) return `${prefix}${echoName(key)}.__proto__`;
  }
  return undefined;
}
