import { isSpecType, specTypeSchemas } from '@modelcontextprotocol/client';
import type { ToolDefinition } from './types.js';
import { capText, definitionTooBig } from '../util/bounds.js';
import { isObject } from '../util/json.js';

/**
 * Longest tool name taken from an upstream. MCP names are short (the spec suggests at most 128
 * characters); a 320 KB name only serves to make every glob, lookup and list slow.
 */
const MAX_TOOL_NAME = 256;
/** Longest tool description passed on; longer ones are cut with a note (the real maximum seen is ~35 K). */
export const MAX_TOOL_DESCRIPTION = 16 * 1024;
/**
 * Most tools lazytools takes of one server, the first ones listed (10 times the 1,000 of the
 * largest real servers, the size the benches fit in about a second). A catalog build is
 * synchronous: one upstream listing a million small tools (1,000 pages, or one 64 MiB page) held
 * every client and /healthz for minutes at 2.1 GB RSS, and again on each re-list. A
 * lock or catalog file keeps as many per server (catalog/file.ts parseCatalog).
 */
export const MAX_SERVER_TOOLS = 10_000;
/**
 * Most bytes lazytools takes of one server's list (tools, prompts, resources or templates; at
 * least their characters and values), the first items listed, within MAX_SERVER_TOOLS or
 * MAX_SERVER_ITEMS. Each item is at most MAX_DEFINITION_BYTES, but 4,000 tools of 900 KB from one
 * upstream held 3.8 GB in the gateway, and 10,000 would pass the heap's limit and end it for
 * every client. Real servers list under 1 MB of tools.
 */
export const MAX_SERVER_LIST_BYTES = 64 * 1024 * 1024;
/**
 * Most prompts, resources or resource templates lazytools takes of one server, each list apart:
 * the gateway's lists merge every server's, and a client's every page of them read the whole
 * merged list (a million resources cost 0.5 to 2.6 s of event loop per page, for every client).
 */
export const MAX_SERVER_ITEMS = 10_000;

/**
 * Characters a tool name may not hold: controls, line separators, format characters (zero-width
 * space and joiners, word joiner, BOM, bidirectional marks and overrides, tag characters),
 * other default-ignorable code points (variation selectors, Hangul fillers) and spaces other than
 * U+0020. A person or a model cannot see them, so `lookup\u200border` from one server would look
 * like another's `lookup_order`, or an upstream's `focus_mode\u2060` like lazytools' own tool, and
 * neither would be prefixed (catalog.ts compares names as strings). Printed raw, controls are
 * also terminal escapes.
 */
const UNSEEN_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;

/** Whether a name holds a character of UNSEEN_IN_NAMES (a tool's or a prompt's: see admitTools and upstream/lister). */
export function hasUnseenCharacters(name: string): boolean {
  return name.search(UNSEEN_IN_NAMES) >= 0;
}

/** `name` with every character of UNSEEN_IN_NAMES shown as its `\\u` escape, so a warning names the tool visibly. */
export function escapedName(name: string): string {
  return name.replace(UNSEEN_IN_NAMES, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * The upstream tools lazytools takes, in order: each tool whose name is over MAX_TOOL_NAME or
 * whose definition is too deep or too large (see definitionTooBig) is dropped and reported through
 * `warn`, never the whole list; a description over MAX_TOOL_DESCRIPTION is cut. Objects within
 * every bound are returned as they came (their identity keys caches).
 */
export function admitTools(tools: readonly ToolDefinition[], warn: (message: string) => void): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const tool of tools) {
    if (tool.name.length > MAX_TOOL_NAME) {
      warn(`tool "${escapedName(tool.name.slice(0, 60))}…" left out: its name has ${tool.name.length} characters (at most ${MAX_TOOL_NAME})`);
      continue;
    }
    if (hasUnseenCharacters(tool.name)) {
      warn(`tool "${escapedName(tool.name)}" left out: its name has control, invisible or bidirectional-override characters (shown escaped)`);
      continue;
    }
    // Measured as it is passed on: a long description is cut, never a reason to leave the tool out.
    const description = tool.description;
    const admitted = typeof description === 'string' && description.length > MAX_TOOL_DESCRIPTION ? { ...tool, description: capText(description, MAX_TOOL_DESCRIPTION, 'description') } : tool;
    const problem = definitionTooBig(admitted);
    if (problem !== undefined) {
      warn(`tool "${tool.name}" left out: its definition is ${problem}`);
      continue;
    }
    out.push(admitted);
  }
  return out;
}

/**
 * The tools of an upstream's `tools/list` page that lazytools can list again. An upstream is
 * not trusted to send valid definitions, and one bad tool must cost only itself: a client's SDK
 * validates the whole `tools/list` answer, so one `inputSchema` that is not an object schema
 * (null, an array, `{"type": "string"}`) would make it drop every tool of every server, and a
 * `description` or `title` that is not a string broke the catalog's summary and so the whole
 * upstream's start. So is any other field of the wrong type (`annotations`, `outputSchema`, `icons`,
 * `execution`, `_meta`: see toolProblem). Such tools are skipped (`skip` is told why); a
 * non-string `description` or `title` is dropped from an otherwise good tool.
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
    const problem = toolProblem(usable);
    if (problem !== undefined) {
      skip(tool.name, problem.slice(1));
      continue;
    }
    out.push(usable as unknown as ToolDefinition);
  }
  return out;
}

/**
 * What is wrong with a tool definition's types, as `.key.path: expected …`, or undefined when it
 * fits the MCP Tool shape a client's SDK checks (each field's type; the JSON inside schemas is
 * bounded by valueTooBig instead, cheaper than a schema walk). A stored one (a lock or catalog
 * file) was written from checked tools, so a wrong type means the file was edited and the whole
 * tool is left out.
 */
