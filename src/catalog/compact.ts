import { setOwn } from '../util/own.js';
import { shortenText } from './text.js';

/**
 * Compact tool definitions (rc `definitions: "compact"`): the definition a client lists costs
 * fewer tokens on every model turn, and accepts exactly the arguments the upstream's does.
 *
 * What changes, and why each rule is safe:
 * - **Tool description**: up to {@link TOOL_DESCRIPTION_MAX} characters kept whole; longer ones keep
 *   their first paragraph, or as many leading sentences as fit, or a cut at a word, ending in " …"
 *   so the model knows there is more. The full text stays in the catalog: `describe_tools` and
 *   `search_tools` with `detail: "schema"` return it, search indexes it.
 * - **Schema `description`** (any subschema): shortened the same way to
 *   {@link SCHEMA_DESCRIPTION_MAX} characters; an empty or blank one is dropped. Annotation only:
 *   no JSON Schema dialect validates with it.
 * - **`title` repeating a name**: dropped where it only restates the property name, the `$defs` key
 *   or (at the root) the tool name, compared without case and punctuation (pydantic's `"Max
 *   Results"` on `max_results`, FastMCP's `"searchArguments"`). Other titles stay: they may be the
 *   only words about a field.
 * - **`$comment`**: dropped; the specification reserves it for schema authors, never validation.
 * - **`examples`**: only the first kept; annotation only, and one example shows the shape.
 * - **`additionalProperties: true` / `{}`**: dropped, it is the default; kept when the schema has
 *   `unevaluatedProperties` anywhere (there it marks properties as evaluated).
 * - **Unreached root definitions**: `$defs`/`definitions` entries no `$ref` reaches are dropped
 *   (validation reads a definition only through a ref); all stay when a ref is anything but a plain
 *   local pointer to a root definition, or the schema uses anchors or dynamic refs.
 *
 * What never changes: `$schema` (SEP-1613: MCP's conformance suite checks that a server lists it
 * as written, and a client picks its dialect from it), names, `type`, `required`, `enum`,
 * `const`, `format`, numeric, string and array constraints, `additionalProperties: false` or a schema, `items`, combinators, `$ref`,
 * `$defs`/`definitions` entries a ref reaches, `$id`/`$anchor`, `default` (it tells the model what omitting a field
 * means), `deprecated`/`readOnly`/`writeOnly`, and every keyword lazytools does not know (kept
 * verbatim, never walked: it may belong to a vocabulary with meaning). Outside `inputSchema`
 * nothing changes: `title`, `annotations`, `outputSchema` (clients validate results with it and
 * most do not send it to the model), `execution`, `icons` and `_meta` pass through.
 *
 * Bounds: the walk is recursive but stops at {@link MAX_SCHEMA_DEPTH} nested subschemas (or
 * {@link MAX_SCHEMA_NODES} in all), and such a schema is kept verbatim; so is one whose `$ref`
 * points at something a rule would remove, or that has refs and a `$id` below its root.
 * Unchanged subschemas are the same objects, and a definition with nothing to compact is returned
 * as is.
 */

/**
 * Tool descriptions up to this many characters are kept whole, and schema descriptions up to
 * SCHEMA_DESCRIPTION_MAX. What a mode can show is its budget over what each tool costs, and schema
 * descriptions are most of a definition's words (1.57 M of 2.56 M description characters over the
 * 23 fixture catalogs). From 300/120 to 250/80, with fitting's cost step (src/focus/fit.ts
 * COST_STEP): gold tools shown in the task's mode 597 -> 607 of 847 on the tuning stacks and
 * 503 -> 518 of 813 on the blind ones, the mode picked from the task shows one 645 -> 654 and
 * 601 -> 614; the presets' mean cut stays where budget.ts holds it. 150/60 showed more (blind 526) but
 * cut most tools' purpose to one line; what is cut stays one `describe_tools` away.
 */
