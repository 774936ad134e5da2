import { MAX_QUERIES } from '../catalog/own-args.js';

/**
 * The steps of a task as written: "Read the PDFs in /root/x, compare them, then write a report to
 * /root/y.md" is three things to do, and a tool for each is what the task needs. Ranked as one
 * query, the words of the first or wordiest step fill the top ten with its tools; ranked per step
 * too (engine.ts), a tool that serves one step well climbs. The split is by punctuation and
 * "then" only: splitting on every "and" or before "save"/"write" measured worse on LiveMCPBench's
 * dev half, as the steps' nouns stay apart from their verbs.
 */

/**
 * Where a task's steps part: a sentence's end (a dot, semicolon, ! or ? followed by space, so
 * "report.pdf" and "9.5g" stay whole), a line's end, a comma (with any "and" or "then" after it),
 * or "then". No part repeats a class another part can match, and runs of spaces are one space
 * before the split (taskSteps): linear time on any text.
 */
const STEP_BREAK = /[.;!?](?:\s|$)|\n|,\s*(?:(?:and|then)\s+)*|\s+(?:and\s+)?then\s+/i;
/** A step needs this many words to be searched alone: "in Paris" or "please" names no action. */
const MIN_STEP_WORDS = 2;
/** Steps searched at most: each costs one more pass over the matching postings. The whole task is always searched too. */
export const MAX_STEPS = 8;
/** Characters of a query read for steps: the whole query's ranking reads about as much (query.ts MAX_QUERY_CHARS). */
const MAX_STEP_READ = 4_096;

/**
 * A task's steps (see STEP_BREAK), each of at least MIN_STEP_WORDS words, at most MAX_STEPS;
 * fewer than two means the task is one step and is searched as a whole only.
 *
 * @example
 * taskSteps('Read the paper webarena, then create a report in /root/r.md');
 * // ['Read the paper webarena', 'create a report in /root/r.md']
 */
export function taskSteps(query: string): string[] {
  // Runs of spaces one space, empty lines gone: STEP_BREAK's \s parts then read one character each.
  const text = (query.length > MAX_STEP_READ ? query.slice(0, MAX_STEP_READ) : query)
    .split('\n')
    .map((line) => line.split(/\s+/).filter(Boolean).join(' '))
    .filter(Boolean)
    .join('\n');
  const out: string[] = [];
  for (const part of text.split(STEP_BREAK)) {
    const step = part.trim();
    if (step.split(/\s+/).length < MIN_STEP_WORDS) continue;
    out.push(step);
    if (out.length >= MAX_STEPS) break;
  }
  return out.length >= 2 ? out : [];
}

/**
 * The distinct non-blank queries a search reads, trimmed, at most `MAX_QUERIES`: searchMany ranks
 * these and EmbeddingSearch embeds these, so the dense side finds each query by the same text.
 */
export function distinctQueries(queries: readonly string[]): string[] {
  return [...new Set(queries.map((query) => query.trim()).filter((query) => query.length > 0))].slice(0, MAX_QUERIES);
}
