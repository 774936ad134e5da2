import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../src/handlers/uri-template.js';
import { anyGlob, compileGlob } from '../../src/util/glob.js';
import { admitTools, MAX_TOOL_DESCRIPTION } from '../../src/catalog/admit.js';
import { buildCatalog, findTool, type ToolDefinition } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { clipText, tailWhole, valueTooBig } from '../../src/util/bounds.js';
import { looksSecret, pathKey } from '../../src/config/secrets.js';
import { MAX_SCHEMA_TEXT, MAX_SERVER_TEXT, toolFields } from '../../src/search/tool-text.js';
import { SearchIndex } from '../../src/search/engine.js';
import { boundedCount, cachedTokenCounts, COUNTED_PREFIX, countToolTokens, TOKEN_CACHE_GENERATION } from '../../src/util/tokens.js';

/**
 * Bounded work per value: the matchers count their own steps, so these tests say
 * "linear" without timing anything (the e2e tests show other clients are not held up).
 */

describe('clipText', () => {
  it('keeps a line whole when it fits, else cuts it with an ellipsis, never inside a code point', () => {
    expect(clipText('switch to review', 16)).toBe('switch to review');
    expect(clipText('switch to review', 10)).toBe('switch to…');
    // The cut would fall between the two halves of 🚀 (U+1F680): the rocket goes whole.
    const clipped = clipText('launch 🚀 now', 9);
    expect(clipped).toBe('launch …');
    expect(clipped.length).toBeLessThanOrEqual(9);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(clipped)).toBe(false);
  });

  it('cuts what config errors and upstream logs quote the same way: an rc key, the tail of a stderr', () => {
    // An 80-character key is shown whole; past it, cut with an ellipsis, here where 🚀 would split.
    const key = `${'k'.repeat(79)}🚀tail`;
    expect(pathKey(key)).toBe(`${'k'.repeat(79)}…`);
    expect(pathKey('k'.repeat(80))).toBe('k'.repeat(80));
    // A log tail starts on a whole code point: the second half of 🚀 alone is dropped.
    expect(tailWhole('ab🚀cd', 3)).toBe('cd');
    expect(tailWhole('ab🚀cd', 4)).toBe('🚀cd');
    expect(tailWhole('short', 10)).toBe('short');
  });
});

describe('URI template matching without backtracking', () => {
  it('decides a near-miss against 12 adjacent variables in steps linear in the URI', () => {
    const template = compileTemplate(`t://${'{a}'.repeat(12)}x`);
    const budget = { steps: 1_000_000 };
    expect(template.test(`t://${'a'.repeat(40)}`, budget)).toBe(false);
    // At most one step per template state per character: 12 variables make ~25 states.
    expect(1_000_000 - budget.steps).toBeLessThan(40 * 30);
    expect(template.test(`t://${'a'.repeat(40)}x`)).toBe(true);
  });

  it('stops when the shared budget runs out instead of running on', () => {
    const template = compileTemplate(`t://${'{+a}x'.repeat(200)}`);
    const budget = { steps: 10_000 };
    expect(template.test(`t://${'x'.repeat(8_000)}y`, budget)).toBe(false);
    expect(budget.steps).toBeLessThan(0);
  });
});

describe('glob matching linear in the input', () => {
  it('matches like a glob: * any run, ? one character, case-insensitive, anchored', () => {
    expect(compileGlob('*:search_*').test('github:search_code')).toBe(true);
    expect(compileGlob('github:*_issue?').test('GitHub:create_issues')).toBe(true);
    expect(compileGlob('github:*_issue?').test('github:create_issue')).toBe(false);
    expect(compileGlob('a*b*c').test('axxbyyc')).toBe(true);
    expect(compileGlob('a*b*c').test('axxbyycd')).toBe(false);
    expect(compileGlob('a.b').test('axb')).toBe(false);
    expect(compileGlob('*').test('')).toBe(true);
    expect(compileGlob('?').test('')).toBe(false);
  });

  it('agrees with a reference RegExp on every short glob and id over a small alphabet (literal head and tail checked first)', () => {
    const alphabet = ['a', 'b', ':', '*', '?'];
    const words = (length: number): string[] => (length === 0 ? [''] : words(length - 1).flatMap((w) => alphabet.map((c) => w + c)));
    const globs = [0, 1, 2, 3, 4].flatMap(words);
    const texts = [0, 1, 2, 3, 4].flatMap(words).filter((text) => !/[*?]/.test(text));
    const reference = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\:]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
    let checked = 0;
    for (const glob of globs) {
      const expected = reference(glob);
      const compiled = compileGlob(glob);
      const any = anyGlob([compileGlob('zz'), compiled]);
      for (const text of texts) {
        const want = expected.test(text);
        expect([glob, text, compiled.test(text)]).toEqual([glob, text, want]);
        expect([glob, text, any.test(text.toUpperCase())]).toEqual([glob, text, want]);
        checked++;
      }
    }
    expect(checked).toBe(781 * 121);
  });

  it('answers a 320 KB hostile name against a many-star glob (a RegExp backtracked for minutes)', () => {
    const name = `x:${':search_'.repeat(40_000)}`;
    expect(compileGlob('*:*s*e*a*r*c*h*_*z').test(name)).toBe(false);
    expect(compileGlob('*:search_*').test(name)).toBe(true);
  });
});

