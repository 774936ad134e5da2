import type { ResolvedMode } from '../config/resolve.js';
import { compareStrings } from '../util/compare.js';
import { normalized } from '../catalog/text.js';
import { expandQuery, terms } from './text.js';
import { stem as singular } from '../util/stem.js';
import { MAX_QUERY_CHARS } from './query.js';
import { echoName } from '../util/errors.js';
import { hundredths } from '../util/round.js';
import { searchVocabulary } from './vocabulary.js';
import { taskNeighbours } from './intent-tasks.js';

/** A phrase resolved to a mode, or the closest modes when it is not clear enough. */
export interface IntentMatch {
  /** The chosen mode, or null when confidence is below the threshold. */
  mode: string | null;
  /** 0..1. */
  confidence: number;
  /** Other modes that fit, best first, with their confidence. */
  alternatives: Array<{ mode: string; confidence: number }>;
}

/** What a mode showing every tool search finds for the phrase adds to its score: about a whole alias. */
const EVIDENCE_WEIGHT = 12;

/** What a phrase as close as one of a mode's typical tasks adds (cosine 1; intent-tasks.ts): two aliases. */
const TASK_WEIGHT = 4;

/** Below this, `resolveIntent` asks back instead of guessing. */
const INTENT_THRESHOLD = 0.35;

/**
 * Resolves free text ("switch to security review", "let's fix a bug") to a mode, from mode names,
 * aliases and descriptions. An alias or name found whole in the phrase is strong evidence; shared
 * words (with synonyms) are weaker; so is closeness to one of its typical tasks (intent-tasks.ts:
 * "checking my crypto wallet balances" is research's "what's the balance of this wallet
 * address"); `evidence` (how much of what search finds for the phrase each mode shows: a map of
 * catalogEvidence, or read mode by mode where it can change the answer, LazyEvidence) adds up to
 * `EVIDENCE_WEIGHT`, unless the phrase names a mode
 * outright (namedModes), which its words then decide. Confidence mixes the best score's strength
 * with its margin over the runner-up (1 for the one mode a phrase names).
 *
 * @example
 * resolveIntent('time for a security audit', modes); // { mode: 'security_review', confidence: 0.9, ... }
 */
export function resolveIntent(input: string, modes: readonly ResolvedMode[], threshold = INTENT_THRESHOLD, evidence?: ReadonlyMap<string, number> | LazyEvidence): IntentMatch {
  // A task phrase, not a document: a megabyte intent was read whole against every mode's aliases.
  const phrase = input.slice(0, MAX_QUERY_CHARS);
  const expansion = expandQuery(phrase);
  const text = stemmedWords(phrase);
  // A phrase that names a mode is decided by its words: what search finds for "development" says
  // nothing against the mode the person named.
  const named = namedModes(text, modes);
  const weight = named.length > 0 ? 0 : EVIDENCE_WEIGHT;
  const near = taskNeighbours(modes, expansion);
  const scored = modes.map((mode) => ({ mode: mode.name, score: scoreMode(mode, text, expansion) + TASK_WEIGHT * (near.get(mode.name) ?? 0) }));
  if (weight > 0 && evidence !== undefined) {
    if ('of' in evidence) addLazyEvidence(scored, weight, evidence);
    else for (const entry of scored) entry.score += weight * (evidence.get(entry.mode) ?? 0);
  }
  scored.sort((a, b) => Number(named.includes(b.mode)) - Number(named.includes(a.mode)) || ranked(a, b));
  const best = scored[0];
  // Nothing matched: no alternatives (alphabetical zero-score names would only mislead).
  if (!best || (best.score <= 0 && named.length === 0)) return { mode: null, confidence: 0, alternatives: [] };
  const second = scored[1]?.score ?? 0;
  const strength = 1 - Math.exp(-best.score / 2);
  const margin = best.score > 0 ? Math.max(0, best.score - second) / best.score : 0;
  const confidence = named.length === 1 ? 1 : hundredths(strength * (0.5 + 0.5 * margin));
  const chosen = confidence >= threshold;
  // When unsure, the best-scoring mode is the first alternative, with the same confidence.
  const alternatives = scored
    .slice(chosen ? 1 : 0, chosen ? 4 : 3)
    .filter((s) => s.score > 0)
    .map((s) => ({ mode: s.mode, confidence: s === best ? confidence : hundredths((1 - Math.exp(-s.score / 2)) * 0.5) }));
  return { mode: chosen ? best.mode : null, confidence, alternatives };
}

/**
 * Evidence read only where it can change the answer (an rc of 5,000 modes fitted every one of them
 * for the first phrase after a catalog change: 11.5 s). `bound`: at most what `of` gives, cheap
 * (0: none for sure); `of`: the figure itself, which may cost a fit.
 */
