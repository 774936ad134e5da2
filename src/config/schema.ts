import { z } from 'zod';
import { TOPICS } from './topics.js';
import { MAX_TIMER_MS } from '../util/bounds.js';
import { blankControls } from '../util/controls.js';
import { hasUserinfo, httpUrl, USERINFO_MESSAGE } from './urls.js';
import { oauthIssues, oauthSchema } from './oauth-schema.js';
import { HEADER_NAME_MESSAGE, HEADER_VALUE_MESSAGE, headerName, headerValue, NUL_MESSAGE, withoutNul } from './wire-text.js';
import { replaceBraced } from '../util/braces.js';
import { STRATEGIES } from './strategies.js';

/**
 * The rc file contract. Every object is strict so a typo is an error with its key path, and every
 * type below is inferred from it. Upstream MCP payloads are deliberately not modelled here.
 */

/**
 * Longest server, mode, group or token name. Names reach the model (focus_mode's definition lists
 * modes and offers them as an enum, replies and status name them, a server name prefixes its tools'
 * names), and what the model reads is bounded whatever the rc says.
 */
export const MAX_NAME = 64;

const name = z
  .string()
  .max(MAX_NAME, `at most ${MAX_NAME} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "-" or "." (starting with a letter or digit)');

/** What is wrong with a server name (an rc `servers` key, or a catalog or lock file's), else undefined. */
export function serverNameProblem(text: string): string | undefined {
  const parsed = name.safeParse(text);
  return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message).join('; ');
}

/** Topic names placement knows (`src/config/topics.ts`). */
const TOPIC_NAMES = Object.keys(TOPICS) as [string, ...string[]];

/** Mode and group names go into paths (`/mcp/<mode>`, `lazytools://groups/<group>`) and tool-list labels: no dots, slashes or spaces. */
export const key = z
  .string()
  .max(MAX_NAME, `at most ${MAX_NAME} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, "_" or "-" (starting with a letter or digit)');

/** A command, argument, folder or env entry: what the system is handed as it is (config/wire-text.ts). */
const osText = () => z.string().refine(withoutNul, NUL_MESSAGE);

/** Headers sent to a remote server: names and values fetch can send (config/wire-text.ts). */
const headerMap = z.record(z.string().refine(headerName, HEADER_NAME_MESSAGE), z.string().refine(headerValue, HEADER_VALUE_MESSAGE));

/** A positive whole number of milliseconds a timer can wait. */
const milliseconds = () => z.number().int().positive().max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer waits)`);

/**
 * A variable name or a glob over names for envPassthrough. A glob of wildcards only (`*`) is
 * refused: it would hand a server the whole environment, every other service's keys with it.
 */
const envName = z
  .string()
  .regex(/^[A-Za-z0-9_*?]+$/, 'a variable name or a glob over names (letters, digits, "_", "*", "?"), e.g. KUBECONFIG or AWS_*')
  .refine((name) => !/^[*?]*\*[*?]*$/.test(name), 'a glob of wildcards only would pass the whole environment (every key and token in it): name the variables, or a prefix such as AWS_*');

/** One upstream MCP server: stdio (`command`) or HTTP (`url`). `${VAR}` reads the environment. */
export const serverSchema = z
  .strictObject({
    command: osText().min(1).optional().describe('Executable to start (stdio upstream).'),
    args: z.array(osText()).optional().describe('Arguments for `command`.'),
    env: z.record(osText(), osText()).optional().describe('Environment for the child; `${VAR}` is read from ours.'),
    envPassthrough: z
      .array(envName)
      .optional()
      .describe('Variables of our environment the child gets as they are: names or globs (`KUBECONFIG`, `AWS_*`); default: the top-level envPassthrough.'),
    cwd: osText().optional().describe('Working directory for the child.'),
    url: z
      .string()
      .refine(httpUrl, 'expected an http(s) URL')
      .refine((url) => !hasUserinfo(replaceBraced(url, /\$\{[^}]*\}/g, () => 'x')), USERINFO_MESSAGE)
      .optional()
      .describe('HTTP endpoint of the upstream (Streamable HTTP, or HTTP+SSE: see `transport`); `${VAR}` is read from the environment.'),
    headers: headerMap.optional().describe('HTTP headers sent to `url` (e.g. Authorization: Bearer ${TOKEN}).'),
    transport: z
      .enum(['streamable-http', 'sse'])
      .optional()
      .describe('HTTP transport of `url`: streamable-http or sse (the deprecated HTTP+SSE). Default: Streamable HTTP, falling back to HTTP+SSE when the server refuses it.'),
    oauth: z
      .union([z.literal(false), oauthSchema])
      .optional()
      .describe('OAuth 2.1 sign-in to `url` (see `lazytools auth`); false: never sign in (a 401 is an error).'),
    timeout: milliseconds().optional().describe('Per-call timeout in milliseconds (default 120000).'),
    idleTimeout: milliseconds().optional().describe('Stop the upstream after this many milliseconds without calls; it restarts on the next call.'),
    startTimeout: milliseconds().optional().describe('Milliseconds a start (spawn, initialize, lists) may take before the server is reported failed (default: the top-level startTimeout, 30000).'),
    disabled: z.boolean().optional().describe('Keep the entry but do not connect.'),
  })
  .superRefine((server, ctx) => {
    if (server.command === undefined && server.url === undefined)
      ctx.addIssue({ code: 'custom', message: 'expected either "command" (stdio) or "url" (Streamable HTTP)' });
    if (server.command !== undefined && server.url !== undefined)
      ctx.addIssue({ code: 'custom', message: 'expected only one of "command" (stdio) and "url" (Streamable HTTP), not both' });
    if (server.url !== undefined) {
      for (const key of ['args', 'env', 'cwd', 'envPassthrough'] as const)
        if (server[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" applies to stdio servers only (this one has "url")` });
      if (server.oauth) oauthIssues(server.oauth, server.headers, ctx);
    } else {
      for (const key of ['headers', 'transport', 'oauth'] as const)
        if (server[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" applies to HTTP servers only (this one has "command")` });
    }
  });

/**
 * Longest mode, group or token description. Descriptions reach the model and clients whole in
 * places (the groups index resource and groups/list, list_tool_groups, server variants): bounded
 * like names, whatever the rc says. The presets' longest is under 150.
 */
export const MAX_DESCRIPTION = 1_000;

/**
 * rc text the model or a terminal reads (descriptions, aliases, tasks, tool summaries): its
 * control characters blanked (util/controls.ts) as an upstream's summary's are. Blanked, not
 * refused: a YAML block scalar ends in a newline, and a line break says nothing a space does not.
 */
const text = () => z.string().overwrite(blankControls);

const description = () => text().max(MAX_DESCRIPTION, `at most ${MAX_DESCRIPTION} characters`).optional();

/** A list of placement topics (config/topics.ts). */
const topicList = () => z.array(z.enum(TOPIC_NAMES)).optional();

/**
 * A tool group: data plus an ordered filter pipeline (servers, then tools/keywords/topics, then readOnly,
 * then exclude). An unset filter does not filter; an empty list matches nothing.
 */
export const groupSchema = z.strictObject({
  description: description(),
  servers: z.array(z.string()).optional().describe('Globs on server names: keep only tools of these servers.'),
  tools: z.array(z.string()).optional().describe('Globs on "server:tool" ids (a glob without ":" matches any server).'),
  keywords: z.array(z.string()).optional().describe('Words or phrases matched at word starts in the tool name, title and summary.'),
  topics: topicList().describe('Topics placement puts tools in from their name, description, annotations and schema (see `lazytools groups`).'),
  readOnly: z.boolean().optional().describe('true keeps only tools that only read: readOnlyHint, else no write verb and a read verb in name or description.'),
  exclude: z.array(z.string()).optional().describe('Globs on "server:tool" ids removed last.'),
  excludeTopics: topicList().describe('Topics whose tools are removed last, like exclude: keeps "*issue*" from taking error-tracker issues.'),
  pin: z.boolean().optional().describe('true: every mode that shows this group shows all its tools, whatever its budget (budget fitting never holds them back).'),
});

/**
 * Most aliases and tasks a mode may list, and the longest of each (presets: 37 aliases of 24
 * characters, 100 tasks of 69). Aliases are matched against every focus_mode intent: 100,000 of
 * them, or a 1 MB task, had no bound but the rc's 4 MiB. Every task is a search when a mode is
 * fitted (focus/fill.ts, within its COVERAGE_WORK).
 */
export const [MAX_ALIASES, MAX_ALIAS, MAX_TASKS, MAX_TASK] = [100, 100, 150, 300] as const;

/** A focus mode. rc entries merge key by key over the preset of the same name. */
export const modeSchema = z.strictObject({
  description: description(),
  aliases: z.array(text().max(MAX_ALIAS, `at most ${MAX_ALIAS} characters`)).max(MAX_ALIASES, `at most ${MAX_ALIASES} aliases`).optional().describe('What people say for this mode ("security audit", "standup").'),
  tasks: z
    .array(text().max(MAX_TASK, `at most ${MAX_TASK} characters`))
    .max(MAX_TASKS, `at most ${MAX_TASKS} tasks`)
    .optional()
    .describe('Typical tasks of the mode as people phrase them ("refund the last charge"): budget fitting shows first the tools closest to these and the description, and a focus_mode intent close to one picks the mode.'),
  groups: z.array(z.string()).optional().describe('Groups whose tools the mode shows.'),
  extends: z.string().optional().describe('Another mode whose groups this one adds to.'),
  readOnly: z.boolean().optional().describe('Show and allow only tools that only read: readOnlyHint, else no write verb and a read verb in name or description (README "Read-only").'),
  budget: z.number().int().positive().optional().describe('Token budget for the mode\'s tool definitions.'),
  maxBudget: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('On a large catalog the mode may spend more than "budget": up to what its tools cost and 14.5% of what the servers\' own definitions of every tool cost, at most this many tokens (default: "budget"; a mode that sets "budget" without it keeps that budget).'),
  fit: z
    .boolean()
    .optional()
    .describe('true (default): when the mode\'s groups cost more than its budget, show the highest-priority tools that fit and reach the rest through search_tools; false: show them all (check fails over budget).'),
  pin: z.array(z.string()).optional().describe('Globs on "server:tool" ids the mode always shows, whatever its budget.'),
  fill: z
    .boolean()
    .optional()
    .describe('true: budget fitting also ranks the tools closest to the mode\'s description and tasks that its groups leave out (a little below its own; its read-only rule still applies; a bearer token\'s boundary never grows by them). Presets set it; default false.'),
  lean: z
    .enum(['read', 'write'])
    .optional()
    .describe('Which tools budget fitting keeps first among equals: "read" (tools that look before tools that change) or "write" (tools that create and update first, for modes whose work is changing things). Default: "read" when the mode is readOnly or most of its tools only read.'),
});

/** Values one tool's examples may hold: describe_tools prints them in full. */
const MAX_EXAMPLE_VALUES = 10_000;

/**
 * True when `value` holds at most `max` values, counting a shared object each time it is reached
 * (a YAML alias bomb expands to billions while parsing stays cheap). Stops counting at `max`.
 */
function withinSize(value: unknown, max: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count > max) return false;
    if (typeof next === 'object' && next !== null) for (const child of Object.values(next)) stack.push(child);
  }
  return true;
}

/** Per-tool overrides, keyed by "server:tool". */
export const toolOverrideSchema = z.strictObject({
  summary: text().max(80).optional().describe('One-line summary (<= 80 characters) shown in indexes and search.'),
  examples: z
    .array(z.record(z.string(), z.unknown()))
    .refine((examples) => withinSize(examples, MAX_EXAMPLE_VALUES), `expected at most ${MAX_EXAMPLE_VALUES} values in all (YAML anchors and aliases count each time they are used)`)
    .optional()
    .describe('Example arguments shown by describe_tools.'),
  pin: z.boolean().optional().describe('true: every mode that includes this tool shows it, whatever its budget.'),
  priority: z
    .number()
    .min(-100)
    .max(100)
    .optional()
    .describe('Added to the tool\'s priority when a mode is fitted to its budget (higher shows first; a tool\'s own signals add up to about 10).'),
});

export const strategySchema = z.enum(STRATEGIES);

/** How clients receive tool definitions: compacted (`src/catalog/compact.ts`) or as the upstream sent them. */
export const definitionsSchema = z.enum(['compact', 'verbatim']);

/**
 * One bearer token of `auth.tokens`: its sha256 (never the token itself, so the rc can be
 * committed) and the modes it may use. A token-mapped mode is a boundary: neither the endpoint nor
 * a server variant can widen it.
 */
export const tokenGrantSchema = z.strictObject({
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected the token\'s sha256 as 64 hex digits (e.g. `printf %s "$TOKEN" | sha256sum`)')
    .describe('sha256 of the bearer token, hex (`printf %s "$TOKEN" | sha256sum`).'),
  modes: z.array(key).min(1).describe('Modes this token may use; the first is its default.'),
  description: description().describe('Who holds the token (shown in logs instead of the token).'),
});

/** Bearer tokens mapped to modes (HTTP only). */
export const authSchema = z.strictObject({
  tokens: z.record(key, tokenGrantSchema).optional().describe('Bearer tokens by label, each stored as its sha256 and mapped to the modes it may use.'),
  operator: z
    .strictObject({ sha256: tokenGrantSchema.shape.sha256, description: description() })
    .optional()
    .describe('The bearer token of /readyz and /metrics (stored as its sha256); it opens nothing else, and no mode token opens them.'),
});

/**
 * Server variants (SEP-2053, a draft MCP extension): each mode is advertised as a variant in
 * `server/discover`, and a 2026-07-28 request selects one with
 * `_meta["io.modelcontextprotocol/server-variant"]`. Off by default while the SEP is a draft.
 */
export const variantsSchema = z.strictObject({
  enabled: z.boolean().optional().describe('Advertise modes as server variants (SEP-2053 draft; default false).'),
  modes: z.array(key).optional().describe('Modes offered as variants (default: every mode).'),
});

/**
 * An embeddings endpoint for search (search/embeddings.ts): tool texts are embedded once (at
 * `lock` or on the first search, cached by definition), each search's queries as it runs.
 */
export const embeddingsSchema = z.strictObject({
  url: z.string().min(1).refine(httpUrl, 'expected an http(s) URL').describe('Base URL of an OpenAI-compatible API; lazytools POSTs to <url>/embeddings, the query kept and never printed (e.g. http://127.0.0.1:11434/v1 for Ollama). `${VAR}` reads the environment; no user name or password (use apiKey).'),
  model: z.string().min(1).describe('Embedding model name the endpoint serves (e.g. nomic-embed-text).'),
  apiKey: z.string().optional().describe('Bearer token for the endpoint, best as `${VAR}` (redacted from logs).'),
  weight: z.number().min(0).max(1).optional().describe('How much meaning counts against word matches, 0..1 (default 0.25; a strong model may warrant more).'),
  timeoutMs: milliseconds().optional().describe('Milliseconds a search waits for the endpoint before answering by words alone (default 1500).'),
});

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  servers: z.record(name, serverSchema).optional(),
  groups: z.record(key, groupSchema).optional(),
  modes: z.record(key, modeSchema).optional(),
  defaultMode: z.string().optional().describe('Mode a new session starts in (default "development").'),
  alwaysVisible: z.array(z.string()).optional().describe('Globs on "server:tool" ids visible in every mode.'),
  budget: z.number().int().positive().optional().describe('Token budget for modes that set none.'),
  strategy: strategySchema.optional().describe('How modes reach clients: notify, proxy, hybrid, or auto (default: by clientInfo.name, unknown clients hybrid).'),
  tokenizer: z.enum(['o200k_base', 'cl100k_base']).optional().describe('Tokenizer for token counts (default o200k_base).'),
  prefix: z.enum(['auto', 'always']).optional().describe('Prefix exposed names with the server: only on collisions (auto) or always.'),
  definitions: definitionsSchema
    .optional()
    .describe('Tool definitions clients list: compact (default: long descriptions cut to their first paragraph or sentences, schema noise dropped, the same arguments accepted) or verbatim.'),
  tools: z.record(z.string(), toolOverrideSchema).optional(),
  policy: z
    .strictObject({
      hiddenTools: z.enum(['allow', 'reject']).optional().describe('Direct calls of tools outside the mode: allow (default) or reject.'),
    })
    .optional(),
  discovery: z
    .strictObject({
      maxEnabled: z.number().int().nonnegative().optional().describe('Cap on tools search_tools adds (discovers) into a session\'s list, least recently used out first (default 20).'),
      embeddings: embeddingsSchema.optional().describe('An OpenAI-compatible embeddings endpoint (Ollama, llama.cpp, vLLM, a hosted API) whose vectors search adds to word matching; optional.'),
    })
    .optional(),
  usage: z.boolean().optional().describe('Record tool usage per mode in a local JSONL file.'),
  pin: z.boolean().optional().describe('Hold back tools whose live definition differs from lazytools.lock.json (or that it lacks) until re-locked.'),
  metrics: z.boolean().optional().describe('Serve Prometheus metrics at /metrics over HTTP (calls, errors and latency per server and tool, sessions, list_changed sent, tokens per mode).'),
  startTimeout: milliseconds().optional().describe('Milliseconds each server\'s start may take (default 30000): first requests wait at most this long for servers still starting.'),
  envPassthrough: z
    .array(envName)
    .optional()
    .describe('Variables of our environment every stdio server gets as they are (names or globs such as AWS_*), unless its entry sets its own.'),
  auth: authSchema.optional().describe('Bearer tokens mapped to modes (HTTP).'),
  variants: variantsSchema.optional().describe('Modes as server variants for 2026-07-28 clients (SEP-2053 draft).'),
  cache: z
    .strictObject({
      ttlMs: z.number().int().nonnegative().optional().describe('ttlMs of 2026-07-28 list results (default 60000).'),
    })
    .optional(),
});

export type ServerConfig = z.infer<typeof serverSchema>;
export type GroupConfig = z.infer<typeof groupSchema>;
export type ModeConfig = z.infer<typeof modeSchema>;
export type ToolOverride = z.infer<typeof toolOverrideSchema>;
export type { Strategy } from './strategies.js';
export type DefinitionsSetting = z.infer<typeof definitionsSchema>;
export type EmbeddingsConfig = z.infer<typeof embeddingsSchema>;
/** The rc file as written (after validation). */
export type RcConfig = z.infer<typeof configSchema>;
