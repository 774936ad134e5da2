import { META_NAME_PHRASES, META_NAME_WORDS, SELF_WORDS, TOPICS, type TopicSpec } from '../config/topics.js';
import { stem } from '../util/stem.js';
import { proseWords, words } from './text.js';

/**
 * Placement: which topics a tool serves, from what it is (server name, tool name words, title,
 * description, annotations, input schema field names), each with a score and a reason a person
 * can check. Deterministic and offline: weighted vocabulary, no model.
 */

/** What placement reads of a tool. */
export interface PlacementInput {
  server: string;
  name: string;
  title?: string;
  description?: string;
  annotations?: { readOnlyHint?: unknown; destructiveHint?: unknown; openWorldHint?: unknown; [key: string]: unknown };
  inputSchema?: { properties?: Record<string, unknown>; [key: string]: unknown };
}

/** One topic a tool was scored for. */
export interface TopicScore {
  topic: string;
  score: number;
  /** The evidence, e.g. `name "screenshot", server "playwright"`. */
  reason: string;
}

/**
 * Lock files cache placement results under this revision (see placement-cache.ts), and an old cache
 * must not outlive the code that computed it. A change to the placement modules changes the key by
 * itself (placement-code.ts); bump this only when code elsewhere changes how tools are placed.
 */
export const PLACEMENT_REVISION = 1;

/** Score a topic needs for a tool to be placed in it. */
export const PLACEMENT_THRESHOLD = 2.5;

/** How much each source counts, and the most one source can add to one topic. */
const SOURCES = {
  server: { factor: 1, cap: 3 },
  name: { factor: 2, cap: 5 },
  title: { factor: 1, cap: 2 },
  description: { factor: 1, cap: 3.5 },
  field: { factor: 0.75, cap: 1.5 },
} as const;
type Source = keyof typeof SOURCES;

/** Only the start of a description counts: long descriptions list everything they are not. */
export const DESCRIPTION_CHARS = 320;

interface Entry {
  topic: string;
  weight: number;
  /** A product name: full weight in a server name. */
  product?: boolean;
  /** A product whose name is also a common word ("linear", "monday"): only server and tool names count. */
  namesOnly?: boolean;
}

interface Vocabulary {
  words: Map<string, Entry[]>;
  fields: Map<string, Entry[]>;
  /** Phrases by their first word, so a text is checked only for phrases that can start in it. */
  phrases: Map<string, Array<{ topic: string; phrase: string; weight: number }>>;
  specs: Map<string, TopicSpec>;
}

let vocabulary: Vocabulary | undefined;

function compile(): Vocabulary {
  const out: Vocabulary = { words: new Map(), fields: new Map(), phrases: new Map(), specs: new Map() };
  const add = (map: Map<string, Entry[]>, stem: string, topic: string, weight: number, flags?: { namesOnly: boolean; product: boolean }) => {
    const list = map.get(stem) ?? [];
    const existing = list.find((entry) => entry.topic === topic);
    if (existing) {
      existing.weight = Math.max(existing.weight, weight);
      if (flags?.product) existing.product = true;
    } else list.push({ topic, weight, ...(flags ? { product: flags.product, namesOnly: flags.namesOnly } : {}) });
    map.set(stem, list);
  };
  for (const [topic, spec] of Object.entries(TOPICS)) {
    out.specs.set(topic, spec);
    for (const [word, weight] of weighted(spec.words, ' ')) {
      if (word.endsWith('^')) add(out.words, word.slice(0, -1), topic, weight, { namesOnly: true, product: false });
      else add(out.words, word, topic, weight);
    }
    for (const product of (spec.products ?? '').split(' ').filter(Boolean)) {
      const namesOnly = product.endsWith('^');
      add(out.words, stem(product.replace(/[_^]/g, '')), topic, 3, { namesOnly, product: true });
    }
    for (const [field, weight] of weighted(spec.fields ?? '', ' ')) add(out.fields, field, topic, weight);
    for (const [phrase, weight] of weighted(spec.phrases ?? '', '|')) {
      const stems = words(phrase).map(stem);
      const first = stems[0] ?? '';
      out.phrases.set(first, [...(out.phrases.get(first) ?? []), { topic, phrase: ` ${stems.join(' ')} `, weight }]);
    }
  }
  return out;
}

function weighted(list: string, separator: string): Array<[string, number]> {
  return list
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.lastIndexOf(':');
      const weight = at > 0 ? Number(item.slice(at + 1)) : 1;
      const text = at > 0 ? item.slice(0, at) : item;
      const names = text.endsWith('^') ? '^' : '';
      return [separator === ' ' ? `${stem(text.replace(/\^$/, '').toLowerCase())}${names}` : text, Number.isFinite(weight) ? weight : 1];
    });
}

/**
 * Topic scores of one tool, best first: every placed topic and the best three below the threshold;
 * none for tools about the server itself (health, login, rate limits).
 */
