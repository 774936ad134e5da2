import type { CatalogTool } from '../catalog/catalog.js';
import { asksQuestion, expandQuery, stem, terms } from './text.js';
import { searchVocabulary } from './vocabulary.js';

/**
 * What a query asks to do and what a tool does, in three kinds: read, write, destroy. A query
 * that does not ask to change anything should find readers before writers, and a destructive
 * tool only when the query asks to delete; a tool whose verb is the query's ("list" -> a tool
 * named `*_get`, described "Get or list ...") goes first among equals. The verbs are data:
 * vocabulary/search/actions.json.
 */
export const Action = { Read: 0, Write: 1, Destroy: 2 } as const;
export type Action = (typeof Action)[keyof typeof Action];

let stems: { destroy: Set<string>; write: Set<string>; read: Set<string> } | undefined;

/**
 * The action verbs (vocabulary/search/actions.json), stemmed. Read verbs are also matched against
 * a tool's name and its description's first words; write verbs are not ("add" would lift every
 * add_* tool over the one that edits).
 */
function verbStems() {
  if (stems) return stems;
  const { actions } = searchVocabulary();
  return (stems = {
    destroy: new Set(actions.destroy.map(stem)),
    write: new Set(actions.write.map(stem)),
    read: new Set(actions.read.map(stem)),
  });
}

/** Whether a stemmed term is one of the action verbs (read, write or destroy): a word that names no server. */
export function isActionTerm(term: string): boolean {
  const { destroy, write, read } = verbStems();
  return destroy.has(term) || write.has(term) || read.has(term);
}

/**
 * What a query asks for, as search reads it: a question ("which deals closed in October?") asks to
 * read whatever its verbs; otherwise its own terms (`own`, stemmed; read from `query` when not
 * given) say. Ranking and the mode's lift (held-back.ts) ask it alike.
 */
export function queryAsks(query: string, own?: readonly string[]): { asks: Action; question: boolean } {
  if (asksQuestion(query)) return { asks: Action.Read, question: true };
  return { asks: queryAction(own ?? expandQuery(query).filter((term) => term.own).map((term) => term.term)), question: false };
}

/** What a query's own terms (stemmed) ask for. */
function queryAction(queryTerms: readonly string[]): Action {
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

/**
 * The read verbs a tool leads with (stemmed): its name's, and the first four terms of its
 * description's first 60 characters. Write verbs are left out (see verbStems).
 */
export function toolReadVerbs(tool: CatalogTool, nameTerms: readonly string[]): string[] {
  const { read } = verbStems();
  const lead = terms((tool.definition.description ?? '').slice(0, 60)).slice(0, 4);
  return [...new Set([...nameTerms, ...lead])].filter((term) => read.has(term));
}

/** What a tool that changes things is worth under a question ("which deals closed?"), besides being no reader. */
const QUESTION_CHANGE = 0.7;

/**
 * Score factor for a tool of kind `tool` under a query asking for `query`. A question asks to
 * read, and a tool that changes things answers none: it falls further behind the readers.
 */
export function actionFactor(query: Action, tool: Action, question = false): number {
  const change = question && tool !== Action.Read ? QUESTION_CHANGE : 1;
  if (tool === Action.Destroy && query !== Action.Destroy) return change * (query === Action.Read ? 0.45 : 0.6);
  // Reads and writes: the kind the query asks for first, the other close behind.
  return change * ((tool === Action.Read) === (query === Action.Read) ? 1 : 0.85);
}

/** The query's read verbs (stemmed), to match against a tool's `toolReadVerbs`. */
export function queryReadVerbs(queryTerms: readonly string[]): string[] {
  const { read } = verbStems();
  return queryTerms.filter((term) => read.has(term));
}