interface LazyEvidence {
  bound(mode: string): number;
  of(mode: string): number;
}

/** The places of the answer: the chosen mode, the runner-up its margin reads, and three alternatives. */
const PLACES = 4;

/**
 * The most modes whose evidence one phrase reads (each may cost a fit: about 2 ms on the
 * 148-tool developer stack, reused by the next phrase until the catalog changes). About twice the
 * 17 presets: an rc of presets and a dozen modes of its own is read whole; on an rc of 5,000 modes
 * sharing the groups the phrase's tools are in, a phrase's fits cost a tenth of a second or less
 * (fitting them all took 5-11 s). Past it, the modes whose bounds rank lowest go without evidence.
 */
const MAX_EVIDENCE_READS = 32;

type Scored = { mode: string; score: number };

const ranked = (a: Scored, b: Scored): number => b.score - a.score || compareStrings(a.mode, b.mode);

/**
 * Adds `weight` times each mode's evidence to its score where it can reach the answer's PLACES:
 * modes are read best bound first, and a mode whose score with all the evidence it could get
 * ranks after the last place taken cannot take one: its own evidence is not read (its score, lower
 * than its true one, keeps it out of the places, so the answer is the one every mode's evidence
 * gives). Past the first mode whose bound is below the last place, none is read.
 */
function addLazyEvidence(scored: Scored[], weight: number, evidence: LazyEvidence): void {
  const best: Scored[] = [];
  const place = (entry: Scored) => {
    best.push(entry);
    best.sort(ranked);
    if (best.length > PLACES) best.pop();
  };
  const open: Array<{ entry: Scored; top: number }> = [];
  for (const entry of scored) {
    const bound = evidence.bound(entry.mode);
    if (bound > 0) open.push({ entry, top: entry.score + weight * bound });
    else place(entry);
  }
  open.sort((a, b) => b.top - a.top || compareStrings(a.entry.mode, b.entry.mode));
  let reads = 0;
  for (const { entry, top } of open) {
    if (reads === MAX_EVIDENCE_READS) break;
    const last = best.length === PLACES ? best[PLACES - 1] : undefined;
    // Even with all it could get it ranks after the last place: so does every mode after it, by a lower bound.
    if (last !== undefined && ranked({ mode: entry.mode, score: top }, last) > 0) {
      if (top < last.score) break;
      continue;
    }
    reads++;
    entry.score += weight * evidence.of(entry.mode);
    place(entry);
  }
}

/** The tools a mode shows and holds back, by id. */
export interface ModeTools {
  shownIds: ReadonlySet<string>;
  heldBackIds: ReadonlySet<string>;
}

/** A held-back tool is reachable (search, execute_tool) but not in the list: half a shown one. */
const HELD_BACK_EVIDENCE = 0.5;

/**
 * What a catalog says about a phrase: for each mode, how much of what search finds for the
 * phrase (`hits`, best first, ranks weighted 1, 1/2, 1/3...) the mode shows, from 0 to 1. A task
 * that needs browser tools should land in a mode that shows them, whatever its words share with
 * the modes' descriptions. Modes left out of `modes` (the catch-all) get no evidence.
 */
export function catalogEvidence(hits: ReadonlyArray<{ tool: { id: string } }>, modes: ReadonlyMap<string, ModeTools>): Map<string, number> {
  const out = new Map<string, number>();
  if (hits.length === 0) return out;
  for (const [name, tools] of modes) out.set(name, modeEvidence(hits, tools));
  return out;
}

/** One mode's share of `hits` (see catalogEvidence): 0 when there are none. */
export function modeEvidence(hits: ReadonlyArray<{ tool: { id: string } }>, tools: ModeTools): number {
  let total = 0;
  let sum = 0;
  hits.forEach((hit, rank) => {
    total += 1 / (rank + 1);
    sum += (tools.shownIds.has(hit.tool.id) ? 1 : tools.heldBackIds.has(hit.tool.id) ? HELD_BACK_EVIDENCE : 0) / (rank + 1);
  });
  return total === 0 ? 0 : sum / total;
}

/**
 * The answer to a phrase that chose no mode: the closest modes when some words matched, else
 * that nothing matched; then each mode with its description's headline, so the next try can name
 * one. At most `maxChars` characters (no default: an rc of 3,000 modes made 218 KB): whole lines,
 * as many modes as fit, then how many more (an rc of many modes cut at a reply's bound lost a line
 * mid-name and whatever followed it). The first two lines always come: under 700 characters, the
 * phrase echoed at most `NAME_ECHO_MAX` and three mode names of at most 64.
 */
