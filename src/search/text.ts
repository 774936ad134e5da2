import { words } from '../catalog/text.js';

/**
 * Query and document text processing for search: words, stopwords, a light stemmer and a small
 * synonym table (pull request / PR, bug / issue, CVE / advisory / vulnerability, ...). No model,
 * no network: the same input always gives the same terms.
 */

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from get give has have how i in into is it its my of on or our please show that the their them then there these this to use using want we what when where which who will with you your all any some need needs tool tools'.split(' '),
);

/** Reduces a word to a stem: plural, -ing, -ed, -ly and a few derivational endings. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('es') && /(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith('er') && w.length >= 7) w = w.slice(0, -2);
  for (const [suffix, replacement] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

const SUFFIXES: Array<[string, string]> = [
  ['ational', 'ate'],
  ['ization', 'ize'],
  ['ability', 'able'],
  ['ation', 'ate'],
  ['ities', ''],
  ['ity', ''],
  ['ment', ''],
  ['ness', ''],
  ['ator', 'ate'],
  ['ies', 'y'],
];

function undouble(w: string): string {
  return /([bdfgmnprt])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Stemmed terms of a text, stopwords dropped. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

/**
 * Synonyms: each entry's phrases are interchangeable. Query phrases expand to the others at a
 * lower weight, so "leaked credentials" finds secret scanning and "PR" finds pull requests.
 */
const SYNONYMS: string[][] = [
  ['pr', 'pull request', 'merge request', 'mr'],
  ['bug', 'issue', 'ticket', 'defect'],
  ['cve', 'advisory', 'vulnerability', 'vulnerable', 'security alert', 'ghsa'],
  ['leaked credentials', 'leaked secret', 'exposed token', 'secret scanning', 'credential leak', 'api key', 'secret'],
  ['dependency', 'dependabot', 'package', 'library'],
  ['static analysis', 'code scanning', 'codeql', 'sast'],
  ['ci', 'actions', 'workflow', 'pipeline', 'build', 'job'],
  ['log', 'logs', 'output'],
  ['repo', 'repository', 'project'],
  ['folder', 'directory', 'dir'],
  ['file', 'document'],
  ['delete', 'remove', 'drop', 'erase'],
  ['create', 'add', 'new', 'make', 'open', 'report', 'raise'],
  ['list', 'show', 'enumerate'],
  ['read', 'view', 'fetch', 'get', 'see', 'look at', 'contents', 'open'],
  ['edit', 'modify', 'change', 'update', 'patch'],
  ['write', 'save', 'store', 'overwrite'],
  ['find', 'search', 'look for', 'lookup', 'query', 'recall', 'remember about', 'what do you know'],
  ['move', 'rename', 'relocate'],
  ['comment', 'reply', 'remark', 'feedback'],
  ['review', 'approve', 'code review'],
  ['ask', 'request', 'invite'],
  ['diff', 'changes', 'what changed', 'patch'],
  ['merge', 'land', 'integrate'],
  ['notification', 'inbox', 'alert', 'mention'],
  ['assign', 'assignee', 'owner', 'delegate'],
  ['label', 'tag'],
  ['milestone', 'sprint', 'iteration', 'deadline'],
  ['board', 'project', 'kanban', 'roadmap'],
  ['user', 'person', 'people', 'member', 'account', 'profile'],
  ['org', 'organization', 'company'],
  ['team', 'group'],
  ['gist', 'snippet', 'paste'],
  ['discussion', 'forum', 'thread'],
  ['memory', 'remember', 'knowledge graph', 'entity', 'observation', 'note', 'fact'],
  ['relation', 'relationship', 'link', 'connection'],
  ['think', 'reason', 'reasoning', 'step by step', 'sequential thinking', 'plan'],
  ['env', 'environment', 'variable', 'config'],
  ['star', 'favorite', 'bookmark'],
  ['fork', 'copy'],
  ['branch', 'ref'],
  ['commit', 'change history', 'history', 'revision'],
  ['blame', 'who changed', 'who wrote', 'authorship'],
  ['release', 'version', 'changelog'],
  ['tree', 'structure', 'layout', 'hierarchy'],
  ['size', 'metadata', 'info', 'stat', 'detail'],
  ['sum', 'add numbers', 'arithmetic', 'math'],
  ['image', 'picture', 'logo', 'png'],
  ['compress', 'zip', 'gzip', 'archive'],
  ['me', 'myself', 'whoami', 'who am i', 'logged in', 'current user', 'authenticated user', 'my account'],
  ['duplicate', 'dupe', 'similar'],
  ['collaborator', 'contributor', 'access'],
  ['trigger', 'run', 'rerun', 'start', 'dispatch'],
  ['close', 'reopen', 'state', 'status'],
  ['sub issue', 'subtask', 'child issue', 'parent issue'],
  ['reaction', 'emoji', 'thumbs up'],
  ['quality', 'lint', 'code smell'],
  ['draft', 'wip', 'ready for review'],
  ['push', 'upload', 'publish'],
];

export interface Expansion {
  term: string;
  weight: number;
}

interface SynonymEntry {
  /** The phrase as stemmed words, stopwords kept ("who am i" must match as said). */
  phrase: string[];
  /** The other phrases of the set as search terms. */
  alternatives: string[][];
}

let synonymEntries: SynonymEntry[] | undefined;

/** The synonym table stemmed, built on the first query rather than at start-up (cold start). */
function synonyms(): SynonymEntry[] {
  synonymEntries ??= SYNONYMS.flatMap((set) =>
    set.map((phrase, i) => ({
      phrase: words(phrase).map(stem),
      alternatives: set.filter((_, k) => k !== i).map((other) => terms(other)).filter((t) => t.length > 0),
    })),
  );
  return synonymEntries;
}

/**
 * Query terms with weights: the query's own terms at 1, synonym expansions at `synonymWeight`
 * (split over a multi-word alternative's words). Synonym phrases match the query as written,
 * stopwords included.
 */
export function expandQuery(query: string, synonymWeight = 0.7): Expansion[] {
  const base = terms(query);
  const raw = words(query).map(stem);
  const weights = new Map<string, number>();
  const add = (term: string, weight: number) => weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  for (const term of base) add(term, 1);
  for (let i = 0; i < raw.length; i++) {
    for (const entry of synonyms()) {
      const { phrase } = entry;
      if (phrase.length > 0 && phrase.every((word, k) => raw[i + k] === word)) {
        for (const alternative of entry.alternatives) for (const term of alternative) add(term, synonymWeight * Math.min(1, 1.5 / alternative.length));
      }
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