export function toolProblem(tool: unknown): string | undefined {
  if (!isObject(tool)) return ': expected a tool definition object';
  if (typeof tool.name !== 'string' || tool.name.length === 0) return '.name: expected a non-empty string';
  if (!isObject(tool.inputSchema)) return '.inputSchema: expected an object';
  const input = tool.inputSchema;
  if (input.properties !== undefined && !isObject(input.properties)) return '.inputSchema.properties: expected an object';
  if (input.required !== undefined && !strings(input.required)) return '.inputSchema.required: expected an array of strings';
  for (const key of ['description', 'title'] as const) if (tool[key] !== undefined && typeof tool[key] !== 'string') return `.${key}: expected a string`;
  if (tool.outputSchema !== undefined && !isObject(tool.outputSchema)) return '.outputSchema: expected an object';
  if (tool.outputSchema?.$schema !== undefined && typeof tool.outputSchema.$schema !== 'string') return '.outputSchema.$schema: expected a string';
  if (tool._meta !== undefined && !isObject(tool._meta)) return '._meta: expected an object';
  if (tool.icons !== undefined && !iconsFit(tool.icons)) return '.icons: expected an array of { src, mimeType?, sizes?, theme? }';
  const execution = tool.execution;
  if (execution !== undefined && !(isObject(execution) && (execution.taskSupport === undefined || TASK_SUPPORT.has(execution.taskSupport as string))))
    return '.execution: expected { taskSupport?: "required" | "optional" | "forbidden" }';
  const annotations = tool.annotations;
  if (annotations === undefined) return undefined;
  if (!isObject(annotations)) return '.annotations: expected an object';
  if (annotations.title !== undefined && typeof annotations.title !== 'string') return '.annotations.title: expected a string';
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
    if (annotations[hint] !== undefined && typeof annotations[hint] !== 'boolean') return `.annotations.${hint}: expected a boolean`;
  return undefined;
}

const TASK_SUPPORT: ReadonlySet<string> = new Set(['required', 'optional', 'forbidden']);

function strings(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** An MCP `icons` list: objects with a string `src`, optional string `mimeType`, string `sizes`, a light or dark `theme`. */
function iconsFit(icons: unknown): boolean {
  return (
    Array.isArray(icons) &&
    icons.every((icon) => isObject(icon) && typeof icon.src === 'string' && (icon.mimeType === undefined || typeof icon.mimeType === 'string') && (icon.sizes === undefined || strings(icon.sizes)) && (icon.theme === undefined || icon.theme === 'light' || icon.theme === 'dark'))
  );
}

/** The lists lazytools relays besides tools: the field that names an item, the MCP type a client checks each item against, and what a message calls one. */
export const PRIMITIVE_LISTS = {
  prompts: { id: 'name', type: 'Prompt', label: 'prompt' },
  resources: { id: 'uri', type: 'Resource', label: 'resource' },
  resourceTemplates: { id: 'uriTemplate', type: 'ResourceTemplate', label: 'resource template' },
} as const;

/**
 * The items of an upstream's (or a lock's) prompts, resources or resource templates list that a
 * client can take, as they came. A client's SDK validates a whole list answer, and the gateway's
 * lists merge every server's: one prompt whose `arguments` is not an array, or one resource
 * without a string `name`, made every client drop every server's prompts (or resources). An item
 * that does not fit its MCP type, or is too deep or too large to pass on (definitionTooBig),
 * is skipped and `skip` told its id (cut), why, and its index in `list`.
 */
export function usableItems(kind: keyof typeof PRIMITIVE_LISTS, list: unknown, skip: (id: string, reason: string, index: number) => void): Array<Record<string, unknown>> {
  if (!Array.isArray(list)) return [];
  const { id, type } = PRIMITIVE_LISTS[kind];
  const out: Array<Record<string, unknown>> = [];
  list.forEach((item: unknown, index: number) => {
    const named = isObject(item) && typeof item[id] === 'string' ? (item[id] as string).slice(0, 80) : `#${index}`;
    const big = definitionTooBig(item);
    if (big !== undefined) return skip(named, big, index);
    if (isSpecType[type](item)) return void out.push(item as Record<string, unknown>);
    const checked = specTypeSchemas[type]['~standard'].validate(item);
    const issue = 'issues' in checked ? checked.issues?.[0] : undefined;
    skip(named, issue ? `${issue.path?.map((key) => (typeof key === 'object' ? key.key : key)).join('.') || id}: ${issue.message}` : `not an MCP ${type}`, index);
  });
  return out;
}
