import { searchVocabulary } from './vocabulary.js';

/*
 * Idioms whose words mislead one by one ("find out why" is no search, "log in" is not about logs):
 * each is read as the one word it means, in queries and tool text alike, before stemming and
 * synonyms. The phrases are data: vocabulary/search/idioms.json.
 */

/** First word -> the idioms starting with it, as word lists with their replacement. */
let byFirst: Map<string, Array<{ rest: string[]; as: string }>> | undefined;

function table(): Map<string, Array<{ rest: string[]; as: string }>> {
  if (byFirst) return byFirst;
  byFirst = new Map();
  for (const [phrase, as] of searchVocabulary().idioms) {
    const [first = '', ...rest] = phrase.split(' ');
    let list = byFirst.get(first);
    if (!list) byFirst.set(first, (list = []));
    list.push({ rest, as });
  }
  return byFirst;
}

/**
 * Lowercase words with each idiom replaced by the word it means; the same array when none occurs
 * (most text). Linear in the words: an idiom is looked up by its first word.
 *
 * @example
 * readIdioms(['find', 'out', 'why', 'it', 'fails']); // ['investigate', 'why', 'it', 'fails']
 */
export function readIdioms(words: readonly string[]): readonly string[] {
  const idioms = table();
  let out: string[] | undefined;
  for (let i = 0; i < words.length; i++) {
    const candidates = idioms.get(words[i] ?? '');
    const match = candidates?.find(({ rest }) => rest.every((word, k) => words[i + 1 + k] === word));
    if (match) {
      out ??= words.slice(0, i);
      out.push(match.as);
      i += match.rest.length;
    } else if (out) out.push(words[i] ?? '');
  }
  return out ?? words;
}