export const TOOL_DESCRIPTION_MAX = 250;
/** Schema descriptions up to this many characters are kept whole (see TOOL_DESCRIPTION_MAX). */
export const SCHEMA_DESCRIPTION_MAX = 80;
/** Deeper schemas are kept verbatim (the real-world fixture's deepest is 7 subschemas). */
export const MAX_SCHEMA_DEPTH = 64;

/** Schemas with more subschemas are kept verbatim (bounds the walk when objects are shared, not parsed). */
const MAX_SCHEMA_NODES = 100_000;

type Schema = Record<string, unknown>;

/** The part of an MCP tool definition compaction reads (catalog.ts ToolDefinition fits it). */
export interface CompactableTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

/** Keywords holding one subschema. */
const SCHEMA_KEYWORDS = new Set(['additionalProperties', 'items', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema']);
/** Keywords holding an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
/** Keywords holding a map of name to subschema (`dependencies` values may also be name lists). */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keys the rules remove or rewrite: a `$ref` into one of them keeps the schema verbatim. */
const REWRITTEN = new Set(['title', 'description', '$comment', 'examples', 'additionalProperties']);

class TooLarge extends Error {}

/** What one pass over a schema found, deciding the whole-schema rules. */
interface Survey {
  /** Subschemas visited so far (bounded by MAX_SCHEMA_NODES). */
  nodes: number;
  unevaluated: boolean;
  refs: string[];
  /** A `$id` below the root: `#/…` refs under it are relative to that subschema, not the root. */
  nestedId: boolean;
}

/**
 * The compact form of one tool definition (see the module comment for the rules). Pure: the
 * input is never modified, and a definition with nothing to compact comes back as the same object.
 *
 * @example
 * compactDefinition({ name: 'search', description: `Search issues.\n\n${notes}`, inputSchema: { type: 'object', properties: { query: { type: 'string', title: 'Query', description: '' } } } });
 * // => { name: 'search', description: 'Search issues. …', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }
 * // (when `notes` takes the whole text past TOOL_DESCRIPTION_MAX characters)
 */
export function compactDefinition<T extends CompactableTool>(tool: T): T {
  // A blank description stays as it is: clients and conformance checks expect the key.
  const short = typeof tool.description === 'string' ? shortenText(tool.description, TOOL_DESCRIPTION_MAX) : '';
  const description = short === '' ? tool.description : short;
  const inputSchema = compactSchema(tool.inputSchema, tool.name);
  if (description === tool.description && inputSchema === tool.inputSchema) return tool;
  return description === undefined ? { ...tool, inputSchema } : { ...tool, description, inputSchema };
}

/**
 * The compact form of a tool's input schema, or the schema itself when it is too deep, refers
 * into a key a rule rewrites, or has nothing to compact.
 */
export function compactSchema(schema: unknown, toolName: string): unknown {
  if (!isSchemaObject(schema)) return schema;
  const survey: Survey = { nodes: 0, unevaluated: false, refs: [], nestedId: false };
  try {
    surveySchema(schema, survey, 0);
  } catch (error) {
    if (error instanceof TooLarge) return schema;
    throw error;
  }
  if (survey.refs.length > 0 && (survey.nestedId || survey.refs.some((ref) => refersToRewritten(schema, ref)))) return schema;
  return new Compactor(survey).schema(withoutUnusedDefs(schema, survey), toolName, [`${toolName}arguments`, `${toolName}input`, `${toolName}params`]);
}

/** Root definition sections. */
const DEF_SECTIONS = ['$defs', 'definitions'] as const;
/** A local ref to one root definition: `#/$defs/name` or `#/definitions/name`, optionally deeper. */
const DEF_REF = /^#\/(\$defs|definitions)\/([^/~%]+)(?:\/|$)/;
/** Keywords that resolve by name or scope rather than by pointer: with any of them, every definition stays. */
const SCOPED_REFS = /"\$(?:dynamicRef|recursiveRef|anchor|dynamicAnchor|recursiveAnchor)"/;

/**
 * The schema without the root `$defs`/`definitions` entries no `$ref` reaches, from outside the
 * definitions or through definitions that are reached (generated servers ship one shared `$defs`
 * block in every tool: Notion's 24 tools each carry the block definitions only two use).
 * Validation reads a definition only through a ref, so an unreached one changes nothing. Kept
 * whole when any ref is not a plain local pointer to a root definition, or the schema resolves
 * refs by anchor or dynamic scope.
 */
function withoutUnusedDefs(schema: Schema, survey: Survey): Schema {
  const sections = DEF_SECTIONS.filter((key) => isSchemaObject(schema[key]));
  if (sections.length === 0) return schema;
  const parsed = survey.refs.map((ref) => DEF_REF.exec(ref));
  if (parsed.some((match) => match === null) || SCOPED_REFS.test(JSON.stringify(schema))) return schema;
  const defs = new Map<string, Schema>();
  for (const section of sections) for (const [name, def] of Object.entries(schema[section] as Schema)) if (isSchemaObject(def)) defs.set(`${section}/${name}`, def);
  // Refs outside the definitions, then the refs of each definition reached, until none is new.
  const outside: Schema = {};
  for (const [key, value] of Object.entries(schema)) if (!sections.includes(key as (typeof DEF_SECTIONS)[number])) setOwn(outside, key, value);
  const reached = new Set<string>();
  const queue = [outside];
  while (queue.length > 0) {
    const found: Survey = { nodes: 0, unevaluated: false, refs: [], nestedId: false };
    surveySchema(queue.pop() as Schema, found, 0);
    for (const ref of found.refs) {
      const match = DEF_REF.exec(ref);
      const key = match ? `${match[1]}/${match[2]}` : '';
      if (reached.has(key)) continue;
      reached.add(key);
      const def = defs.get(key);
      if (def) queue.push(def);
    }
  }
  if ([...defs.keys()].every((key) => reached.has(key))) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!sections.includes(key as (typeof DEF_SECTIONS)[number])) {
      setOwn(out, key, value);
      continue;
    }
    const kept: Schema = {};
    for (const [name, def] of Object.entries(value as Schema)) if (!isSchemaObject(def) || reached.has(`${key}/${name}`)) setOwn(kept, name, def);
    if (Object.keys(kept).length > 0) setOwn<unknown>(out, key, kept);
  }
  return out;
}

