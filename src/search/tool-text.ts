import type { CatalogGroup, CatalogTool } from '../catalog/catalog.js';
import { toolTitle } from '../catalog/text.js';
import { isActionTerm } from './action.js';
import { terms } from './text.js';
import { MAX_TOOL_DESCRIPTION } from '../catalog/admit.js';
import { sliceWhole } from '../util/bounds.js';

/**
 * The text of a tool's fields as the search index reads it (engine.ts): what each field weighs,
 * the words its groups add, its input schema's words, and the word a query names its server by.
 */

/** Field weights: what a word in each field is worth relative to the description. */
export const FIELDS = { name: 3, title: 2, summary: 1.5, description: 1, schema: 0.4, group: 0.6, server: 1 } as const;
/** Groups up to this many tools add their words at the full group weight; bigger ones less. */
const GROUP_SIZE = 10;

/**
 * Each group's name and description as terms, with the weight they add to each of its tools.
 * A group's words describe it, not any one tool: the catch-all group ("Every tool of every
 * server") adds nothing, and a big group's words weigh less the more tools they would lift.
 */
export function groupFieldTerms(groups: ReadonlyMap<string, CatalogGroup>): Map<string, { terms: string[]; weight: number }> {
  const out = new Map<string, { terms: string[]; weight: number }>();
  for (const group of groups.values()) {
    if (group.catchAll) continue;
    const size = Math.max(1, group.tools.length);
    out.set(group.name, { terms: terms(`${group.name} ${group.description}`), weight: FIELDS.group * Math.min(1, Math.sqrt(GROUP_SIZE / size)) });
  }
  return out;
}

/**
 * Characters of description and input-schema text the index reads of one server's tools, in
 * catalog order; past it a server's tools are indexed by name, title, summary and server alone.
 * Each value is bounded already (MAX_TOOL_DESCRIPTION, MAX_SCHEMA_TEXT), but one upstream's list
 * may hold 64 MiB of such values, and 64 MiB of camelCase text held the event loop for about 40 s
 * per index build (2,000 tools of 32 KiB: 11.5 s, now 0.47 s). The largest server of the fixture
 * catalogs (6,080 tools) has 275 KB of descriptions and whole schemas.
 */
export const MAX_SERVER_TEXT = 2 * 1024 * 1024;

/** A tool's fields as search reads them, with the field each text is (FIELDS weighs them); `long: false` leaves out its description and schema text. */
export function toolFields(tool: CatalogTool, long = true): Array<[keyof typeof FIELDS, string]> {
  const definition = tool.definition;
  return [
    ['name', tool.name],
    ['title', toolTitle(definition) ?? ''],
    ['summary', tool.summary],
    ['description', long ? (definition.description ?? '') : ''],
    ['schema', long ? schemaText(definition.inputSchema) : ''],
    ['server', tool.server],
  ];
}

/**
 * Characters of an input schema's text the index reads, as much as of a description (admit.ts
 * MAX_TOOL_DESCRIPTION): a property description or an enum is not cut when a tool is admitted,
 * and 64 tools of 1 MiB of camelCase words in one upstream's list held the event loop for about
 * 54 s per index build. The longest schema text of the fixture catalogs (6,080 tools) is 8,633.
 */
export const MAX_SCHEMA_TEXT = MAX_TOOL_DESCRIPTION;

/** Property names, enum values and property descriptions of an input schema, one level deep (at most MAX_SCHEMA_TEXT characters). */
function schemaText(schema: unknown): string {
  const properties = (schema as { properties?: Record<string, { description?: unknown; enum?: unknown }> })?.properties ?? {};
  const parts: string[] = [];
  let length = 0;
  const read = (text: string): boolean => {
    parts.push(length + text.length > MAX_SCHEMA_TEXT ? sliceWhole(text, Math.max(0, MAX_SCHEMA_TEXT - length)) : text);
    length += text.length + 1;
    return length < MAX_SCHEMA_TEXT;
  };
  for (const [name, property] of Object.entries(properties)) {
    if (!read(name)) break;
    const values = Array.isArray(property?.enum) ? property.enum : [];
    if (!values.every((value) => typeof value !== 'string' || read(value))) break;
    if (typeof property?.description === 'string' && !read(property.description)) break;
  }
  return parts.join(' ');
}

/**
 * The term a query names a server by: the first term of its name ("notion", "chrome" of
 * chrome-devtools), unless that is an action verb ("search" of a search-tools server) or too
 * short to be a name.
 */
export function serverKey(server: string): string {
  const first = terms(server)[0] ?? '';
  return first.length >= 3 && !isActionTerm(first) ? first : '';
}
