import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** Tokenizers lazytools can count with; o200k_base (GPT-4o family) is the default. */
export type TokenizerName = 'o200k_base' | 'cl100k_base';

/** The part of a tool definition a model pays for on every turn. */
export interface CountableTool {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
}

const require = createRequire(import.meta.url);
const encoders = new Map<TokenizerName, (text: string) => number>();
const cache = new Map<string, number>();

/**
 * Tokens of one tool definition, counted over `{name, description, input_schema}` (the shape
 * model APIs bill), cached by content hash so repeated catalogs and sessions pay once. The
 * tokenizer's tables load on first use, keeping it off the start-up path.
 */
export function countToolTokens(tool: CountableTool, tokenizer: TokenizerName = 'o200k_base'): number {
  const text = JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
  const key = `${tokenizer}:${createHash('sha1').update(text).digest('base64')}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const tokens = encoder(tokenizer)(text);
  cache.set(key, tokens);
  return tokens;
}

/** Tokens of several tool definitions (lazytools' own tools, say), each counted as above. */
export function countToolsTokens(tools: Iterable<CountableTool>, tokenizer: TokenizerName = 'o200k_base'): number {
  let total = 0;
  for (const tool of tools) total += countToolTokens(tool, tokenizer);
  return total;
}

/** Tokens of any text a model reads (a JSON answer, say), with the same tokenizer and no cache. */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k_base'): number {
  return encoder(tokenizer)(text);
}

function encoder(name: TokenizerName): (text: string) => number {
  let count = encoders.get(name);
  if (!count) {
    const module = require(`gpt-tokenizer/encoding/${name}`) as { countTokens: (text: string) => number };
    count = module.countTokens;
    encoders.set(name, count);
  }
  return count;
}
