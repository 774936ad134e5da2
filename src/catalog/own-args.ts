import { z } from 'zod';

/*
 * The arguments of lazytools' own tools, defined once in zod (the rc's contract language): the
 * JSON Schema each definition lists (own-tools.ts) and the parsing each handler does come from
 * the same schema. Every field carries the message a model reads when it gets the field wrong;
 * bounds a list must not advertise (at most N queries, a non-empty list) are refinements, which
 * JSON Schema output leaves out, so the definitions cost no more tokens than they need.
 */

/** Queries one search_tools call reads at most (one per step of a task). */
export const MAX_QUERIES = 10;

const text = (tool: string, key: string) => z.string({ error: `${tool}: "${key}" must be a string.` });
const flag = (tool: string, key: string) => z.boolean({ error: `${tool}: "${key}" must be a boolean.` });

/** focus_mode's arguments; `modes` (when given) is the enum its definition offers for `mode`. */
export function focusModeArgs(modes?: readonly string[]) {
  const mode = text('focus_mode', 'mode');
  return z.object({
    mode: (modes ? mode.meta({ enum: [...modes] }) : mode).optional(),
    intent: text('focus_mode', 'intent').describe('Task in words, e.g. "review this PR"').optional(),
    enable_group: text('focus_mode', 'enable_group').optional(),
    disable_group: text('focus_mode', 'disable_group').optional(),
    status: flag('focus_mode', 'status').describe('Only report status').optional(),
  });
}

const queriesError = 'search_tools: "queries" must be an array of strings, one short query per step of the task.';
const limitError = 'search_tools: "limit" must be a whole number from 1 to 50.';

/** search_tools' arguments; one of `query` or `queries` must hold a non-empty string. */
export const searchToolsArgs = z
  .object({
    query: text('search_tools', 'query').optional(),
    queries: z
      .array(z.string({ error: queriesError }), { error: queriesError })
      .refine((queries) => queries.length <= MAX_QUERIES, { error: `search_tools: "queries" takes at most ${MAX_QUERIES} queries.` })
      .optional(),
    limit: z.number({ error: limitError }).int({ error: limitError }).min(1, { error: limitError }).max(50, { error: limitError }).optional(),
    group: text('search_tools', 'group').optional(),
    detail: z.enum(['name', 'summary', 'schema'], { error: 'search_tools: "detail" must be "name", "summary" or "schema".' }).optional(),
    enable: flag('search_tools', 'enable').describe('Add results to the tool list').optional(),
  })
  .refine((args) => [args.query, ...(args.queries ?? [])].some((query) => query !== undefined && query.trim() !== ''), {
    error: 'search_tools: pass "query" (a non-empty string) or "queries" (one short query per step).',
  });

const namesError = 'describe_tools: "names" must be a non-empty array of tool names.';

/** describe_tools' arguments. */
export const describeToolsArgs = z.object({
  names: z.array(z.string({ error: namesError }), { error: namesError }).refine((names) => names.length > 0, { error: namesError }),
});

const nameError = 'execute_tool: "name" must be the name of a tool (find one with search_tools).';

/**
 * execute_tool's arguments: the tool's name and its own arguments (checked against its schema
 * later), and the mode to run it in, stateless: what a focus_mode reply names where a list cannot
 * change (a 2026-07-28 request has no session to switch).
 */
export const executeToolArgs = z.object({
  name: z.string({ error: nameError }).refine((name) => name !== '', { error: nameError }),
  arguments: z.record(z.string(), z.unknown(), { error: 'execute_tool: "arguments" must be an object.' }).optional(),
  mode: text('execute_tool', 'mode').optional(),
});

/** list_tool_groups' arguments. */
export const listToolGroupsArgs = z.object({ group: text('list_tool_groups', 'group').optional() });

/**
 * The arguments of a call as the schema reads them, or the message of the first problem (each
 * field's own). Anything but an object (or nothing) is refused as a whole.
 */
export function readArgs<S extends z.ZodType>(schema: S, tool: string, raw: unknown): { args: z.output<S> } | { problem: string } {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) return { problem: `${tool}: the arguments must be an object.` };
  const parsed = schema.safeParse(raw ?? {});
  return parsed.success ? { args: parsed.data } : { problem: parsed.error.issues[0]?.message ?? `${tool}: invalid arguments.` };
}

/**
 * The JSON Schema a definition lists for `schema`: zod's, without what JSON Schema implies anyway
 * (the dialect, `additionalProperties: {}`, string property names, a nested object's empty
 * `properties`), so a free-form object reads `{"type":"object"}`.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return tidy(json, true) as Record<string, unknown>;
}

function tidy(node: unknown, top = false): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && isEmpty(value)) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === 'properties' && !top && isEmpty(value)) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, field]) => [name, tidy(field)])) : tidy(value);
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
