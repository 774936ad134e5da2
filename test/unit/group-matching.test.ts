import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { compileGroup, type GroupCandidate, type Match } from '../../src/catalog/groups.js';
import { normalized, words } from '../../src/catalog/text.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { GroupConfig } from '../../src/config/schema.js';
import { compileGlob, globList } from '../../src/util/glob.js';
import { CATALOGS, stackSources } from '../harness/index.js';

/**
 * Group filters read an index, not every glob and keyword: an rc of 150,000 keywords, 100,000
 * tool globs and 60,000 exclude globs took 4-5 s per catalog build on 148 tools (globs x tools on
 * every upstream start). The index must keep each membership and its reason exactly: these tests
 * compare it with the scan in order it replaced.
 */

/** The scan the index replaced: first glob (in order) that matches, first keyword the text includes. */
function scanned(config: GroupConfig): (tool: GroupCandidate) => Match | undefined {
  const pattern = (glob: string) => compileGlob(glob.includes(':') ? glob : `*:${glob}`);
  const servers = config.servers?.map(compileGlob);
  const tools = (config.tools ?? []).map(pattern);
  const phrases = (config.keywords ?? []).map((keyword) => normalized(keyword).trimEnd());
  const exclude = (config.exclude ?? []).map(pattern);
  return (tool) => {
    let match: Match = { reason: 'every tool' };
    if (servers) {
      const index = servers.findIndex((glob) => glob.test(tool.server));
      if (index < 0) return undefined;
      match = { reason: `server "${config.servers?.[index]}"` };
    }
    if (config.tools || config.keywords) {
      const glob = tools.find((each) => each.test(tool.id));
      const phrase = phrases.find((each) => tool.text.includes(each));
      if (glob !== undefined) match = { reason: `tool glob "${config.tools?.[tools.indexOf(glob)]}"` };
      else if (phrase !== undefined) match = { reason: `keyword "${phrase.trim()}"` };
      else return undefined;
    }
    if (exclude.some((glob) => glob.test(tool.id))) return undefined;
    return match;
  };
}