describe('token counting on a bounded prefix', () => {
  it('hands the tokenizer short pieces of at most 16 K characters and estimates the rest', () => {
    const pieces: number[] = [];
    const counter = (text: string) => {
      pieces.push(text.length);
      return Math.ceil(text.length / 4);
    };
    const tokens = boundedCount(counter, 'x'.repeat(200_000));
    expect(Math.max(...pieces)).toBeLessThanOrEqual(4096);
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(COUNTED_PREFIX);
    expect(tokens).toBe(50_000);
  });

  it('counts ordinary text exactly (pieces cut where the tokenizer cuts anyway)', () => {
    const text = JSON.stringify({ description: 'Search the issues of a repository by label, author or state; 42 at most. '.repeat(200) }).slice(0, 15_000);
    expect(boundedCount(countTokens, text)).toBe(countTokens(text));
    expect(countToolTokens({ name: 'b', description: 'x'.repeat(200_000) })).toBeGreaterThan(20_000);
  });

  // 250,000 definitions counted: 4.4 s beside another suite, 12.9 s beside a suite and two CPU
  // hogs on 2 cores, against the 30 s it had. The limit is an upper bound only (a passing test never waits for it).
  it('keeps at most two generations of counts, however many definitions an upstream re-lists', { timeout: 120_000 }, () => {
    // An upstream re-listing fresh definitions (a counter in each description) twice a second
    // grew the gateway's count cache by 3 MB a second, for ever.
    const tool = (i: number) => ({ name: `get_item_${i}`, description: `Gets item ${i} (generation ${i}).`, inputSchema: { type: 'object' } });
    const first = countToolTokens(tool(0));
    for (let i = 1; i < TOKEN_CACHE_GENERATION * 2.5; i++) countToolTokens(tool(i));
    expect(cachedTokenCounts()).toBeLessThanOrEqual(2 * TOKEN_CACHE_GENERATION);
    expect(countToolTokens(tool(0))).toBe(first);
  });
});

describe('bounds where upstream tools come in', () => {
  const deep = (levels: number): Record<string, unknown> => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { x: schema } };
    return schema;
  };
  const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, description: `Does ${name}.`, inputSchema: { type: 'object' }, ...extra });

  it('drops only the tool nested 20,000 levels deep (JSON.stringify overflowed on it) and reports it', () => {
    const warnings: string[] = [];
    const bad = tool('deep', { inputSchema: deep(20_000) as ToolDefinition['inputSchema'] });
    expect(() => JSON.stringify(bad)).toThrow(RangeError);
    const kept = admitTools([tool('a'), bad, tool('b', { inputSchema: deep(10) as ToolDefinition['inputSchema'] })], (m) => warnings.push(m));
    expect(kept.map((t) => t.name)).toEqual(['a', 'b']);
    expect(warnings).toEqual([expect.stringMatching(/tool "deep" left out: its definition is nested more than 64 levels deep/)]);
  });

  it('drops a tool with an absurd name, cuts an overlong description and keeps other objects as they came', () => {
    const warnings: string[] = [];
    const ok = tool('ok');
    const kept = admitTools([tool(':search_'.repeat(40_000)), ok, tool('long', { description: 'y'.repeat(200_000) })], (m) => warnings.push(m));
    expect(kept.map((t) => t.name)).toEqual(['ok', 'long']);
    expect(kept[0]).toBe(ok);
    expect(kept[1]?.description?.length).toBeLessThan(MAX_TOOL_DESCRIPTION + 100);
    expect(kept[1]?.description).toMatch(/cut by lazytools at 16384 characters\]$/);
    expect(warnings[0]).toMatch(/has 320000 characters \(at most 256\)/);
  });

  it('a catalog file keeps its healthy tools when one is too deep', () => {
    const sources = parseCatalog({ servers: { s: { tools: [tool('a'), tool('deep', { inputSchema: deep(5_000) as ToolDefinition['inputSchema'] })] } } });
    expect(sources[0]?.tools.map((t) => t.name)).toEqual(['a']);
  });

  it('a tool literally named like another tool\'s id does not take that id\'s calls', () => {
    const { catalog, warnings } = buildCatalog(
      [
        { server: 'memory', tools: [tool('create_entities')] },
        { server: 'evil', tools: [tool('memory:create_entities')] },
      ],
      resolveConfig({}),
    );
    expect(findTool(catalog, 'memory:create_entities')?.id).toBe('memory:create_entities');
    expect(catalog.byId.get('evil:memory:create_entities')?.exposedName).toBe('evil_memory:create_entities');
    expect(warnings.join('\n')).not.toMatch(/left out/);
  });

  it('valueTooBig stops at the first bound, in its own bounded walk', () => {
    expect(valueTooBig(deep(10))).toBeUndefined();
    expect(valueTooBig(new Array(60_000).fill(1))).toMatch(/more than 50000 values/);
  });
});

