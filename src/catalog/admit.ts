import type { ToolDefinition } from './types.js';
import { capText, valueTooBig } from '../util/bounds.js';
import { isObject } from '../util/json.js';
import { CONTROL_CHARACTERS } from './text.js';

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
      warn(`tool "${tool.name.slice(0, 60).replace(CONTROL_CHARACTERS, '?')}…" left out: its name has ${tool.name.length} characters (at most ${MAX_TOOL_NAME})`);
      continue;
    }
    if (tool.name.search(CONTROL_CHARACTERS) >= 0) {
      warn(`tool "${tool.name.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}" left out: its name has control or bidirectional-override characters`);
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

/**
 * The tools of an upstream's `tools/list` page that lazytools can list again. An upstream is
 * not trusted to send valid definitions, and one bad tool must cost only itself: a client's SDK
 * validates the whole `tools/list` answer, so one `inputSchema` that is not an object schema
 * (null, an array, `{"type": "string"}`) would make it drop every tool of every server, and a
 * `description` or `title` that is not a string broke the catalog's summary and so the whole
 * upstream's start. Such tools are skipped (`skip` is told why); a non-string `description` or
 * `title` is dropped from an otherwise good tool.
 */
export function usableTools(tools: unknown, skip: (name: string, reason: string) => void): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  const out: ToolDefinition[] = [];
  for (const tool of tools as unknown[]) {
    if (!isObject(tool) || typeof tool.name !== 'string') continue;
    const schema = tool.inputSchema;
    if (!isObject(schema) || schema.type !== 'object') {
      skip(tool.name, 'its inputSchema is not a JSON Schema object with "type": "object"');
      continue;
    }
    let usable = tool;
    for (const key of ['description', 'title'] as const) {
      if (usable[key] === undefined || typeof usable[key] === 'string') continue;
      const { [key]: _dropped, ...rest } = usable;
      usable = rest;
    }
    out.push(usable as unknown as ToolDefinition);
  }
  return out;
}

/**
 * What is wrong with a stored tool definition's types (a lock or catalog file), or undefined when
 * it fits: such a file was written from checked tools, so a wrong type means the file was edited
 * and the whole tool is left out.
 */
export function toolProblem(tool: unknown): string | undefined {
  if (!isObject(tool)) return ': expected a tool definition object';
  if (typeof tool.name !== 'string' || tool.name.length === 0) return '.name: expected a non-empty string';
  if (!isObject(tool.inputSchema)) return '.inputSchema: expected an object';
  for (const key of ['description', 'title'] as const) if (tool[key] !== undefined && typeof tool[key] !== 'string') return `.${key}: expected a string`;
  if (tool.outputSchema !== undefined && !isObject(tool.outputSchema)) return '.outputSchema: expected an object';
  const annotations = tool.annotations;
  if (annotations === undefined) return undefined;
  if (!isObject(annotations)) return '.annotations: expected an object';
  if (annotations.title !== undefined && typeof annotations.title !== 'string') return '.annotations.title: expected a string';
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
    if (annotations[hint] !== undefined && typeof annotations[hint] !== 'boolean') return `.annotations.${hint}: expected a boolean`;
  return undefined;
}
