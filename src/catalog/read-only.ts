import { READ_VERBS, WRITE_VERBS } from '../config/topics.js';
import { DESCRIPTION_CHARS, type PlacementInput } from './placement.js';
import { proseWords, words } from './text.js';

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

/** Verbs that write wherever they stand in a name ("get_or_create_user"). Words that are also nouns ("run", "post", "push") count only as the name's first verb ("get_run_details" reads). */
const STRONG_WRITES = new Set(
  'create update delete remove write send replace insert drop edit upsert kill execute exec publish deploy uninstall overwrite truncate modify'.split(' '),
);
const WRITE_PHRASES = /\b(?:creates|updates|deletes|removes|writes|sends|executes|modifies|inserts|pushes|merges|overwrites|publishes|deploys|installs|uninstalls|kills|terminates|renames|uploads|clicks|navigates|submits)\b/i;
const READ_PHRASES = /\b(?:read[- ]only|readonly|does not modify|doesn't modify|without modifying|no side effects)\b/i;

/**
 * Read verbs that, after `post` at the head of a name, make a query sent by HTTP POST
 * (`API-post-search`): OpenAPI-generated servers name a tool by method and path and mark every
 * POST `destructiveHint`, though a search by POST only reads.
 */
const POSTED_READS = new Set(['search', 'query', 'list', 'find', 'lookup', 'retrieve', 'get', 'read', 'fetch']);

/** The read verb of a `post <read verb>` name (filler "api" and "mcp" skipped), else undefined. */
function postedRead(names: readonly string[]): string | undefined {
  const rest = names.filter((word) => word !== 'api' && word !== 'mcp');
  return rest[0] === 'post' && POSTED_READS.has(rest[1] ?? '') ? rest[1] : undefined;
}

/**
 * Whether a tool only reads. `readOnlyHint` decides when present (and `destructiveHint: true`
 * means writing); without annotations the tool name's verbs decide (the first verb of the name,
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
  if (posted !== undefined && !nameWords.some((word) => STRONG_WRITES.has(word)) && !WRITE_PHRASES.test(description)) {
    // Before destructiveHint: a generator's method-wide annotation, not a statement about this tool.
    return { readOnly: true, kind: 'read', reason: `name "post ${posted}": a ${posted} sent by HTTP POST (its destructiveHint follows the method)` };
  }
  if (input.annotations?.destructiveHint === true) return { readOnly: false, kind: 'write', reason: 'destructiveHint: true' };
  const strong = nameWords.find((word) => STRONG_WRITES.has(word));
  if (strong) return { readOnly: false, kind: 'write', reason: `name verb "${strong}"` };
  const first = nameWords.find((word) => WRITE_VERBS.has(word) || READ_VERBS.has(word));
  if (first && WRITE_VERBS.has(first) && !READ_VERBS.has(first)) return { readOnly: false, kind: 'write', reason: `name verb "${first}"` };
  let readVerb = first !== undefined ? `name verb "${first}"` : undefined;
  if (!readVerb) {
    const lead = proseWords(description.slice(0, 60)).slice(0, 2).map(verbStem).find((word) => WRITE_VERBS.has(word) || READ_VERBS.has(word) || word === 'return');
    if (lead && WRITE_VERBS.has(lead) && !READ_VERBS.has(lead)) return { readOnly: false, kind: 'write', reason: `description verb "${lead}"` };
    if (lead) readVerb = `description verb "${lead}"`;
  }
  const saysReadOnly = READ_PHRASES.test(description);
  const writes = WRITE_PHRASES.exec(description);
  if (writes && !saysReadOnly) return { readOnly: false, kind: 'write', reason: `description says "${writes[0]}"` };
  if (readVerb) return { readOnly: true, kind: 'read', reason: saysReadOnly ? `${readVerb}, description says read-only` : readVerb };
  if (saysReadOnly) return { readOnly: true, kind: 'read', reason: 'description says read-only' };
  return { readOnly: false, kind: 'unknown', reason: 'no readOnlyHint and no read or write verb in name or description' };
}

/** "Returns" -> "return", "Lists" -> "list", "Searches" -> "search". */
function verbStem(word: string): string {
  if (word.endsWith('ches') || word.endsWith('shes') || word.endsWith('xes')) return word.slice(0, -2);
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
