import type { CatalogTool } from '../catalog/catalog.js';
import { withinBoundary } from '../focus/policy.js';
import { modeFit } from '../focus/fit.js';
import { countTextTokens } from '../util/tokens.js';
import type { Caller } from './caller.js';

/*
 * A mode's tools in the compact form a model can call at once through execute_tool: name, one
 * line of purpose, argument names with their types (required ones without `?`). What focus_mode
 * answers where the caller's list cannot change (a 2026-07-28 request, the proxy strategy): the
 * switch reaches the model through the reply. Ordered as the mode ranks its tools (focus/fit.ts)
 * and bounded by the mode's budget in tokens, so a mode of 10,000 tools sends what fits and says
 * how to find the rest.
 */

/** One tool as the reply names it (structuredContent carries these, as its line does). */
export interface CallableTool {
  name: string;
  purpose: string;
  /** Its first ARGUMENTS_SHOWN arguments, schema order. */
  arguments: Array<{ name: string; type: string; required: boolean }>;
  /** How many arguments past those the tool takes (describe_tools gives its schema). */
  moreArguments?: number;
}

/** Tokens a reply's tool lines may take for a mode without a budget (what the model reads stays bounded). */
export const UNBUDGETED_REPLY_TOKENS = 4_000;
/** Arguments a line names at most (the rest are counted). */
const ARGUMENTS_SHOWN = 12;

/** The type a line gives an argument: its JSON Schema type (`string[]` for an array of strings), else `any`. */
function typeOf(schema: unknown): string {
  const { type, items } = (schema ?? {}) as { type?: unknown; items?: { type?: unknown } };
  const name = Array.isArray(type) ? type.filter((t) => t !== 'null').join('|') : typeof type === 'string' ? type : 'any';
  return name === 'array' && typeof items?.type === 'string' ? `${items.type}[]` : name || 'any';
}

/**
 * A tool in callable form: what its line says and no more. The reply is bounded by the tokens of
 * its lines, so its structured form carries the arguments a line names (an upstream schema of
 * thousands of properties made a reply of a few KB of text carry MBs of structuredContent).
 */
export function callableTool(tool: CatalogTool): CallableTool {
  const schema = tool.definition.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  const properties = Object.entries(schema.properties ?? {});
  const args = properties.slice(0, ARGUMENTS_SHOWN).map(([name, property]) => ({ name, type: typeOf(property), required: required.has(name) }));
  const more = properties.length - args.length;
  return { name: tool.exposedName, purpose: tool.summary, arguments: args, ...(more > 0 ? { moreArguments: more } : {}) };
}

/** One line of the reply: `add_note(title: string, tags?: string[]): Add a note…`. */
export function callableLine(tool: CallableTool): string {
  const shown = tool.arguments.map((arg) => `${arg.name}${arg.required ? '' : '?'}: ${arg.type}`);
  const more = tool.moreArguments ? `, … ${tool.moreArguments} more` : '';
  return `- ${tool.name}(${shown.join(', ')}${more}): ${tool.purpose}`;
}

/**
 * The tools of `mode` the caller may call, highest ranked first, in callable form, as many as fit
 * the mode's budget (UNBUDGETED_REPLY_TOKENS without one), with how many were left out. `first`:
 * tools to put ahead of its ranking, ones the caller may run in that mode (those fitting the task
 * an intent states).
 */
export function callableTools(caller: Caller, mode: string, first: readonly CatalogTool[] = []): { tools: CallableTool[]; lines: string[]; omitted: number } {
  const { catalog, config } = caller.hub;
  const fitted = modeFit(catalog, config, mode);
  if (!fitted) return { tools: [], lines: [], omitted: 0 };
  const ahead = new Set(first);
  const ranked = [...ahead, ...fitted.ranked.map((entry) => entry.tool).filter((tool) => !ahead.has(tool))].filter((tool) => withinBoundary(config, caller.boundary, tool));
  const budget = fitted.budget ?? UNBUDGETED_REPLY_TOKENS;
  const tools: CallableTool[] = [];
  const lines: string[] = [];
  let used = 0;
  for (const tool of ranked) {
    const callable = callableTool(tool);
    const line = callableLine(callable);
    const tokens = countTextTokens(line) + 1;
    if (used + tokens > budget) break;
    used += tokens;
    tools.push(callable);
    lines.push(line);
  }
  return { tools, lines, omitted: ranked.length - tools.length };
}
