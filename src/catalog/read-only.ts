import { CJK_READS, CJK_WRITES, FOREIGN_READS, FOREIGN_WRITES, POSTED_READS, READ_ONLY_PHRASES, READ_VERBS, STRONG_WRITES, WRITE_FORMS, WRITE_VERBS } from '../config/topics.js';
import { DESCRIPTION_CHARS, type PlacementInput } from './placement.js';
import { foldedWords, hasUnspaced, proseWords, words } from './text.js';

// The read-only verdict: whether a tool only reads, apart from topic scoring (placement.ts). Read-only
// modes and `readOnly` groups ask it; its evidence is what `explain` and status show.

/** Whether a tool writes, and why lazytools thinks so. */
export interface WriteStatus {
  /** true when the tool is known to only read; false when it writes or nobody can tell. */
  readOnly: boolean;
  /** `read`, `write` or `unknown` (unknown tools stay out of read-only modes). */
  kind: 'read' | 'write' | 'unknown';
  reason: string;
}

/** The read verb of a `post <read verb>` name (filler "api" and "mcp" skipped), else undefined. */
function postedRead(names: readonly string[]): string | undefined {
  const rest = names.filter((word) => word !== 'api' && word !== 'mcp');
  return rest[0] === 'post' && POSTED_READS.has(rest[1] ?? '') ? rest[1] : undefined;
}

/**
 * Whether a tool only reads. `readOnlyHint` decides when present, and `destructiveHint: true`
 * means writing unless the name is `post <read verb>` with no write word in name or description
 * (an HTTP API generator's method-wide hint, see postedRead); otherwise the tool name's verbs decide (the first verb of the name,
 * and any strong write verb anywhere in it), then the description's first word; a read verb
 * also needs a description free of write verbs ("creates", "sends"...) unless it says
 * "read-only". Anything else is unknown and stays out of read-only modes.
 */
export function writeStatus(input: PlacementInput): WriteStatus {
  const hint = input.annotations?.readOnlyHint;
  if (hint === true) return { readOnly: true, kind: 'read', reason: 'readOnlyHint: true' };
  if (hint === false) return { readOnly: false, kind: 'write', reason: 'readOnlyHint: false' };
  const description = typeof input.description === 'string' ? input.description.slice(0, DESCRIPTION_CHARS) : '';
  const nameWords = words(input.name);
  const posted = postedRead(nameWords);
  if (posted !== undefined && !nameWords.some((word) => STRONG_WRITES.has(word)) && !proseWords(description).some((word) => WRITE_FORMS.has(word))) {
    // Before destructiveHint: a generator's method-wide annotation, not a statement about this tool.
    return { readOnly: true, kind: 'read', reason: `name "post ${posted}": a ${posted} sent by HTTP POST (its destructiveHint follows the method)` };
  }
  if (input.annotations?.destructiveHint === true) return { readOnly: false, kind: 'write', reason: 'destructiveHint: true' };
  const strong = nameWords.find((word) => STRONG_WRITES.has(word));
  if (strong) return { readOnly: false, kind: 'write', reason: `name verb "${strong}"` };
  const first = nameWords.find((word) => WRITE_VERBS.has(word) || READ_VERBS.has(word));
  if (first && WRITE_VERBS.has(first) && !READ_VERBS.has(first)) return { readOnly: false, kind: 'write', reason: `name verb "${first}"` };
  // "Get or add comments", an `action` of "get" or "add": one tool that reads and writes.
  const alsoWrites = joinedWrite(description) ?? enumWrite(input.inputSchema);
  if (alsoWrites) return { readOnly: false, kind: 'write', reason: alsoWrites };
  let readVerb = first !== undefined ? `name verb "${first}"` : undefined;
  if (!readVerb) {
    const lead = proseWords(description.slice(0, 60)).slice(0, 2).map(verbStem).find((word) => WRITE_VERBS.has(word) || READ_VERBS.has(word) || word === 'return');
    if (lead && WRITE_VERBS.has(lead) && !READ_VERBS.has(lead)) return { readOnly: false, kind: 'write', reason: `description verb "${lead}"` };
    if (lead) readVerb = `description verb "${lead}"`;
  }
  const prose = ` ${proseWords(description).join(' ')} `;
  const saysReadOnly = READ_ONLY_PHRASES.some((phrase) => prose.includes(` ${proseWords(phrase).join(' ')} `));
  const writes = proseWords(description).find((word) => WRITE_FORMS.has(word));
  if (writes && !saysReadOnly) return { readOnly: false, kind: 'write', reason: `description says "${writes}"` };
  if (readVerb) return { readOnly: true, kind: 'read', reason: saysReadOnly ? `${readVerb}, description says read-only` : readVerb };
  if (saysReadOnly) return { readOnly: true, kind: 'read', reason: 'description says read-only' };
  return cjkStatus(description) ?? foreignStatus(input.name, nameWords, description) ?? { readOnly: false, kind: 'unknown', reason: 'no readOnlyHint and no read or write verb in name or description' };
}