/** Rewrites subschemas by the rules; unchanged ones come back as the same objects. */
class Compactor {
  constructor(private readonly survey: Survey) {}

  /** `name` and `aliases`: the names a `title` here would only repeat. */
  schema(node: Schema, name: string | undefined, aliases: readonly string[] = []): Schema {
    const out: Schema = {};
    let changed = false;
    for (const [key, value] of Object.entries(node)) {
      const next = this.keyword(key, value, name, aliases);
      if (next === DROP) {
        changed = true;
        continue;
      }
      if (next !== value) changed = true;
      setOwn(out, key, next); // a `__proto__` key of parsed JSON stays a key
    }
    return changed ? out : node;
  }

  private keyword(key: string, value: unknown, name: string | undefined, aliases: readonly string[]): unknown {
    switch (key) {
      case 'description':
        if (typeof value !== 'string') return value;
        return value.trim() === '' ? DROP : shortenText(value, SCHEMA_DESCRIPTION_MAX);
      case 'title':
        return typeof value === 'string' && name !== undefined && [name, ...aliases].some((alias) => sameName(alias, value)) ? DROP : value;
      case '$comment':
        return DROP;
      case 'examples':
        return Array.isArray(value) && value.length > 1 ? value.slice(0, 1) : value;
      case 'additionalProperties':
        if (!this.survey.unevaluated && (value === true || (isSchemaObject(value) && Object.keys(value).length === 0))) return DROP;
        break;
    }
    if (SCHEMA_MAP_KEYWORDS.has(key) && isSchemaObject(value)) return this.map(value, key === '$defs' || key === 'definitions' || key === 'properties');
    if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) return this.list(value);
    if (SCHEMA_KEYWORDS.has(key) && isSchemaObject(value)) return this.schema(value, undefined);
    return value;
  }

  private map(value: Schema, named: boolean): Schema {
    const out: Schema = {};
    let changed = false;
    for (const [name, child] of Object.entries(value)) {
      const next = isSchemaObject(child) ? this.schema(child, named ? name : undefined) : child;
      if (next !== child) changed = true;
      setOwn(out, name, next);
    }
    return changed ? out : value;
  }

  private list(value: unknown[]): unknown[] {
    let changed = false;
    const out = value.map((child) => {
      const next = isSchemaObject(child) ? this.schema(child, undefined) : child;
      if (next !== child) changed = true;
      return next;
    });
    return changed ? out : value;
  }
}

