/**
 * What a name looks like to a person (and a model) reading it: compatibility forms folded (NFKC:
 * fullwidth letters, ligatures), case folded, and Cyrillic and Greek letters drawn like Latin ones
 * mapped to them. Two tools whose names differ only in that way read as one: a hostile upstream
 * whose tool's name is a trusted server's tool name with a Cyrillic а for the Latin a must not pass for it.
 */
export function nameSkeleton(name: string): string {
  // Printable ASCII (most names) is its own NFKC form and holds no look-alike: lowercased only.
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  const folded = name.normalize('NFKC').toLowerCase();
  // Joined, not appended: `out += char` made a rope of one node per character (32 bytes each),
  // and a name with no lookalike (most) is its folded form as it is.
  let mapped = false;
  const chars: string[] = [];
  for (const char of folded) {
    const latin = LOOKALIKES.get(char);
    if (latin !== undefined) mapped = true;
    chars.push(latin ?? char);
  }
  return mapped ? chars.join('') : folded;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Lowercase Cyrillic and Greek letters drawn like a Latin letter (after case folding). */
const LOOKALIKES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    а: 'a', в: 'b', е: 'e', ё: 'e', з: '3', і: 'i', ї: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l',
    α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', μ: 'u', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w', ϲ: 'c', ϳ: 'j',
  }),
);