export function unclearIntentText(phrase: string, match: IntentMatch, modes: readonly Pick<ResolvedMode, 'name' | 'description'>[], maxChars: number): string {
  const head =
    match.alternatives.length > 0
      ? `Not sure which mode fits "${echoName(phrase)}" (confidence ${match.confidence}, needs ${INTENT_THRESHOLD}). Closest: ${match.alternatives.map((a) => `${a.mode} (${a.confidence})`).join(', ')}.`
      : `No mode matches "${echoName(phrase)}": none of its words appear in a mode's name, aliases or description.`;
  const lines = [head, 'Name one of these modes, or describe the work in other words:'];
  let used = lines.join('\n').length;
  for (const [index, mode] of modes.entries()) {
    const line = `- ${mode.name}: ${headline(mode.description)}`;
    const last = index === modes.length - 1;
    if (used + 1 + line.length + (last ? 0 : MORE_MODES_ROOM) > maxChars) {
      lines.push(`… and ${modes.length - index} more modes.`);
      break;
    }
    lines.push(line);
    used += 1 + line.length;
  }
  return lines.join('\n');
}

/** Characters kept free for the line counting the modes left out ("… and 12345 more modes."). */
const MORE_MODES_ROOM = 32;

/** Characters of a mode's description a line of the unclear-intent answer keeps: every mode fits the bounded reply. */
const HEADLINE = 60;

/** A description's headline: up to its first colon ("Help customers: customers, orders, ..."), cut at a word. */
function headline(description: string): string {
  const colon = description.indexOf(':');
  const head = colon > 0 ? description.slice(0, colon) : description;
  if (head.length <= HEADLINE) return head;
  const cut = head.slice(0, HEADLINE);
  const space = cut.lastIndexOf(' ');
  return `${space > HEADLINE / 2 ? cut.slice(0, space) : cut}…`;
}

interface ModeVocabulary {
  terms: Map<string, number>;
  phrases: string[];
  /** Its name and aliases as namedModes compares them. */
  names: Set<string>;
}

const vocabularies = new WeakMap<ResolvedMode, ModeVocabulary>();

/** A mode's words with their weights (name 1.5, aliases 1, description 0.5) and its name and aliases as stemmed phrases. */
function vocabularyOf(mode: ResolvedMode): ModeVocabulary {
  let vocabulary = vocabularies.get(mode);
  if (vocabulary) return vocabulary;
  const weights = new Map<string, number>();
  const add = (words: string[], weight: number) => {
    for (const word of words) weights.set(word, Math.max(weights.get(word) ?? 0, weight));
  };
  add(terms(mode.name), 1.5);
  add(terms(mode.aliases.join(' ')), 1);
  add(terms(mode.description), 0.5);
  // An alias of stopwords only ("all") is in most phrases ("find all the TODOs"): found whole, it says nothing.
  const phrases = [mode.name.replace(/_/g, ' '), ...mode.aliases].filter((phrase) => terms(phrase).length > 0).map(stemmedWords);
  vocabulary = { terms: weights, phrases, names: new Set([mode.name.replace(/_/g, ' '), ...mode.aliases].map((name) => nameKey(stemmedWords(name)))) };
  vocabularies.set(mode, vocabulary);
  return vocabulary;
}

/**
 * The modes a phrase names outright: it is a mode's name or one of its aliases, with only switch
 * words and openers around it (vocabulary/search/lead-verbs.json: "switch to security review",
 * "sales mode", "time for retro"), compared without those words on both sides. Several when modes
 * share the alias.
 */
function namedModes(text: string, modes: readonly ResolvedMode[]): string[] {
  const said = nameKey(text);
  if (said.length === 0) return [];
  return modes.filter((mode) => vocabularyOf(mode).names.has(said)).map((mode) => mode.name);
}

/** Stemmed words without the switch words; a name of switch words alone ("to do") whole. */
function nameKey(stemmed: string): string {
  const { switchWords } = searchVocabulary();
  return stemmed.trim().split(' ').filter((word) => word.length > 0 && !switchWords.has(word)).join(' ') || stemmed.trim();
}

/** A text's words, plurals made singular, between spaces: " any open incident " for "Any open incidents?". */
function stemmedWords(text: string): string {
  return ` ${normalized(text).trim().split(' ').filter((word) => word.length > 0).map(singular).join(' ')} `;
}

function scoreMode(mode: ResolvedMode, text: string, expansion: ReadonlyArray<{ term: string; weight: number }>): number {
  let score = 0;
  const vocabulary = vocabularyOf(mode);
  // A name or alias found whole, plurals or not ("open incidents" has the alias "incident").
  for (const phrase of vocabulary.phrases) if (text.includes(phrase)) score += 2 + phrase.trim().split(' ').length;
  for (const { term, weight } of expansion) score += (vocabulary.terms.get(term) ?? 0) * weight;
  return score;
}
