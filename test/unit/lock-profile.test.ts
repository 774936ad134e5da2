import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';

const tool = { name: 'echo', inputSchema: { type: 'object' as const } };

describe('lock profile (what a server offers besides tools)', () => {
  it('round-trips through makeLock and parseCatalog', () => {
    const profile = {
      protocol: { era: 'modern' as const, discover: { supportedVersions: ['2026-07-28'] } },
      capabilities: { prompts: {}, tools: {} },
      instructions: 'Use echo.',
      prompts: [{ name: 'greet' }],
      resources: [{ uri: 'test://a', name: 'a' }],
      resourceTemplates: [{ uriTemplate: 'test://{x}', name: 'x' }],
    };
    const lock = JSON.parse(JSON.stringify(makeLock([{ server: 'one', tools: [tool], profile }])));
    expect(parseCatalog(lock)).toEqual([{ server: 'one', tools: [tool], profile }]);
  });

  it('keeps only the well-formed parts of an edited lock, and never fails on them', () => {
    const lock = JSON.parse(
      '{"servers":{"one":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}],' +
        '"protocol":{"era":"modern"},"capabilities":[1],"instructions":7,' +
        '"prompts":[{"name":"ok"},{"name":3},null,"x"],"resources":{"uri":"test://a"},' +
        '"__proto__":{"polluted":true}}}}',
    );
    const [entry] = parseCatalog(lock);
    // A modern verdict without its discover result is no verdict; bad lists lose their bad items.
    expect(entry?.profile).toEqual({ prompts: [{ name: 'ok' }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('forgets a modern verdict whose discover result is malformed (the server is probed again)', () => {
    for (const discover of [{ supportedVersions: 5 }, { supportedVersions: [] }, { supportedVersions: [7] }, { supportedVersions: ['2026-07-28'], capabilities: 'x' }, { supportedVersions: ['2026-07-28'], serverInfo: [] }]) {
      const [entry] = parseCatalog({ servers: { one: { tools: [tool], protocol: { era: 'modern', discover } } } });
      expect(entry?.profile?.protocol, JSON.stringify(discover)).toBeUndefined();
    }
    const [kept] = parseCatalog({ servers: { one: { tools: [tool], protocol: { era: 'modern', discover: { supportedVersions: ['2026-07-28'], capabilities: {} } } } } });
    expect(kept?.profile?.protocol?.era).toBe('modern');
  });

  it('writes no profile keys for a plain catalog', () => {
    expect(Object.keys(makeLock([{ server: 'one', tools: [tool] }]).servers.one ?? {})).toEqual(['hash', 'tools']);
  });
});
