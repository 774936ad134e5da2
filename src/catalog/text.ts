/**
 * Text helpers shared by group keywords, summaries and search: tool names split into words,
 * descriptions cut to one line.
 */

import { sliceWhole } from '../util/bounds.js';
import { blankControls } from '../util/controls.js';

/** Scripts written without spaces between words: their runs need a dictionary segmenter (search/tokenize), and their verbs are found as substrings (read-only.ts). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** True when a text holds a script written without spaces (Chinese, Japanese, Thai...). */
export function hasUnspaced(text: string): boolean {
  return UNSPACED.test(text);
}

/** Lowercase words of a name or phrase: snake, kebab, camel and dotted case all split. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // An acronym ends before a capitalized word ("HTMLParser"); a lookahead, so a long capital run stays linear.
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Words joined by single spaces with a leading and trailing space, for phrase matching. */
export function normalized(text: string): string {
  return ` ${words(text).join(' ')} `;
}

const MAX_SUMMARY = 80;

/**
 * One line of at most 80 characters: the first sentence of the description (markdown emphasis
 * dropped), cut at a word with an ellipsis when longer; the title or name when there is none
 * (its controls blanked as a description's are: an upstream's title is not checked like a name).
 * Cuts keep or drop a whole code point.
 */
export function summarize(description: string | undefined, fallback: string): string {
  const text = summaryText(description ?? '');
  if (text.length === 0) return sliceWhole(blankControls(fallback), MAX_SUMMARY);
  const sentenceEnd = text.search(/[.!?](\s|$)/);
  const sentence = sentenceEnd >= 0 ? text.slice(0, sentenceEnd + 1) : text;
  if (sentence.length <= MAX_SUMMARY) return sentence;
  return `${cutAtWord(sentence, MAX_SUMMARY - 1, 40)}…`;
}

/** How much of a long description summarize tidies: far more than a summary reads. */
const SUMMARY_HEAD = 512;

/**
 * The tidied text (emphasis dropped, spaces collapsed) a summary is cut from. A summary reads at
 * most the first MAX_SUMMARY + 2 characters of it (a sentence end and the character after it), and
 * tidying a prefix of the description gives a prefix of the tidied whole but for its last character;
 * so a long description is tidied only as far as its first SUMMARY_HEAD characters when they leave
 * enough. The result is the same; a 16 K-character description no longer costs two passes per build.
 */
function summaryText(raw: string): string {
  if (raw.length > SUMMARY_HEAD) {
    const head = tidied(raw.slice(0, SUMMARY_HEAD)).trimStart();
    if (head.length > MAX_SUMMARY + 2) return head;
  }
  return tidied(raw).trim();
}

function tidied(text: string): string {
  return blankControls(text.replace(/\*\*|__|`/g, '')).replace(/\s+/g, ' ');
}

/** At most `max` characters of `text`, cut after a word (mid-word only when the last space is early), trailing punctuation dropped. */
function cutAtWord(text: string, max: number, minWord = max / 2): string {
  const room = sliceWhole(text, max);
  const lastSpace = room.search(/\s\S*$/);
  return (lastSpace > minWord ? room.slice(0, lastSpace) : room).replace(/[\s,;:(-]+$/, '');
}

/** Marks text cut short: the reader knows there is more (the full text is one describe_tools away). */
const MORE = ' …';

/**
 * A description bounded to `max` characters, keeping what comes first: the whole text when it
 * fits (tidied: see `tidy`), else its first paragraph, else its leading sentences, else a cut at a word,
 * then " …" to say there is more. Line breaks inside what is kept stay (lists, examples).
 */
export function shortenText(text: string, max: number): string {
  const trimmed = tidy(text);
  if (trimmed.length <= max) return trimmed;
  const paragraph = trimmed.split(/\n\s*\n/, 1)[0]!.trimEnd();
  if (paragraph.length <= max - MORE.length) return `${paragraph}${MORE}`;
  let kept = '';
  for (const end of sentenceEnds(paragraph)) {
    if (end > max - MORE.length) break;
    kept = paragraph.slice(0, end);
  }
  return `${kept || cutAtWord(paragraph, max - MORE.length)}${MORE}`;
}

/**
 * Whitespace that says nothing taken out: outer blank space, spaces before line ends, the
 * indentation every line after the first shares (descriptions written inside indented source
 * code), and blank lines beyond one. Relative indentation (nested lists) stays.
 */
function tidy(text: string): string {
  const lines = text.trim().split('\n').map((line) => line.trimEnd());
  let indent = Infinity;
  for (const line of lines.slice(1)) if (line !== '') indent = Math.min(indent, line.length - line.trimStart().length);
  const dedented = indent === Infinity || indent === 0 ? lines : [lines[0], ...lines.slice(1).map((line) => line.slice(indent))];
  return dedented.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Abbreviations whose period ends no sentence. */
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|max|min|no|Mr|Dr|St)\.)$/i;

/** Offsets just past each sentence end of `text` (".", "!" or "?" before whitespace or the end). */
function* sentenceEnds(text: string): Generator<number> {
  for (const match of text.matchAll(/[.!?](?=\s|$)/g)) {
    const end = match.index + 1;
    if (!ABBREVIATION.test(text.slice(Math.max(0, end - 8), end))) yield end;
  }
}

/**
 * Case and accent folding: compatibility forms (full-width letters, ligatures) to plain ones,
 * combining accents of Latin, Greek and Cyrillic dropped ("löschen" = "loschen", "ё" = "е"),
 * recomposed so kana keep their voicing marks, lowercased, "ß" as "ss".
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ß/g, 'ss');
}

/**
 * Words of any script written with spaces, lowercase with accents folded (`fold`: "Crée",
 * "löscht", "создаёт" -> "cree", "loscht", "создает"): how verbs of other languages are compared
 * (read-only.ts). `words` and `proseWords` keep ASCII only.
 */
export function foldedWords(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Words of prose: lowercased and split on anything but letters and digits, without the camel-case
 * split names get (so "GitHub" stays "github", "MongoDB" stays "mongodb"); URLs dropped.
 */
export function proseWords(text: string): string[] {
  return text
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** What title and group text read of a definition (catalog/types ToolDefinition; this file imports no catalog type). */
export interface Titled {
  name: string;
  title?: string;
  annotations?: { title?: string };
}

/** The title placement reads: the tool's, else its annotations'. */
export function toolTitle(tool: Titled): string | undefined {
  return tool.title ?? tool.annotations?.title;
}

const groupTexts = new WeakMap<Titled, { summary: string; text: string }>();

/**
 * What group keywords read of a tool (`normalized` name, title and summary), kept per definition
 * object for the summary it was made with: each rebuild split every tool's words again.
 */
export function groupText(tool: Titled, summary: string): string {
  const kept = groupTexts.get(tool);
  if (kept?.summary === summary) return kept.text;
  const text = normalized(`${tool.name} ${toolTitle(tool) ?? ''} ${summary}`);
  groupTexts.set(tool, { summary, text });
  return text;
}
