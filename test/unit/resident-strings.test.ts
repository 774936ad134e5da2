import { describe, expect, it } from 'vitest';
import { placementOf } from '../../src/catalog/placement-cache.js';
import { scoreTopics } from '../../src/catalog/placement.js';
import { writeStatus } from '../../src/catalog/read-only.js';
import type { ToolDefinition } from '../../src/catalog/types.js';
import { SHARED_STRINGS, SHARED_VALUES, flatString, shareStringValues, sharedString } from '../../src/util/flat.js';
import { nameSkeleton } from '../../src/util/lookalike.js';

// What a gateway keeps per tool for as long as it runs is built compactly (flat strings, no map
// per definition); these tests pin that the values are the same as before.

describe('flat and shared strings', () => {
  it('keep the text exactly, whatever its length or script', () => {
    for (const text of ['', 'a', 'ab', 'description "repository"', 'descripción "ré"', '名前 "検索"', '😀 emoji'.repeat(40)]) {
      expect(flatString(text)).toBe(text);
      expect(sharedString(text)).toBe(text);
    }
  });

  it('give every equal text one copy, built afresh or not', () => {
    const word = ['own', 'er'].join('');
    const first = sharedString(`field "${word}"`);
    expect(sharedString(`field "${['ow', 'ner'].join('')}"`)).toBe(first);
    expect(sharedString('field "owner"')).toBe('field "owner"');
  });

  it('stay bounded: a pool of every distinct text asked for starts afresh past its size', () => {
    for (let i = 0; i < SHARED_STRINGS + 10; i++) expect(sharedString(`reason ${i}`)).toBe(`reason ${i}`);
  });
});

describe('name skeletons', () => {
  it('fold case and compatibility forms, and map Cyrillic and Greek lookalikes to Latin', () => {
    expect(nameSkeleton('Search_Issues')).toBe('search_issues');
    expect(nameSkeleton('ｓｅａｒｃｈ')).toBe('search');
    expect(nameSkeleton('sеаrch')).toBe('search'); // Cyrillic е and а
    expect(nameSkeleton('ραth')).toBe('path'); // Greek ρ and α
    expect(nameSkeleton('')).toBe('');
  });
});

describe('placementOf', () => {
  const tool: ToolDefinition = { name: 'create_issue', description: 'Create a new issue in a GitHub repository.', inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string' } } } };
  const input = (server: string, title?: string) => ({ server, name: tool.name, title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema });

  it('places one definition per server and title, each as placing it afresh would, the same object when asked again', () => {
    const first = placementOf(tool, input('github'));
    const other = placementOf(tool, input('gitlab'));
    const titled = placementOf(tool, input('github', 'Open an issue'));
    for (const [placed, server, title] of [[first, 'github', undefined], [other, 'gitlab', undefined], [titled, 'github', 'Open an issue']] as const) {
      expect(placed.topics).toEqual(scoreTopics(input(server, title)));
      expect(placed.write).toEqual(writeStatus(input(server, title)));
    }
    expect(placementOf(tool, input('github'))).toBe(first);
    expect(placementOf(tool, input('gitlab'))).toBe(other);
    expect(placementOf(tool, input('github', 'Open an issue'))).toBe(titled);
    // No title and an empty title are one key, as they always were.
    expect(placementOf(tool, input('github', ''))).toBe(first);
  });
});

describe('shareStringValues', () => {
  it('leaves a parsed tree equal, its equal string values one string, and an own "__proto__" key data', () => {
    const text = JSON.stringify({
      servers: {
        a: { tools: [{ name: 'x', description: 'Repository owner', inputSchema: { type: 'object', properties: { owner: { type: 'string', description: 'Repository owner' } } } }] },
        b: { tools: [{ name: 'y', description: 'Repository owner', inputSchema: { type: 'object', properties: { PROTO: { description: 'Repository owner' } }, enum: ['Repository owner', 1, null, true] } }] },
      },
    }).replace('"PROTO"', '"__proto__"');
    const tree = JSON.parse(text) as Record<string, unknown>;
    shareStringValues(tree);
    expect(tree).toEqual(JSON.parse(text));
    expect(JSON.stringify(tree)).toBe(text);
    const b = ((tree.servers as Record<string, { tools: Array<{ inputSchema: { properties: Record<string, unknown> } }> }>).b?.tools[0]?.inputSchema.properties ?? {});
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    expect(Object.keys(b)).toEqual(['__proto__']);
  });

  it('takes anything JSON.parse gives, scalars included', () => {
    for (const value of [null, 1, 'text', true, [], {}]) expect(() => shareStringValues(value)).not.toThrow();
  });
});

describe('shareStringValues past its pool bound', () => {
  it('pools at most SHARED_VALUES distinct values (a Map past 2^24 entries threw and a 17-million-string lock never served), sharing on afresh', () => {
    expect(SHARED_VALUES).toBeLessThan(2 ** 24);
    // Three distinct values, a pool of two: the third starts a new pool, in which later copies are shared.
    const tree = JSON.parse(JSON.stringify({ a: ['alpha value', 'beta value', 'gamma value', 'gamma value', 'alpha value'] })) as { a: string[] };
    shareStringValues(tree, 2);
    expect(tree.a).toEqual(['alpha value', 'beta value', 'gamma value', 'gamma value', 'alpha value']);
  });
});