export function scoreTopics(input: PlacementInput): TopicScore[] {
  vocabulary ??= compile();
  const vocab = vocabulary;
  const totals = new Map<string, { score: number; bySource: Record<Source, number>; evidence: string[] }>();
  const credit = (topic: string, source: Source, weight: number, label: string) => {
    let total = totals.get(topic);
    if (!total) totals.set(topic, (total = { score: 0, bySource: { server: 0, name: 0, title: 0, description: 0, field: 0 }, evidence: [] }));
    const { factor, cap } = SOURCES[source];
    const used = total.bySource[source];
    const gain = Math.min(weight * factor, cap - used);
    if (gain <= 0) return;
    total.bySource[source] = used + gain;
    total.score += gain;
    total.evidence.push(label);
  };
  const scan = (text: string | string[] | undefined, source: Source) => {
    if (!text) return;
    const split = typeof text !== 'string' ? text : source === 'description' || source === 'title' ? proseWords(text) : words(text);
    const stems = split.map(stem);
    const seen = new Set<string>();
    for (const word of stems) {
      if (seen.has(word)) continue;
      seen.add(word);
      for (const entry of vocab.words.get(word) ?? []) {
        if (entry.namesOnly && source !== 'server' && source !== 'name') continue;
        // In a server name only product names count fully: "security-scanner" says less than "sentry".
        const weight = source === 'server' && !entry.product ? entry.weight * 0.5 : entry.weight;
        credit(entry.topic, source, weight, `${source} "${word}"`);
      }
    }
    if (source === 'server') return;
    let joined: string | undefined;
    for (const word of seen) {
      const candidates = vocab.phrases.get(word);
      if (!candidates) continue;
      joined ??= ` ${stems.join(' ')} `;
      for (const phrase of candidates) if (joined.includes(phrase.phrase)) credit(phrase.topic, source, phrase.weight, `${source} "${phrase.phrase.trim()}"`);
    }
  };

  const nameWords = words(input.name);
  if (isAboutServer(input.name, input.description, input.server)) return [];
  scan(input.server, 'server');
  scan(nameWords, 'name');
  const title = typeof input.title === 'string' ? input.title : typeof input.annotations?.title === 'string' ? input.annotations.title : undefined;
  if (title && proseWords(title).join(' ') !== nameWords.join(' ')) scan(title, 'title');
  scan(typeof input.description === 'string' ? input.description.slice(0, DESCRIPTION_CHARS) : undefined, 'description');
  const properties = input.inputSchema?.properties;
  if (properties && typeof properties === 'object') {
    const seen = new Set<string>();
    for (const field of Object.keys(properties)) {
      const parts = words(field);
      for (const part of [parts.join(''), ...parts].map(stem)) {
        if (seen.has(part)) continue;
        seen.add(part);
        for (const entry of vocab.fields.get(part) ?? []) credit(entry.topic, 'field', entry.weight, `field "${field}"`);
      }
    }
  }
  if (input.annotations?.openWorldHint === true && totals.has('web')) credit('web', 'field', 0.5, 'openWorldHint');
  const score = (topic: string) => totals.get(topic)?.score ?? 0;
  const kept: Array<{ topic: string; score: number; evidence: string[] }> = [];
  for (const [topic, total] of totals) {
    const spec = vocab.specs.get(topic);
    if (spec?.yieldsTo?.some((other) => score(other) >= PLACEMENT_THRESHOLD)) continue;
    if (spec?.losesTo?.some((other) => score(other) >= Math.max(PLACEMENT_THRESHOLD, total.score))) continue;
    if (spec?.requires?.some((other) => score(other) < PLACEMENT_THRESHOLD)) continue;
    kept.push({ topic, score: round(total.score), evidence: total.evidence });
  }
  kept.sort((a, b) => b.score - a.score || (a.topic < b.topic ? -1 : 1));
  // Placed topics, and the best three below the threshold (what "closest groups" shows).
  let below = 0;
  const out: TopicScore[] = [];
  for (const entry of kept) {
    if (entry.score < PLACEMENT_THRESHOLD && ++below > 3) break;
    out.push({ topic: entry.topic, score: entry.score, reason: entry.evidence.join(', ') });
  }
  return out;
}

/**
 * True for a tool about its server itself (health, login, rate limits, feedback), placed in no
 * topic: its name has a meta word and its description (when it has one) says what the word is
 * about with the server's own name or a word of SELF_WORDS ("the SonarQube instance", "feedback
 * about this MCP tool"). A seller's "get feedback for a user" or an interviewer's feedback on an
 * application is work, placed like any tool.
 */
export function isAboutServer(name: string, description?: unknown, server?: string): boolean {
  const nameWords = words(name);
  const nameText = ` ${nameWords.join(' ')} `;
  if (!nameWords.some((word) => META_NAME_WORDS.has(word)) && !META_NAME_PHRASES.some((phrase) => nameText.includes(` ${phrase} `))) return false;
  if (typeof description !== 'string' || description.trim() === '') return true;
  const said = proseWords(description.slice(0, DESCRIPTION_CHARS));
  if (said.some((word) => selfStems().has(stem(word)))) return true;
  const serverWords = server === undefined ? [] : words(server);
  return serverWords.length > 0 && ` ${said.join(' ')} `.includes(` ${serverWords.join(' ')} `);
}

let selfStemSet: ReadonlySet<string> | undefined;
const selfStems = (): ReadonlySet<string> => (selfStemSet ??= new Set([...SELF_WORDS].map(stem)));

/** Topics a tool is placed in: those at or above the threshold. */
export function placedTopics(scores: readonly TopicScore[]): TopicScore[] {
  return scores.filter((s) => s.score >= PLACEMENT_THRESHOLD);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
