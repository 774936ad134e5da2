import { stem as porter2 } from 'porter2';
import { cleanQuery, isOpaqueWord, MAX_QUERY_CHARS, MAX_QUERY_TERMS, MAX_QUERY_WORDS, MAX_WORD_CHARS } from './query.js';
import { unicodeWords } from './tokenize.js';
import { readIdioms } from './idioms.js';

/**
 * Query and document text processing for search: words of every script (see tokenize.ts),
 * stopwords, the Porter2 stemmer for English words and a small synonym table (pull request / PR,
 * bug / issue, CVE / advisory / vulnerability, ...). No model, no network: the same input always
 * gives the same terms.
 */

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from get give has have how i in into is it its my of on or our please show that the their them then there these this to use using want we what when where which who will with you your all any some need needs tool tools'.split(' '),
);

/**
 * Words that say how, not what: a query's generic verbs ("make", "save", "help") weigh less than
 * its object words, so "save the summary as a note" is about notes more than about saving.
 */
const GENERIC = new Set('make save set put take help try let see check handle perform provide just also via like'.split(' '));
const GENERIC_WEIGHT = 0.5;

/**
 * Parts of a user interface. The word before one names which part ("the search page", "the
 * checkout page", "the pay button"), not what to do with it: a tool acts on any page, so
 * "search" there should not call up search tools, nor "checkout" a git checkout.
 */
const UI_PARTS = new Set('page pages screen form button field modal dialog popup box bar menu panel widget banner'.split(' '));
/** Words before a part that still say which tool: a new page, the open page. */
const PART_KEEPS = new Set('new open current active main same blank whole full entire'.split(' '));
const PART_NAME_WEIGHT = 0.3;

function namesPart(word: string, next: string | undefined): boolean {
  return next !== undefined && UI_PARTS.has(next) && !PART_KEEPS.has(word) && !UI_PARTS.has(word);
}

/**
 * A hyphenated modifier ("LLM-related", "cloud-based") says what the thing is about with its
 * first half; the second half would otherwise match unrelated tools ("relations").
 */
const MODIFIER_SUFFIX = /-(?:related|based|specific|oriented|powered|driven|friendly|enabled|aware|style|like)\b/gi;

/** A text's words, idioms read as the word they mean (idioms.ts). */
function words(text: string): readonly string[] {
  return readIdioms(unicodeWords(text));
}

const stems = new Map<string, string>();
const STEM_CACHE = 50_000;

/**
 * Reduces an English word to its Porter2 stem ("differences" and "different" to "differ",
 * "merging" to "merg"); words of other scripts, and words with digits, are kept as they are.
 * Cached: a catalog repeats its vocabulary.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    stemmed = porter2(word);
    stems.set(word, stemmed);
  }
  return stemmed;
}

/** Stemmed terms of a text, stopwords dropped. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text.includes('-') ? text.replace(MODIFIER_SUFFIX, '') : text)) if (!STOPWORDS.has(word)) out.push(stem(word));
  return out;
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
  ['log', 'logs', 'output', 'print', 'printed', 'stdout'],
  ['repo', 'repository', 'project'],
  ['folder', 'directory', 'dir'],
  ['file', 'document'],
  ['delete', 'remove', 'drop', 'erase'],
  ['create', 'add', 'new', 'make', 'open', 'report', 'raise', 'draft'],
  ['list', 'show', 'enumerate'],
  ['read', 'view', 'fetch', 'get', 'see', 'look at', 'contents', 'open', 'grab', 'retrieve'],
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
  ['network request', 'api call', 'api calls', 'xhr', 'http request', 'network call', 'network traffic'],
  ['performance', 'slow', 'takes so long', 'perf', 'latency', 'profiling', 'speed up', 'load time'],
  ['process', 'dev server', 'running command', 'background job'],
  ['kubernetes', 'k8s', 'kube', 'pod', 'pods', 'kubectl', 'namespace', 'cluster'],
  ['investigate', 'diagnose', 'debug', 'troubleshoot', 'inspect', 'describe', 'root cause'],
  ['login', 'credentials', 'password', 'fill form'],
  ['accessibility', 'a11y'],
  ['terminal', 'shell', 'command line', 'cli', 'npm', 'npx', 'yarn', 'pnpm', 'bash'],
  ['meeting', 'event', 'calendar', 'appointment'],
  ['rollout', 'rollback', 'restart', 'redeploy'],
  ['extract', 'scrape', 'article text', 'page content'],
  ['export', 'download', 'save as'],
  ['database', 'data source', 'datasource', 'db'],
  ['mark as done', 'mark as complete', 'complete', 'update status'],
];

export interface Expansion {
  term: string;
  weight: number;
  /** The query's own word (not a synonym's). */
  own?: boolean;
}

