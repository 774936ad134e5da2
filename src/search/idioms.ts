/**
 * Idioms whose words mislead one by one: "find out why" is no search, "log in" is not about
 * logs, "pull up the postmortem" is no git pull. Each is read as the one word it means, in queries
 * and tool text alike, before stemming and synonyms. Only phrases whose parts would each match
 * the wrong tools belong here; plain synonyms live in text.ts.
 */
const IDIOMS: ReadonlyArray<readonly [string, string]> = [
  ['find out', 'investigate'],
  ['figure out', 'investigate'],
  ['look into', 'investigate'],
  ['dig into', 'investigate'],
  ['pull up', 'retrieve'],
  ['bring up', 'retrieve'],
  ['look up', 'lookup'],
  ['log in', 'login'],
  ['log into', 'login'],
  ['sign in', 'login'],
  ['log out', 'logout'],
  ['sign out', 'logout'],
  ['sign up', 'signup'],
  ['spin up', 'start'],
  ['kick off', 'start'],
  ['fire up', 'start'],
  ['tear down', 'delete'],
  ['shut down', 'stop'],
  ['roll back', 'rollback'],
  ['go over', 'review'],
  ['go through', 'review'],
  ['look over', 'review'],
  ['takes so long', 'slow'],
  ['take so long', 'slow'],
  ['taking so long', 'slow'],
  ['takes forever', 'slow'],
  ['take forever', 'slow'],
];

/** First word -> the idioms starting with it, as word lists with their replacement. */
let byFirst: Map<string, Array<{ rest: string[]; as: string }>> | undefined;

function table(): Map<string, Array<{ rest: string[]; as: string }>> {
  if (byFirst) return byFirst;
  byFirst = new Map();
  for (const [phrase, as] of IDIOMS) {
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