const DROP = Symbol('drop');

/**
 * One pass over the subschemas (bounded: throws TooLarge past MAX_SCHEMA_DEPTH or MAX_SCHEMA_NODES):
 * whether the schema uses `unevaluated*`, has a `$id` below its root, and its `$ref`s.
 */
function surveySchema(node: Schema, survey: Survey, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH || ++survey.nodes > MAX_SCHEMA_NODES) throw new TooLarge();
  const keys = Object.keys(node);
  for (const key of keys) {
    const value = node[key];
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems') survey.unevaluated = true;
    if ((key === '$id' || key === 'id') && depth > 0 && typeof value === 'string') survey.nestedId = true;
    if (key === '$ref' && typeof value === 'string') survey.refs.push(value);
    for (const child of subschemas(key, value)) surveySchema(child, survey, depth + 1);
  }
}

/** The subschemas a keyword's value holds (none for data and unknown keywords). */
function subschemas(key: string, value: unknown): Schema[] {
  if (SCHEMA_MAP_KEYWORDS.has(key) && isSchemaObject(value)) return Object.values(value).filter(isSchemaObject);
  if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) return value.filter(isSchemaObject);
  if (SCHEMA_KEYWORDS.has(key) && isSchemaObject(value)) return [value];
  return [];
}

/**
 * True when a `$ref` pointer (`#/…`) passes through a key the rules rewrite, in keyword position
 * (`#/properties/description` names a property and is fine; `#/properties/a/additionalProperties`
 * would lose its target).
 */
function refersToRewritten(root: Schema, ref: string): boolean {
  // Any fragment pointer is read against the root: an absolute ref may name this schema by its `$id`.
  const fragment = ref.indexOf('#/');
  if (fragment < 0) return false;
  let segments: string[];
  try {
    segments = ref
      .slice(fragment + 2)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return true; // a malformed pointer: keep the schema as the upstream wrote it
  }
  let node: unknown = root;
  let keyword = true;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (!keyword) {
      // A name in a map or an index in a list: the next segment is a keyword of that subschema.
      node = isSchemaObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
      keyword = true;
      continue;
    }
    if (REWRITTEN.has(segment)) return true;
    if (!isSchemaObject(node) || !Object.prototype.hasOwnProperty.call(node, segment)) return false;
    const value = node[segment];
    if (SCHEMA_MAP_KEYWORDS.has(segment) || (SCHEMA_ARRAY_KEYWORDS.has(segment) && Array.isArray(value))) keyword = false;
    else if (!SCHEMA_KEYWORDS.has(segment)) return false; // into data or an unknown keyword: nothing there is rewritten
    node = value;
  }
  return false;
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names equal without case and punctuation: "Max Results" repeats max_results. */
function sameName(a: string, b: string): boolean {
  const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return plain(a) !== '' && plain(a) === plain(b);
}
