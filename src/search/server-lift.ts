import type { CatalogTool } from '../catalog/catalog.js';

/**
 * Server-level evidence for a query (`SearchOptions.servers`): a server whose tools, read as one
 * text, match the query lifts each of its tools. "quick q: half-life of carbon-14?" matches no tool
 * name well, but a science server's tools together say "chemistry", "element" and "isotope"; the
 * phrase then reads that server's tools before a web-search tool that shares one word with it.
 * Routing first to a server, then to its tool, is how hierarchical tool retrieval narrows a large
 * catalog; here the server's score only scales its tools' own.
 *
 * Measured on intent's evidence (focus/intent-catalog.ts: the phrase's first 3 hits), tuning
 * stacks' tasks whose intent-picked mode shows a gold tool, 847 tasks: 644 without; LIFT 0.6 651,
 * 1 653, 1.5 654; with the task's tools 737 -> 744. Seven of ten sets gained, none lost; the intent
 * phrases (127 of 221) did not move. search_tools does not use it: with a separate server index,
 * search alone top 5 rose 635 -> 637 of 847, but the GitHub + reference queries lost two first
 * hits and the real-world steps one hit@5.
 */

/** How much the best-matching server lifts its tools: x (1 + LIFT x (server score / best server score)). */
const LIFT = 1;
/** BM25 over servers' texts: the saturation and length damping search uses for tools (engine.ts), standard B. */
const K1 = 1.2;
const B = 0.75;

/** Which server each tool belongs to (as a number), and each server's text length. */
export class ServerShape {
  private constructor(
    readonly serverOf: Int32Array,
    readonly lengths: Float64Array,
    readonly avgLength: number,
  ) {}

  /** `toolLengths`: each tool's indexed text length (engine.ts), summed per server. */
  static of(tools: readonly Pick<CatalogTool, 'server'>[], toolLengths: Float32Array): ServerShape {
    const numbers = new Map<string, number>();
    const serverOf = new Int32Array(tools.length);
    tools.forEach((tool, doc) => {
      let n = numbers.get(tool.server);
      if (n === undefined) numbers.set(tool.server, (n = numbers.size));
      serverOf[doc] = n;
    });
    const lengths = new Float64Array(numbers.size);
    let total = 0;
    for (let doc = 0; doc < tools.length; doc++) {
      const server = serverOf[doc] ?? 0;
      const length = toolLengths[doc] ?? 0;
      lengths[server] = (lengths[server] ?? 0) + length;
      total += length;
    }
    return new ServerShape(serverOf, lengths, numbers.size > 0 ? total / numbers.size : 1);
  }
}

/**
 * Each tool's lift for the query's expanded terms, or undefined when there are fewer than two
 * servers or no server matches. Reads the tools' postings (a term's count in a server is the sum
 * over its tools), so it costs one more walk of the postings the query touches and no index.
 */
export function serverLift(
  expansion: readonly { term: string; weight: number }[],
  postings: ReadonlyMap<string, { docs: Int32Array; tf: Float32Array }>,
  shape: ServerShape,
): ((doc: number) => number) | undefined {
  const servers = shape.lengths.length;
  if (servers < 2) return undefined;
  const scores = new Float64Array(servers);
  const counts = new Float64Array(servers);
  for (const { term, weight } of expansion) {
    const posting = postings.get(term);
    if (!posting) continue;
    counts.fill(0);
    let holding = 0;
    for (let i = 0; i < posting.docs.length; i++) {
      const server = shape.serverOf[posting.docs[i] ?? 0] ?? 0;
      if (counts[server] === 0) holding++;
      counts[server] = (counts[server] ?? 0) + (posting.tf[i] ?? 0);
    }
    const idf = Math.log(1 + (servers - holding + 0.5) / (holding + 0.5));
    for (let server = 0; server < servers; server++) {
      const tf = counts[server] ?? 0;
      if (tf <= 0) continue;
      const norm = tf + K1 * (1 - B + (B * (shape.lengths[server] ?? 0)) / shape.avgLength);
      scores[server] = (scores[server] ?? 0) + weight * idf * ((tf * (K1 + 1)) / norm);
    }
  }
  let best = 0;
  for (const score of scores) if (score > best) best = score;
  if (best <= 0) return undefined;
  return (doc) => 1 + (LIFT * (scores[shape.serverOf[doc] ?? 0] ?? 0)) / best;
}