/** A deterministic shuffle (the order decides which glob or keyword a reason names). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const catalogs = await Promise.all(readdirSync(CATALOGS).filter((file) => file.endsWith('.json')).map((file) => readCatalogFile(path.join(CATALOGS, file))));
// Every third tool of the fixture catalogs (about 1,900 of 5,600), so the scans stay quick.
const candidates: GroupCandidate[] = catalogs.flat().flatMap(({ server, tools }) =>
  tools.filter((_, index) => index % 3 === 0).map((tool) => ({ id: `${server}:${tool.name}`, server, readOnly: false, text: normalized(`${tool.name} ${tool.title ?? ''} ${tool.description?.slice(0, 80) ?? ''}`) })),
);

describe('group filters on an index', () => {
  it('keep every tool and name the same glob or keyword as a scan in order, over every fixture catalog', { timeout: 60_000 }, () => {
    const names = [...new Set(candidates.map((tool) => tool.id.slice(tool.id.indexOf(':') + 1)))];
    const servers = [...new Set(candidates.map((tool) => tool.server))];
    const vocabulary = [...new Set(candidates.flatMap((tool) => tool.text.trim().split(' ')))];
    const keywords = [
      '',
      'listIssues',
      'Pull-Request',
      'zzz nothing',
      ...vocabulary.slice(0, 400),
      ...vocabulary.map((word) => word.slice(0, Math.ceil(word.length / 2))),
      ...candidates.slice(0, 600).flatMap((tool) => {
        const parts = tool.text.trim().split(' ');
        return [parts.slice(0, 2).join(' '), `${parts.slice(1, 3).join(' ').slice(0, -1)}`, parts.slice(2, 5).join('_'), `${parts[0] ?? ''} ${parts[2] ?? ''}`];
      }),
    ];
    const globs = [
      '*',
      '?',
      '*_issue*',
      '*:get_*',
      'GET_*',
      '*s',
      '*:*:*',
      ...names.slice(0, 300),
      ...names.slice(0, 200).map((name) => name.toUpperCase()),
      ...candidates.slice(0, 200).map((tool) => tool.id),
      ...servers.map((server) => `${server}:*`),
      ...names.slice(0, 200).map((name) => `${name.slice(0, 3)}*${name.slice(-2)}`),
      ...names.slice(0, 100).map((name) => `*${name.slice(2, 6)}*`),
      ...names.slice(0, 100).map((name) => `${name.slice(0, 12)}?${name.slice(13)}`),
    ];
    const configs: GroupConfig[] = [];
    for (let seed = 1; seed <= 6; seed++) {
      configs.push({ keywords: shuffled(keywords, seed).slice(0, 100 * seed) });
      configs.push({ tools: shuffled(globs, seed).slice(0, 80 * seed) });
      configs.push({ tools: shuffled(globs, seed + 10).slice(0, 40 * seed), keywords: shuffled(keywords, seed + 10).slice(0, 60 * seed), exclude: shuffled(globs, seed + 20).slice(0, 30 * seed) });
      configs.push({ servers: shuffled([...servers, ...servers.map((server) => `${server.slice(0, 2)}*`), '*'], seed).slice(0, 5 * seed), keywords: shuffled(vocabulary, seed).slice(0, 100) });
    }
    let kept = 0;
    let checked = 0;
    for (const [index, config] of configs.entries()) {
      const group = compileGroup(`g${index}`, config);
      const scan = scanned(config);
      for (const tool of candidates) {
        const want = scan(tool);
        expect([index, tool.id, group.explain(tool)]).toEqual([index, tool.id, want]);
        if (want) kept++;
        checked++;
      }
    }
    expect(checked).toBe(configs.length * candidates.length);
    // Both outcomes are well represented (a comparison of only misses would prove little).
    expect(kept).toBeGreaterThan(checked / 10);
    expect(checked - kept).toBeGreaterThan(checked / 10);
  });

  it('find the first matching glob of a list as a scan does, on every short glob and id over a small alphabet', () => {
    const alphabet = ['a', 'b', ':', '*', '?'];
    const strings = (length: number): string[] => (length === 0 ? [''] : strings(length - 1).flatMap((w) => alphabet.map((c) => w + c)));
    const globs = [0, 1, 2, 3].flatMap(strings);
    const texts = [0, 1, 2, 3, 4].flatMap(strings).filter((text) => !/[*?]/.test(text));
    for (let seed = 1; seed <= 20; seed++) {
      const list = shuffled(globs, seed).slice(0, 8 * seed);
      const compiled = list.map(compileGlob);
      const indexed = globList(list);
      for (const text of [...texts, ...texts.map((text) => text.toUpperCase())]) expect([seed, text, indexed.first(text)]).toEqual([seed, text, compiled.findIndex((glob) => glob.test(text))]);
    }
  });

  it('match a glob as its anchored RegExp does, with and without "?", on every short glob and text over a small alphabet', () => {
    // The `*`-only globs find their literal pieces in order (indexOf); globs with `?` walk: both must match as `.*` and `.` do.
    const alphabet = ['a', 'b', ':', '*', '?'];
    const strings = (length: number): string[] => (length === 0 ? [''] : strings(length - 1).flatMap((w) => alphabet.map((c) => w + c)));
    const regexp = (glob: string) => new RegExp(`^${[...glob].map((c) => (c === '*' ? '[^]*' : c === '?' ? '[^]' : c)).join('')}$`, 'i');
    const texts = [0, 1, 2, 3, 4, 5].flatMap(strings).filter((text) => !/[*?]/.test(text));
    for (const glob of [0, 1, 2, 3, 4].flatMap(strings)) {
      const compiled = compileGlob(glob);
      const reference = regexp(glob);
      for (const text of [...texts, ...texts.map((text) => text.toUpperCase())]) if (compiled.test(text) !== reference.test(text)) expect([glob, text, compiled.test(text)]).toEqual([glob, text, reference.test(text)]);
    }
  });

  it('find a keyword that spans words, and one that is a word start, by its first occurrence in the list', () => {
    const text = normalized('create_pull_request Opens a pull request');
    const group = compileGroup('g', { keywords: ['pull requests', 'request op', 'pull req', 'pull'] });
    expect(group.explain({ id: 's:create_pull_request', server: 's', readOnly: false, text })).toEqual({ reason: 'keyword "request op"' });
    expect(compileGroup('g', { keywords: ['ull', 'quest'] }).explain({ id: 's:x', server: 's', readOnly: false, text })).toBeUndefined();
    expect(words('createPullRequest')).toEqual(['create', 'pull', 'request']);
  });

  it('an rc of 150,000 keywords, 100,000 tool globs and 60,000 exclude globs builds the catalog of 148 tools three times within the test limit', { timeout: 10_000 }, async () => {
    // Before the index each build took 4-5 s here (keywords x tools substring searches); now well under one.
    const keyword = (i: number) => `kw${i.toString(36)}zq`;
    const config = resolveConfig({
      groups: {
        kw: { keywords: [...Array.from({ length: 150_000 }, (_, i) => keyword(i)), 'search'] },
        tl: { tools: [...Array.from({ length: 100_000 }, (_, i) => `tool_${i}_x`), 'SequentialThinking'] },
        ex: { exclude: Array.from({ length: 60_000 }, (_, i) => `srv${i}:*_y`) },
      },
      modes: { big: { groups: ['kw', 'tl', 'ex'], budget: 3_000 } },
    });
    const sources = await stackSources();
    for (let build = 0; build < 3; build++) {
      const { catalog } = buildCatalog(sources, config);
      expect(catalog.tools.length).toBe(148);
      expect(catalog.groups.get('kw')?.tools.length, 'tools the keyword "search" keeps').toBeGreaterThan(0);
      expect(catalog.groups.get('tl')?.tools.map((tool) => tool.id)).toEqual(['sequential-thinking:sequentialthinking']);
      expect(catalog.groups.get('ex')?.tools.length).toBe(148);
    }
  });
});
