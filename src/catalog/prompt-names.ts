import { shownEntry, shownName } from '../config/secrets.js';
import { echoName } from '../util/errors.js';
import { firstLines } from '../util/plural.js';
import { longerServerKeeps, nameSkeleton, prefixReadAlikes } from '../util/lookalike.js';

/** Where an exposed prompt name leads: its server and the server's own name for it. */
export interface PromptRoute {
  server: string;
  name: string;
}

/** Prompts left out for a name taken that one line each names, at most (then a count). */
const NAMED_LEFT_OUT = 20;

/**
 * The prompts of servers (in rc order) under unique names, the way tool names are made unique
 * (names.ts plannedNames): `server_name` where two servers share a name, or names that look
 * alike (util/lookalike: case, fullwidth forms, a Cyrillic or Greek letter drawn like a Latin
 * one), or always with `prefix: always`; and a literal name drawn like another's prefixed one (a
 * server's own "files_review" beside files' "review" listed as files_review) is prefixed too, so
 * no upstream takes another's prompt by its name: the first server's literal name took it, and
 * prompts/get of files_review ran the other server's prompt. Two prefixed names that read alike
 * (server "a"'s "b_c" and server "a_b"'s "c", both a_b_c) go to the longer server's prompt, whatever
 * the rc's order; what else ends at one name goes to the first; `leftOut` names each prompt
 * left out and the one that kept the name (the gateway says them on stderr, `status` and `check`
 * with their warnings).
 */
export function exposedPrompts<P extends { name: string }>(
  servers: ReadonlyArray<{ name: string; prompts: readonly P[] }>,
  prefix: 'auto' | 'always' | undefined,
): { list: P[]; byName: Map<string, PromptRoute>; leftOut: string[] } {
  const planned = servers.flatMap((server) => server.prompts.map((prompt) => ({ server: server.name, prompt, look: nameSkeleton(prompt.name), exposed: prompt.name })));
  // Servers per look of a name (entries come server by server: a server listing one name twice is one server).
  const counts = new Map<string, { last: string; count: number }>();
  for (const { server, look } of planned) {
    const seen = counts.get(look);
    if (!seen) counts.set(look, { last: server, count: 1 });
    else if (seen.last !== server) counts.set(look, { last: server, count: seen.count + 1 });
  }
  for (const entry of planned) if (prefix === 'always' || (counts.get(entry.look)?.count ?? 0) > 1) entry.exposed = `${entry.server}_${entry.prompt.name}`;
  // How a prefixed name looks: its server's look, `_`, its own look (both already at hand).
  let serverLooks: Map<string, string> | undefined;
  const serverLook = (server: string) => (serverLooks ??= new Map(servers.map((entry) => [entry.name, nameSkeleton(entry.name)]))).get(server) ?? '';
  prefixReadAlikes(planned, {
    bare: (entry) => entry.exposed === entry.prompt.name,
    look: (entry) => entry.look,
    prefixedLook: (entry) => `${serverLook(entry.server)}_${entry.look}`,
    prefix: (entry) => (entry.exposed = `${entry.server}_${entry.prompt.name}`),
  });
  // Two prefixed names that read alike (docs's site_summary, docs_site's summary): the longer
  // server's keeps it, as tools do (names.ts), whatever the rc's order.
  type Planned = (typeof planned)[number];
  const prefixedOnes = planned.filter((entry) => entry.exposed !== entry.prompt.name);
  const losers = longerServerKeeps(prefixedOnes, (entry: Planned) => `${serverLook(entry.server)}_${entry.look}`, (entry) => entry.server);
  const list: P[] = [];
  const byName = new Map<string, PromptRoute>();
  const leftOut: string[] = [];
  for (const entry of planned) {
    const { server, prompt, exposed } = entry;
    const owner = losers.get(entry);
    if (owner !== undefined) {
      leftOut.push(`prompt "${shownEntry(server, prompt.name)}" left out: its exposed name "${echoName(exposed)}" reads like server "${shownName(owner.server)}"'s prompt "${shownEntry(owner.server, owner.prompt.name)}"; rename server "${shownName(server)}" in the rc to list it`);
      continue;
    }
    const holder = byName.get(exposed);
    if (holder) {
      const twice = holder.server === server && holder.name === prompt.name;
      leftOut.push(`prompt "${shownEntry(server, prompt.name)}" left out: ${twice ? 'its server lists it twice; the first is kept' : `its exposed name "${echoName(exposed)}" is already prompt "${shownEntry(holder.server, holder.name)}"'s name`}`);
      continue;
    }
    byName.set(exposed, { server, name: prompt.name });
    list.push(exposed === prompt.name ? prompt : { ...prompt, name: exposed });
  }
  return { list, byName, leftOut: firstLines(leftOut, NAMED_LEFT_OUT, 'prompts listed twice or named like another prompt') };
}