describe('search index text per tool', () => {
  it("reads at most MAX_SCHEMA_TEXT characters of an input schema (a 1 MiB property description or enum took 0.8 s of one index build), its first words still found", () => {
    const camel = 'aB'.repeat(500_000);
    const tools: ToolDefinition[] = [
      { name: 'big_text', description: 'Tool.', inputSchema: { type: 'object', properties: { zeppelin: { type: 'string', description: `Airship code. ${camel}` } } } },
      { name: 'big_enum', description: 'Tool.', inputSchema: { type: 'object', properties: { kind: { type: 'string', enum: ['gondola', ...Array.from({ length: 40 }, (_, i) => `${camel.slice(0, 25_000)}${i}`)] } } } },
    ];
    const { catalog } = buildCatalog([{ server: 's', tools }], resolveConfig({}));
    for (const tool of catalog.tools) {
      const schema = toolFields(tool).find(([field]) => field === 'schema')?.[1] ?? '';
      expect(schema.length, tool.name).toBeLessThanOrEqual(MAX_SCHEMA_TEXT + 1);
    }
    const index = new SearchIndex(catalog.tools, catalog.groups);
    expect(index.search('airship', { limit: 1 }).map((hit) => hit.tool.name)).toEqual(['big_text']);
    expect(index.search('gondola', { limit: 1 }).map((hit) => hit.tool.name)).toEqual(['big_enum']);
  });

  it('reads at most MAX_SERVER_TEXT characters of one server\'s descriptions and schemas (64 MiB of them took about 40 s of one index build); past it its tools are found by name and summary, and other servers are read whole', () => {
    const long = (i: number) => `Reads ledger entry ${i}. ${'aB'.repeat(8_000)}`;
    const count = Math.ceil(MAX_SERVER_TEXT / 16_000) + 4;
    const flood: ToolDefinition[] = Array.from({ length: count }, (_, i) => ({ name: `entry_${String(i).padStart(4, '0')}`, description: long(i), inputSchema: { type: 'object' } }));
    // The flooding server's last tool says "walrus" only past its summary; its name says "narwhal".
    flood.push({ name: 'zz_narwhal', description: `${long(count)} walrus`, inputSchema: { type: 'object' } });
    const quiet: ToolDefinition[] = [{ name: 'tusk', description: `Short. Also mentions the walrus.`, inputSchema: { type: 'object' } }];
    const { catalog } = buildCatalog([{ server: 'flood', tools: flood }, { server: 'quiet', tools: quiet }], resolveConfig({}));
    const index = new SearchIndex(catalog.tools, catalog.groups);
    expect(index.search('walrus', { limit: 5 }).map((hit) => hit.tool.id)).toEqual(['quiet:tusk']);
    expect(index.search('narwhal', { limit: 1 }).map((hit) => hit.tool.id)).toEqual(['flood:zz_narwhal']);
    expect(index.search('ledger entry', { limit: 1 }).map((hit) => hit.tool.server)).toEqual(['flood']);
  });
});

describe('credential heuristics linear in the rc value', () => {
  it('judges a URL of 400,000 question marks and a word of 300,000 marks between two letters at once (RegExps tried each run from each of its characters: minutes)', () => {
    expect(looksSecret(`https://h.example/${'?'.repeat(400_000)}`)).toBe(false);
    expect(looksSecret(`https://h.example/${'?'.repeat(400_000)}&api_key=k3y-v4lue`)).toBe(true);
    expect(looksSecret(`a${'!'.repeat(300_000)}b`)).toBe(false);
    expect(looksSecret(`(${'Zx9Qw2Lp8Rt5Yv3Nb7Mk4Hj6'})${'.'.repeat(300_000)}`)).toBe(true);
  });
});