/**
 * The verdict of a description in Chinese or Japanese, for a tool nothing English told about
 * ("通过IP地址获取位置信息": gets a location from an IP address): any write verb of the language
 * makes it a writer, else a read verb a reader (vocabulary/verbs.json cjkWrite, cjkRead). Such text
 * has no spaces between words, so verbs are found as substrings; a write verb inside a noun
 * ("更新时间", the update time) keeps a reader out of read-only modes, the safe side.
 */
function cjkStatus(description: string): WriteStatus | undefined {
  if (!hasUnspaced(description)) return undefined;
  const write = CJK_WRITES.find((verb) => description.includes(verb));
  if (write !== undefined) return { readOnly: false, kind: 'write', reason: `description says "${write}"` };
  const read = CJK_READS.find((verb) => description.includes(verb));
  return read === undefined ? undefined : { readOnly: true, kind: 'read', reason: `description verb "${read}"` };
}

/**
 * The verdict of a name and description in a language written with spaces, for a tool nothing
 * English told about ("Erstellt eine neue Rechnung", "Возвращает текущий курс валюты"): any write
 * verb of those languages makes it a writer, else a read verb a reader (vocabulary/verbs.json
 * foreignWrite, foreignRead), compared as whole words with accents folded.
 */
function foreignStatus(name: string, nameWords: readonly string[], description: string): WriteStatus | undefined {
  // A name in camelCase splits as `words` splits it (nameWords); one with accents ("créer_facture") as foldedWords does.
  const named = new Set([...nameWords, ...foldedWords(name)]);
  const said = [...named, ...foldedWords(description)];
  const write = said.find((word) => FOREIGN_WRITES.has(word));
  const where = (verb: string) => `${named.has(verb) ? 'name' : 'description'} verb "${verb}"`;
  if (write !== undefined) return { readOnly: false, kind: 'write', reason: where(write) };
  const read = said.find((word) => FOREIGN_READS.has(word));
  return read === undefined ? undefined : { readOnly: true, kind: 'read', reason: where(read) };
}

/** "Returns" -> "return", "Lists" -> "list", "Searches" -> "search". */
function verbStem(word: string): string {
  if (word.endsWith('ches') || word.endsWith('shes') || word.endsWith('xes')) return word.slice(0, -2);
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Connectives of a description's lead that give a tool a second action: "Get or add", "List and create". */
const JOINS = new Set(['or', 'and']);

/** A write verb the description's first verb is joined to ("Get or add comments"), worded as a reason. */
function joinedWrite(description: string): string | undefined {
  const [verb, join, other] = proseWords(description.slice(0, 60)).slice(0, 3).map(verbStem);
  if (verb === undefined || join === undefined || other === undefined || !READ_VERBS.has(verb) || !JOINS.has(join)) return undefined;
  return WRITE_VERBS.has(other) && !READ_VERBS.has(other) ? `description verb "${other}" ("${verb} ${join} ${other}")` : undefined;
}

/**
 * A top-level argument whose values are all verbs, one of them a write ({"action": "get" | "add"}):
 * the tool does what the caller picks, so it may write.
 */
function enumWrite(schema: PlacementInput['inputSchema']): string | undefined {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object') return undefined;
  for (const [field, spec] of Object.entries(properties).slice(0, 200)) {
    const values: unknown = (spec as { enum?: unknown } | null)?.enum;
    if (!Array.isArray(values) || values.length < 2 || values.length > 50) continue;
    const verbs = values.map((value) => (typeof value === 'string' ? value.toLowerCase() : ''));
    if (!verbs.every((verb) => WRITE_VERBS.has(verb) || READ_VERBS.has(verb))) continue;
    const write = verbs.find((verb) => WRITE_VERBS.has(verb) && !READ_VERBS.has(verb));
    if (write !== undefined) return `argument "${field.slice(0, 40)}" may be "${write}"`;
  }
  return undefined;
}
