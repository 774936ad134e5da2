import type { CatalogTool } from '../catalog/catalog.js';
import { stem, terms } from './text.js';

/**
 * What a query asks to do and what a tool does, in three kinds: read, write, destroy. A query
 * that does not ask to change anything should find readers before writers, and a destructive
 * tool only when the query asks to delete; a tool whose verb is the query's ("list" ->
 * a `get` tool described "Get or list ...") goes first among equals.
 */
export const Action = { Read: 0, Write: 1, Destroy: 2 } as const;
export type Action = (typeof Action)[keyof typeof Action];

const DESTROY_WORDS = 'delete remove drop erase destroy purge kill terminate uninstall wipe clear clean cleanup revoke unset truncate discard forget'.split(' ');
const WRITE_WORDS = (
  'create add make new store save write update edit set change modify send post upload push move rename install start run deploy sync ' +
  'schedule assign mark close merge insert put patch record append fill type click submit publish book reserve rerun restart scale trigger ' +
  'archive complete resolve reply comment invite apply generate convert draw'
).split(' ');
/**
 * Verbs that name a way of reading: matched against a tool's name words and its description's
 * first words. (Write verbs are not: "add" would lift every add_* tool over the one that edits.)
 */
const READ_WORDS = 'list get read show view find search fetch query look check describe count browse inspect open see analyze compare measure'.split(' ');

let stems: { destroy: Set<string>; write: Set<string>; verbs: Set<string> } | undefined;

function verbStems() {
  stems ??= {
    destroy: new Set(DESTROY_WORDS.map(stem)),
    write: new Set(WRITE_WORDS.map(stem)),
    verbs: new Set(READ_WORDS.map(stem)),
  };
  return stems;
}

/** Whether a stemmed term is one of the action verbs (read, write or destroy): a word that names no server. */
export function isActionTerm(term: string): boolean {
  const { destroy, write, verbs } = verbStems();
  return destroy.has(term) || write.has(term) || verbs.has(term);
}

/** What a query's own terms (stemmed) ask for. */
export function queryAction(queryTerms: readonly string[]): Action {
  const { destroy, write } = verbStems();
  if (queryTerms.some((term) => destroy.has(term))) return Action.Destroy;
  return queryTerms.some((term) => write.has(term)) ? Action.Write : Action.Read;
}

/** What a tool does: its annotations first, then its catalog write status and name verbs. */
export function toolAction(tool: CatalogTool, nameTerms: readonly string[]): Action {
  const annotations = tool.definition.annotations;
  if (annotations?.readOnlyHint === true) return Action.Read;
  if (annotations?.destructiveHint === true) return Action.Destroy;
  const { destroy } = verbStems();
  if (annotations?.destructiveHint !== false && nameTerms.some((term) => destroy.has(term))) return Action.Destroy;
  return tool.write?.kind === 'write' ? Action.Write : Action.Read;
}

/** The verbs a tool leads with: its name's and its description's first four words'. */
export function leadVerbs(tool: CatalogTool, nameTerms: readonly string[]): string[] {
  const { verbs } = verbStems();
  const lead = terms((tool.definition.description ?? '').slice(0, 60)).slice(0, 4);
  return [...new Set([...nameTerms, ...lead])].filter((term) => verbs.has(term));
}

/** Score factor for a tool of kind `tool` under a query asking for `query`. */
export function actionFactor(query: Action, tool: Action): number {
  if (tool === Action.Destroy && query !== Action.Destroy) return query === Action.Read ? 0.45 : 0.6;
  // Reads and writes: the kind the query asks for first, the other close behind.
  return (tool === Action.Read) === (query === Action.Read) ? 1 : 0.85;
}

/** The query's action verbs (stemmed), to match against a tool's `leadVerbs`. */
export function queryVerbs(queryTerms: readonly string[]): string[] {
  const { verbs } = verbStems();
  return queryTerms.filter((term) => verbs.has(term));
}
