import type { ToolDefinition } from './types.js';
import type { ResolvedMode } from '../config/resolve.js';
import type { Strategy } from '../config/schema.js';
import { shortenText } from './text.js';
import { describeToolsArgs, executeToolArgs, focusModeArgs, jsonSchemaOf, listToolGroupsArgs, searchToolsArgs } from './own-args.js';

/** Names of lazytools' own tools. */
export const FOCUS_MODE = 'focus_mode';
export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOLS = 'describe_tools';
export const EXECUTE_TOOL = 'execute_tool';
export const LIST_TOOL_GROUPS = 'list_tool_groups';

/**
 * Every name lazytools' own tools may take. Below both the front (which serves them) and the
 * status report (which counts their tokens), so neither imports the other.
 */
export const OWN_TOOL_NAMES: ReadonlySet<string> = new Set([FOCUS_MODE, SEARCH_TOOLS, DESCRIBE_TOOLS, EXECUTE_TOOL, LIST_TOOL_GROUPS]);

/** Strategies as served: `auto` is resolved per client before this point. */
export type ServedStrategy = Exclude<Strategy, 'auto'>;

/**
 * lazytools' own tools for a strategy, in list order. Their tokens count in every mode, so the
 * descriptions are short and say when to use each tool.
 * - notify: focus_mode, search_tools (search results join the list)
 * - hybrid: notify plus execute_tool, so clients that ignore list_changed still reach everything
 * - proxy: a constant list of every meta-tool
 */
export function ownTools(strategy: ServedStrategy, modes: readonly ResolvedMode[]): ToolDefinition[] {
  const focus = focusModeTool(modes);
  switch (strategy) {
    case 'notify':
      return [focus, searchTool(true)];
    case 'hybrid':
      return [focus, searchTool(false), executeTool];
    case 'proxy':
      return [focus, searchTool(false), describeTool, executeTool, listGroupsTool];
  }
}

/** Modes focus_mode's definition names (and offers as its `mode` enum); past it, intent picks one. */
export const MODES_LISTED = 40;
/** Characters of a mode's description its line in focus_mode's definition keeps. */
const MODE_LINE_DESCRIPTION = 160;

/**
 * The focus_mode tool; its description lists the modes one line each. Bounded whatever the rc
 * (clients list it on every turn): at most MODES_LISTED modes, each description cut to
 * MODE_LINE_DESCRIPTION characters; with more modes the rest are counted, `intent` picks among
 * all, and `mode` takes any name (no enum).
 */
function focusModeTool(modes: readonly ResolvedMode[]): ToolDefinition {
  const shown = modes.slice(0, MODES_LISTED);
  const line = (text: string) => (text.length <= MODE_LINE_DESCRIPTION ? text : shortenText(text, MODE_LINE_DESCRIPTION));
  const lines = shown.map((mode) => `- ${mode.name}: ${line(mode.description)}`).join('\n');
  const more = modes.length > shown.length ? `\n… and ${modes.length - shown.length} more modes: "intent" picks one, "status" names the current one.` : '';
  return {
    name: FOCUS_MODE,
    description: `Switch the tool set to fit the task, or show status. Modes:\n${lines}${more}`,
    inputSchema: jsonSchemaOf(focusModeArgs(modes.length > shown.length ? undefined : modes.map((mode) => mode.name))) as ToolDefinition['inputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function searchTool(enableByDefault: boolean): ToolDefinition {
  return {
    name: SEARCH_TOOLS,
    description: `Find tools not in the current list by what they do; several steps: one short query each in "queries".${enableByDefault ? ' Found tools are added to the list.' : ' Call them with execute_tool.'}`,
    inputSchema: searchSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** search_tools' input schema, the same under every strategy (made once). */
const searchSchema = jsonSchemaOf(searchToolsArgs) as ToolDefinition['inputSchema'];

/** What the read-only discovery tools declare. */
const READS_ONLY = { readOnlyHint: true, openWorldHint: false };

/** An own tool over its zod arguments (own-args.ts), keys in the order clients receive them (token counts are snapshotted). */
function ownTool(name: string, description: string, args: Parameters<typeof jsonSchemaOf>[0], annotations?: ToolDefinition['annotations']): ToolDefinition {
  return { name, description, inputSchema: jsonSchemaOf(args) as ToolDefinition['inputSchema'], ...(annotations ? { annotations: { ...annotations } } : {}) };
}

const describeTool = ownTool(DESCRIBE_TOOLS, 'Get full definitions (input schema, examples) of tools by name before calling them.', describeToolsArgs, READS_ONLY);

const executeTool = ownTool(EXECUTE_TOOL, 'Call any tool by name, including ones not in the list (find them with search_tools).', executeToolArgs);

const listGroupsTool = ownTool(LIST_TOOL_GROUPS, 'List tool groups with counts; pass group to list its tools.', listToolGroupsArgs, READS_ONLY);
