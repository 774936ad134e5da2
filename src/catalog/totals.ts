import { countToolTokens, countEpoch, type TokenizerName } from '../util/tokens.js';
import type { CatalogTool, ToolDefinition } from './types.js';

/**
 * What lists of catalog tools cost: the listed definitions' sum, and the servers' own definitions'
 * total, the base of every reduction `status` reports and of the share a mode's budget may grow to.
 */

/** Sum of the tokens of `tools`. */
export function sumTokens(tools: Iterable<{ tokens: number }>): number {
  let total = 0;
  for (const tool of tools) total += tool.tokens;
  return total;
}

/** Compacted tools whose definitions as sent are counted exactly; past them the rest are estimated. */
const EXACT_VERBATIM = 1_000;

/**
 * Tokens of the verbatim definitions; a tool listed verbatim (nothing to compact) counts its
 * `tokens`. Up to EXACT_VERBATIM compacted tools each count their definition as sent; past them an
 * evenly spread sample of that many does, and the others count their listed tokens at the sample's
 * ratio of sent to listed tokens (counting all of 10,000 real-shaped tools again cost a quarter of
 * a second, and every mode's budget reads this total).
 */
export function verbatimTokens(tools: readonly CatalogTool[], tokenizer: TokenizerName): number {
  let total = 0;
  const compacted: CatalogTool[] = [];
  for (const tool of tools) {
    if (tool.listed === tool.definition) total += tool.tokens;
    else compacted.push(tool);
  }
  const step = Math.max(1, compacted.length / EXACT_VERBATIM);
  let sent = 0;
  let listed = 0;
  let rest = 0;
  for (let i = 0, next = 0; i < compacted.length; i++) {
    const tool = compacted[i] as CatalogTool;
    if (i === Math.floor(next)) {
      sent += definitionTokens(tool.definition, tokenizer);
      listed += tool.tokens;
      next += step;
    } else rest += tool.tokens;
  }
  return total + sent + (listed > 0 ? Math.round((rest * sent) / listed) : rest);
}

const counted = new Map<TokenizerName, { epoch: number; byObject: WeakMap<ToolDefinition, number> }>();

/**
 * `countToolTokens` of a catalog's definition object, once per object and tokenizer. A catalog
 * takes a definition as never changing (its placement and compact form are kept per object too),
 * and every rebuild (each upstream start) made fresh tools that serialized and hashed all of them
 * again to find their counts in the digest cache: a fifth of fitting 10,000 tools. Counts kept
 * before `check` began (withoutRecordedCounts) are dropped: one may be a lock's recorded count.
 */
export function definitionTokens(definition: ToolDefinition, tokenizer: TokenizerName): number {
  let kept = counted.get(tokenizer);
  if (kept?.epoch !== countEpoch()) counted.set(tokenizer, (kept = { epoch: countEpoch(), byObject: new WeakMap() }));
  let tokens = kept.byObject.get(definition);
  if (tokens === undefined) kept.byObject.set(definition, (tokens = countToolTokens(definition, tokenizer)));
  return tokens;
}
