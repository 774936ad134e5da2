import type { CallToolResult } from '@modelcontextprotocol/server';
import { isRequest, type RequestId } from './jsonrpc.js';
import { toolError } from './errors.js';
import { echoName } from '../util/errors.js';

/**
 * A `tools/call` whose arguments hold an own `__proto__` key (JSON.parse keeps it as a key) at
 * their top or one object down (execute_tool's `arguments`): the SDK's request parsing, and zod
 * wherever arguments are read as a record, leave that key out without a word, so the call ran
 * without it (focus_mode `{"__proto__": …}` answered status as if asked for nothing). Refused
 * before any parsing, in both eras, with the key path named; nothing runs.
 */
export function prototypeArgument(message: unknown, era: 'legacy' | 'modern'): { jsonrpc: '2.0'; id: RequestId; result: CallToolResult } | undefined {
  if (!isRequest(message) || message.method !== 'tools/call') return undefined;
  const args = message.params?.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const at = protoKeyAt(args);
  if (at === undefined) return undefined;
  const tool = typeof message.params?.name === 'string' ? message.params.name : 'tools/call';
  const result = toolError(`${echoName(tool)}: argument "${at}": "__proto__" is JavaScript's prototype key, never an argument name; nothing was called.`);
  // A 2026-07-28 result says it is complete (the SDK's answers do).
  return { jsonrpc: '2.0', id: message.id, result: era === 'modern' ? { ...result, resultType: 'complete' } : result };
}

/** The path of an own `__proto__` key at the top of `args` or in one of its object values. */
function protoKeyAt(args: object): string | undefined {
  if (Object.hasOwn(args, '__proto__')) return '__proto__';
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, '__proto__')) return `${echoName(key)}.__proto__`;
  }
  return undefined;
}