interface SynonymEntry {
  /** The phrase as stemmed words, stopwords kept ("who am i" must match as said). */
  phrase: string[];
  /** The other phrases of the set as search terms. */
  alternatives: string[][];
}

let synonymEntries: Map<string, SynonymEntry[]> | undefined;

/**
 * The synonym table stemmed and keyed by each phrase's first word, built on the first query
 * rather than at start-up (cold start): a query word is checked only against the phrases it starts.
 */
function synonyms(): Map<string, SynonymEntry[]> {
  if (synonymEntries) return synonymEntries;
  const byFirst = new Map<string, SynonymEntry[]>();
  for (const set of SYNONYMS) {
    set.forEach((text, i) => {
      const phrase = words(text).map(stem);
      const first = phrase[0];
      if (first === undefined) return;
      const entry = { phrase, alternatives: set.filter((_, k) => k !== i).map((other) => terms(other)).filter((t) => t.length > 0) };
      const list = byFirst.get(first);
      if (list) list.push(entry);
      else byFirst.set(first, [entry]);
    });
  }
  synonymEntries = byFirst;
  return synonymEntries;
}

/**
 * Query terms with weights: the query's own terms at 1 (generic verbs at 0.5), synonym expansions
 * at `synonymWeight` (split over a multi-word alternative's words). Synonym phrases match the
 * query as written, stopwords included. The query is cleaned first (URLs, paths, ids: see
 * `cleanQuery`) and keeps at most `MAX_QUERY_TERMS` distinct terms of its own.
 */
export function expandQuery(query: string, synonymWeight = 0.7): Expansion[] {
  // Cleaned text is about MAX_QUERY_CHARS long plus its last token, which may be a 64 KB run: cut it.
  const text = cleanQuery(query).slice(0, 2 * MAX_QUERY_CHARS);
  const weights = new Map<string, number>();
  const owned = new Set<string>();
  const add = (term: string, weight: number) => weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  let own = 0;
  const kept: string[] = [];
  let read = 0;
  const list = words(text.includes('-') ? text.replace(MODIFIER_SUFFIX, '') : text);
  for (let i = 0; i < list.length; i++) {
    const word = list[i] ?? '';
    if (own >= MAX_QUERY_TERMS || ++read > MAX_QUERY_WORDS) break;
    if (word.length > MAX_WORD_CHARS || isOpaqueWord(word)) continue;
    const term = stem(word);
    kept.push(term);
    if (STOPWORDS.has(word) || weights.has(term)) continue;
    add(term, GENERIC.has(word) ? GENERIC_WEIGHT : namesPart(word, list[i + 1]) ? PART_NAME_WEIGHT : 1);
    owned.add(term);
    own++;
  }
  for (let i = 0; i < kept.length; i++) {
    for (const entry of synonyms().get(kept[i] ?? '') ?? []) {
      const { phrase } = entry;
      if (phrase.every((word, k) => kept[i + k] === word)) {
        for (const alternative of entry.alternatives) for (const term of alternative) add(term, synonymWeight * Math.min(1, 1.5 / alternative.length));
      }
    }
  }
  return [...weights].map(([term, weight]) => (owned.has(term) ? { term, weight, own: true } : { term, weight }));
}
