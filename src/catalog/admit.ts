import type { ToolDefinition } from './catalog.js';
import { capText, valueTooBig } from '../util/bounds.js';

/**
 * Longest tool name taken from an upstream. MCP names are short (the spec suggests at most 128
 * characters); a 320 KB name only serves to make every glob, lookup and list slow.
 */
export const MAX_TOOL_NAME = 256;
/** Longest tool description passed on; longer ones are cut with a note (the real maximum seen is ~35 K). */
export const MAX_TOOL_DESCRIPTION = 16 * 1024;

/**
 * The upstream tools lazytools takes, in order: each tool whose name is over MAX_TOOL_NAME or
 * whose definition is too deep or too large (see valueTooBig) is dropped and reported through
 * `warn`, never the whole list; a description over MAX_TOOL_DESCRIPTION is cut. Objects within
 * every bound are returned as they came (their identity keys caches).
 */
export function admitTools(tools: readonly ToolDefinition[], warn: (message: string) => void): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const tool of tools) {
    if (tool.name.length > MAX_TOOL_NAME) {
      warn(`tool "${tool.name.slice(0, 60)}…" left out: its name has ${tool.name.length} characters (at most ${MAX_TOOL_NAME})`);
      continue;
    }
    const problem = valueTooBig(tool);
    if (problem !== undefined) {
      warn(`tool "${tool.name}" left out: its definition is ${problem}`);
      continue;
    }
    const description = tool.description;
    out.push(typeof description === 'string' && description.length > MAX_TOOL_DESCRIPTION ? { ...tool, description: capText(description, MAX_TOOL_DESCRIPTION, 'description') } : tool);
  }
  return out;
}
