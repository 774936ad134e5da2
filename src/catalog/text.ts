/**
 * Text helpers shared by group keywords, summaries and search: tool names split into words,
 * descriptions cut to one line.
 */

/** Lowercase words of a name or phrase: snake, kebab, camel and dotted case all split. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
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
 * dropped), cut at a word with an ellipsis when longer; the title or name when there is none.
 */
export function summarize(description: string | undefined, fallback: string): string {
  const text = (description ?? '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length === 0) return fallback.slice(0, MAX_SUMMARY);
  const sentenceEnd = text.search(/[.!?](\s|$)/);
  const sentence = sentenceEnd >= 0 ? text.slice(0, sentenceEnd + 1) : text;
  if (sentence.length <= MAX_SUMMARY) return sentence;
  const room = sentence.slice(0, MAX_SUMMARY - 1);
  const lastSpace = room.lastIndexOf(' ');
  const cut = (lastSpace > 40 ? room.slice(0, lastSpace) : room).replace(/[\s,;:(-]+$/, '');
  return `${cut}…`;
}
