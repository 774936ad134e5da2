import type { TokenizerName } from '../util/tokens.js';
import type { TopicScore } from './placement.js';
import type { WriteStatus } from './read-only.js';

// The types of the three layers (upstream definitions, lock profiles, the built catalog), apart
// from the builder: modules under the builder (placement-cache.ts, own-tools.ts) import them from
// here, so they need not import catalog.ts, which imports them.

/**
 * An MCP tool definition as an upstream sent it. Only the fields lazytools reads are typed; the
 * object itself is passed to clients verbatim, or compacted (rc `definitions`, see compact.ts).
 */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** One server's tools, as listed live or read from a catalog file. */
export interface ServerTools {
  server: string;
  tools: readonly ToolDefinition[];
  /** What a lock recorded of the server besides its tools (absent in plain catalogs). */
  profile?: ServerProfile | undefined;
}

/**
 * What a server offers besides tools, as a lock records it: a gateway starting on the lock
 * advertises the server's capabilities, instructions, prompts and resources, and connects in its
 * protocol era, before (and without) starting it. Verbatim upstream payloads, loosely typed.
 */
export interface ServerProfile {
  capabilities?: Record<string, unknown> | undefined;
  instructions?: string | undefined;
  /** The era verdict: `legacy` (initialize) or `modern` with the server/discover result. */
  protocol?: { era: 'legacy' } | { era: 'modern'; discover: Record<string, unknown> } | undefined;
  prompts?: Array<Record<string, unknown> & { name: string }> | undefined;
  resources?: Array<Record<string, unknown> & { uri: string }> | undefined;
  resourceTemplates?: Array<Record<string, unknown> & { uriTemplate: string }> | undefined;
}

/** A tool as lazytools knows it: where it lives, what clients call it, what it costs. */
export interface CatalogTool {
  /** `server:tool`, stable across renames of the exposed name. */
  readonly id: string;
  readonly server: string;
  /** The upstream's own name. */
  readonly name: string;
  /** The name clients see: the upstream name, prefixed with the server where names collide. */
  readonly exposedName: string;
  /**
   * The upstream's definition, verbatim but for `name` set to `exposedName`: what describe_tools
   * returns, search indexes and execute_tool validates with.
   */
  readonly definition: ToolDefinition;
  /**
   * The definition clients list (tools/list, group resources): `definition`, compacted under rc
   * `definitions: "compact"` (computed on first read, the same object for the same definition).
   */
  readonly listed: ToolDefinition;
  /** One line, at most 80 characters. */
  readonly summary: string;
  /** Only reads: `readOnlyHint: true`, or without annotations a read verb and no write verb (see `writeStatus`). */
  readonly readOnly: boolean;
  /** Why `readOnly` is what it is. */
  readonly write: WriteStatus;
  /** Groups that match this tool, in config order. */
  readonly groups: readonly string[];
  /** Per group in `groups`, why it matched (and the topic score when placement put it there). */
  readonly placements: readonly GroupPlacement[];
  /** Every topic with evidence, best first, placed or not (the closest groups of an unplaced tool). */
  readonly topics: readonly TopicScore[];
  /** Tokens of the listed definition, what a client pays for the tool (counted on first read, then cached). */
  readonly tokens: number;
}

/** One group a tool is in, and why. */
export interface GroupPlacement {
  group: string;
  reason: string;
  /** The topic score when the group took the tool by topic. */
  score?: number;
}

/** Every tool of every source, with groups resolved. */
export interface Catalog {
  readonly tools: readonly CatalogTool[];
  readonly byName: ReadonlyMap<string, CatalogTool>;
  readonly byId: ReadonlyMap<string, CatalogTool>;
  readonly groups: ReadonlyMap<string, CatalogGroup>;
  readonly servers: readonly string[];
  /** Tokens of every tool's verbatim definition: what listing the whole catalog directly costs (the baseline of every cut). */
  readonly totalTokens: number;
  readonly tokenizer: TokenizerName;
}

export interface CatalogGroup {
  name: string;
  description: string;
  tools: CatalogTool[];
  /** A group with no selector (like the preset `all`): every tool, so no signal about any one. */
  catchAll: boolean;
  /** The rc defines it or names it in a mode: the user's own name for its tools. */
  fromRc: boolean;
}

export interface BuiltCatalog {
  catalog: Catalog;
  /** Tools no group matches, and groups that match nothing. */
  warnings: string[];
  /**
   * Tools left out, each naming what took its place: listed twice by its server, or whose exposed
   * name is another tool's name or id, or one of lazytools' own (the gateway says each once on
   * stderr as it appears; `status` and `check` with the warnings).
   */
  leftOut: string[];
}
