/**
 * What a name looks like to a person (and a model) reading it: compatibility forms folded (NFKC:
 * fullwidth letters, ligatures), case folded, and Cyrillic, Greek, Armenian and Latin letters
 * drawn like plain Latin ones (a dotless ı for an i) mapped to them. Two tools whose names differ only in that way read as one: a hostile upstream
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
    ѵ: 'v', ү: 'y', ѡ: 'w',
    // Latin letters NFKC keeps (dotless ı, Latin alpha and script g), and Armenian ones drawn like Latin.
    ı: 'i', ɩ: 'i', ɑ: 'a', ɡ: 'g', օ: 'o', ս: 'u', ո: 'n', հ: 'h', զ: 'q',
  }),
);

/** How prefixReadAlikes reads and renames one entry of a name plan. */
export interface ReadAlikePlan<T> {
  /** True while the entry is listed under its own (bare) name. */
  bare(entry: T): boolean;
  /** What its bare name looks like (nameSkeleton). */
  look(entry: T): string;
  /** What its prefixed name (`server_name`) looks like. */
  prefixedLook(entry: T): string;
  /** Lists it under its prefixed name. */
  prefix(entry: T): void;
}

/**
 * Prefixes every bare name that reads like a prefixed one (a hostile upstream's literal
 * "files_review" beside files' "review" listed as files_review), then every bare name reading like
 * one prefixed so, until none does: a name prefixed in the first round can be another server's
 * literal name too (server a's "zork" listed as a_zork makes server b's own a_zork b_a_zork,
 * which a third server may list literally), and the first claimant of an
 * exposed name keeps it. One pass when the first round prefixes nothing (most catalogs); else the
 * names still bare are indexed by look, so each is prefixed at most once and each look looked up once.
 */
export function prefixReadAlikes<T>(entries: readonly T[], plan: ReadAlikePlan<T>): void {
  let prefixedLooks: Set<string> | undefined;
  for (const entry of entries) if (!plan.bare(entry)) (prefixedLooks ??= new Set()).add(plan.prefixedLook(entry));
  if (prefixedLooks === undefined || prefixedLooks.size === 0) return;
  const queue: string[] = [];
  for (const entry of entries)
    if (plan.bare(entry) && prefixedLooks.has(plan.look(entry))) {
      plan.prefix(entry);
      queue.push(plan.prefixedLook(entry));
    }
  if (queue.length === 0) return;
  const waiting = new Map<string, T[]>();
  for (const entry of entries) {
    if (!plan.bare(entry)) continue;
    const look = plan.look(entry);
    const same = waiting.get(look);
    if (same) same.push(entry);
    else waiting.set(look, [entry]);
  }
  for (let look = queue.pop(); look !== undefined; look = queue.pop()) {
    const readAlikes = waiting.get(look);
    if (!readAlikes) continue;
    waiting.delete(look);
    for (const entry of readAlikes) {
      plan.prefix(entry);
      queue.push(plan.prefixedLook(entry));
    }
  }
}

/**
 * Prefixed names that read alike (server docs's `site_search` and server docs_site's `search`,
 * both docs_site_search): the one whose server name is the longer keeps it, since the other's own
 * name reaches into that server's name (a hostile upstream listing another's names, sorted first,
 * took its calls). Returns, per entry that loses, the entry that keeps the name. `look` is the
 * prefixed name's skeleton (nameSkeleton), `server` its server.
 */
export function longerServerKeeps<T>(entries: readonly T[], look: (entry: T) => string, server: (entry: T) => string): Map<T, T> {
  const owners = new Map<string, T>();
  const looks = entries.map(look);
  entries.forEach((entry, i) => {
    const owner = owners.get(looks[i] as string);
    if (owner === undefined || server(owner).length < server(entry).length) owners.set(looks[i] as string, entry);
  });
  const losers = new Map<T, T>();
  entries.forEach((entry, i) => {
    const owner = owners.get(looks[i] as string) as T;
    if (server(owner).length > server(entry).length) losers.set(entry, owner);
  });
  return losers;
}
