import { describe, expect, it } from 'vitest';
import { fitLines, fitting, PAGE_MAX_BYTES, PAGE_MAX_ITEMS, paginate } from '../../src/handlers/paging.js';
import { inMemoryClient } from '../harness/index.js';

const item = (name: string, bytes = 100) => ({ name, pad: 'x'.repeat(bytes) });
const key = (entry: { name: string }) => entry.name;

function walk<T extends { name: string }>(items: T[]): T[][] {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = paginate(items, cursor, key);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

describe('paginate', () => {
  it('answers a small list in one page with no cursor', () => {
    const items = Array.from({ length: 50 }, (_, i) => item(`t${i}`));
    expect(paginate(items, undefined, key)).toEqual({ items });
  });

  it('bounds pages by count and by bytes, and the pages add up to the list in order', () => {
    const many = Array.from({ length: 2_500 }, (_, i) => item(`t${i}`));
    const byCount = walk(many);
    expect(byCount.map((page) => page.length)).toEqual([PAGE_MAX_ITEMS, PAGE_MAX_ITEMS, 500]);
    expect(byCount.flat()).toEqual(many);

    const big = Array.from({ length: 40 }, (_, i) => item(`b${i}`, 100_000));
    const byBytes = walk(big);
    for (const page of byBytes) expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(PAGE_MAX_BYTES + page.length);
    expect(byBytes.length).toBeGreaterThan(3);
    expect(byBytes.flat()).toEqual(big);
  });

  it('gives an item larger than the bound a page of its own', () => {
    const items = [item('a'), item('huge', PAGE_MAX_BYTES * 2), item('b')];
    expect(walk(items).map((page) => page.map(key))).toEqual([['a'], ['huge'], ['b']]);
  });

  it('is stable: the same list pages the same way, so a cursor keeps working', () => {
    const items = Array.from({ length: 1_500 }, (_, i) => item(`t${i}`));
    const first = paginate(items, undefined, key);
    const again = paginate([...items.map((entry) => ({ ...entry }))], first.nextCursor, key);
    expect(again.items.map(key)).toEqual(items.slice(PAGE_MAX_ITEMS).map(key));
  });

  it('refuses a cursor from before the list changed, and one it never handed out', () => {
    const items = Array.from({ length: 1_500 }, (_, i) => item(`t${i}`));
    const { nextCursor } = paginate(items, undefined, key);
    expect(() => paginate(items.slice(1), nextCursor, key)).toThrow(/^Invalid cursor: the list changed/);
    expect(() => paginate([item('new'), ...items], nextCursor, key)).toThrow(/list changed/);
    for (const bad of ['', 'nope', Buffer.from('AAAAAAAAAAAAAAAA.0').toString('base64url'), Buffer.from('x'.repeat(16) + '.99999').toString('base64url')])
      expect(() => paginate(items, bad, key)).toThrow(/^Invalid cursor: /);
  });
});

describe('meta-tool answers stay under the bound', () => {
  it('fitting keeps the longest prefix that fits, at least one item', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(`t${i}`, 100_000));
    const { kept, omitted } = fitting(items);
    expect(kept.length + omitted).toBe(30);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    expect(fitting([item('huge', PAGE_MAX_BYTES * 3)]).kept).toHaveLength(1);
  });

  it('fitLines cuts long text and says how much was left out', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `tool_${i}: ${'word '.repeat(20)}`);
    const text = fitLines(lines, (n) => `… and ${n} more`);
    expect(Buffer.byteLength(text)).toBeLessThan(PAGE_MAX_BYTES + 100);
    expect(text).toMatch(/… and \d+ more$/);
    expect(fitLines(['a', 'b'], () => 'never')).toBe('a\nb');
  });
});

describe('through the protocol, on a 2,000-tool catalog', () => {
  it('keeps describe_tools and list_tool_groups answers under the bound', async () => {
    const { resolveConfig } = await import('../../src/config/resolve.js');
    const { Gateway } = await import('../../src/app/gateway.js');
    // @ts-expect-error: plain .mjs fixture, no types
    const { generatedTools } = await import('../fixtures/servers/generated-tools.mjs');
    const known = Array.from({ length: 20 }, (_, s) => ({ server: `gen-${s}`, tools: generatedTools(s, 100) }));
    const config = resolveConfig({ defaultMode: 'all', strategy: 'proxy', groups: { everything: { description: 'every generated tool', servers: known.map((k) => k.server) } } });
    const gateway = new Gateway({ config, upstreams: [], locked: known });
    const session = gateway.createSession({});
    const client = await inMemoryClient((t) => session.connect(t), { name: 'bounds' });
    try {
      const names = gateway.catalog.tools.map((tool) => tool.exposedName);
      expect(names).toHaveLength(2_000);
      const described = await client.callTool({ name: 'describe_tools', arguments: { names: names } });
      const text = (described.content as Array<{ text: string }>)[0]!.text;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PAGE_MAX_BYTES + 200_000);
      const body = JSON.parse(text) as { tools: unknown[]; notDescribed: string[] };
      expect(body.tools.length + body.notDescribed.length).toBe(2_000);
      expect(body.notDescribed.length).toBeGreaterThan(0);
      const group = await client.callTool({ name: 'list_tool_groups', arguments: { group: 'everything' } });
      const groupText = (group.content as Array<{ text: string }>)[0]!.text;
      expect(Buffer.byteLength(groupText)).toBeLessThanOrEqual(PAGE_MAX_BYTES + 1_000);
      const more = /… and (\d+) more tools/.exec(groupText);
      expect(groupText.split('\n').length - 1 - (more ? 1 : 0) + Number(more?.[1] ?? 0)).toBe(2_000);
    } finally {
      await client.close();
    }
  });
});
