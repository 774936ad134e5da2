import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../../bench/generate.mjs';
import { parseCatalog } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { FOCUS_REPLY_MAX, focusMode } from '../../src/handlers/focus-mode.js';
import { UNBUDGETED_REPLY_TOKENS } from '../../src/handlers/callable.js';
import { countTextTokens } from '../../src/util/tokens.js';
import { Gateway } from '../../src/app/gateway.js';
import { ModernRequest } from '../../src/callers/request.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { inMemoryClient, text } from '../harness/index.js';

/** 10,000 generated tools, with groups that take thousands of them, so a switch moves thousands. */
const sources = parseCatalog(generateCatalog(10_000));
const rc = {
  groups: { billing: { servers: ['billing-*'] }, chat: { servers: ['chat-*'] }, everything: { tools: ['*'] } },
  modes: {
    billing: { groups: ['billing'], description: 'Billing work '.repeat(40), budget: 3000 },
    chat: { groups: ['chat', 'billing'] },
    wide: { groups: ['everything'], fit: false },
  },
};

// Catalog work at 10,000 tools: 8 to 18 s a test beside another suite on 2 cores, near the unit
// project's 30 s; an upper bound only (as in compact.test.ts), nothing here is timed.
describe('focus_mode replies are terse and bounded at 10,000 tools', { timeout: 120_000 }, () => {
  it('legacy sessions: mode, counts, tokens, the cut, +N/-M with a handful of names, at most 1,500 characters', async () => {
    const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: sources });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'reply-test' });
    try {
      for (const args of [{ mode: 'wide' }, { mode: 'billing' }, { mode: 'chat' }, { mode: 'wide' }, { status: true }, { intent: 'zzz qqq' }, { enable_group: 'chat' }]) {
        const result = (await client.callTool({ name: 'focus_mode', arguments: args })) as CallToolResult;
        const reply = text(result);
        expect(reply.length, JSON.stringify(args)).toBeLessThanOrEqual(FOCUS_REPLY_MAX);
        expect(JSON.stringify(result.structuredContent).length, JSON.stringify(args)).toBeLessThanOrEqual(FOCUS_REPLY_MAX * 2);
      }
      const toBilling = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'billing' } })) as CallToolResult;
      const reply = text(toBilling);
      expect(reply).toMatch(/^Mode: billing: Billing work/);
      expect(reply).toMatch(/^Visible: \d+ of 10000 tools, \d+ of \d+ tokens \(\d+\.\d% fewer\)$/m);
      // From every tool to the billing servers: thousands went, five names at most.
      const changed = /^Changed: \+(\d+), -(\d+)(: .*)?$/m.exec(reply);
      expect(Number(changed?.[2])).toBeGreaterThan(1000);
      expect((changed?.[3] ?? '').split(', ').length).toBeLessThanOrEqual(6);
      expect(toBilling.structuredContent).toMatchObject({ mode: 'billing', removedCount: Number(changed?.[2]) });
      expect((toBilling.structuredContent as { removed: string[] }).removed).toHaveLength(5);
      expect(reply).toMatch(/^Held back by the budget: \d+ tools of this mode; search_tools finds them first\.$/m);
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('2026-07-28 requests: a terse status, then the target mode\'s tools bounded by its budget (whatever the catalog)', () => {
    const gateway = new Gateway({ config: resolveConfig(rc), upstreams: [], locked: sources });
    const request = (baseUrl?: string) => new ModernRequest(gateway, { baseUrl }, { mode: 'wide', fixedMode: undefined, boundary: boundaryOf({}) });
    for (const [args, budget] of [
      [{ mode: 'billing' }, 3000],
      [{ mode: 'chat' }, UNBUDGETED_REPLY_TOKENS],
    ] as const) {
      const reply = text(focusMode(request('http://127.0.0.1:1/mcp'), args));
      const [status, tools = ''] = reply.split(/\nTools of mode \w+, callable now/);
      expect(status!.length, JSON.stringify(args)).toBeLessThanOrEqual(FOCUS_REPLY_MAX);
      expect(countTextTokens(tools), JSON.stringify(args)).toBeLessThanOrEqual(budget + 100);
      expect(tools).toMatch(/more tools of mode \w+: search_tools \{"query": …\} finds them\.$/);
    }
    for (const args of [{ status: true }, { intent: 'zzz qqq' }]) expect(text(focusMode(request(), args)).length).toBeLessThanOrEqual(FOCUS_REPLY_MAX);
    expect(text(focusMode(request(), { mode: 'billing' }))).toContain('This request runs in mode wide: 10000 of 10000 tools');
  });

  it('the tools a reply carries are bounded in structuredContent too: the arguments their lines name, and how many more', () => {
    // Thirty tools of 2,000 long-named arguments each: the lines name 12 of each, as their tokens count.
    const properties = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`argument_${'x'.repeat(100)}_${i}`, { type: 'string' }]));
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: `wide_${i}`, description: 'A tool of many arguments.', inputSchema: { type: 'object' as const, properties, required: [`argument_${'x'.repeat(100)}_0`] } }));
    const config = resolveConfig({ groups: { wide: { servers: ['wide'] } }, modes: { wide: { groups: ['wide'], budget: 3000 }, other: { groups: [] } } });
    const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'wide', tools }] });
    const request = new ModernRequest(gateway, { baseUrl: 'http://127.0.0.1:1/mcp' }, { mode: 'other', fixedMode: undefined, boundary: boundaryOf({}) });
    const result = focusMode(request, { mode: 'wide' });
    const reply = text(result);
    const structured = result.structuredContent as { tools: Array<{ name: string; arguments: Array<{ name: string; required: boolean }>; moreArguments?: number }> };
    expect(structured.tools.length).toBeGreaterThan(0);
    for (const tool of structured.tools) {
      expect(tool.arguments).toHaveLength(12);
      expect(tool.arguments[0]).toMatchObject({ required: true });
      expect(tool.moreArguments).toBe(1_988);
      expect(reply).toContain(`- ${tool.name}(argument_${'x'.repeat(100)}_0: string, `);
    }
    expect(reply).toContain(', … 1988 more): ');
    // What the model reads in structured form is about what the lines say (it was 3.5 MB for 17 KB of text).
    expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(reply.length * 2);
  });
});

describe('focus_mode replies keep what they are for whatever the rc says', () => {
  it('2026-07-28: a long mode description does not push out how to reach the mode', () => {
    // rc allows descriptions of 1,000 characters and names of 64: quoted whole, the reach line fell past FOCUS_REPLY_MAX.
    const long = `m${'x'.repeat(63)}`;
    const config = resolveConfig({
      groups: { notes: { servers: ['notes'] } },
      modes: { [long]: { groups: ['notes'], description: 'Notes work, '.repeat(83), budget: 3000 }, other: { groups: [] } },
      variants: { enabled: true },
    });
    const tools = [{ name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' as const } }];
    const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'notes', tools }] });
    const request = new ModernRequest(gateway, { baseUrl: 'http://127.0.0.1:1/mcp' }, { mode: 'other', fixedMode: undefined, boundary: boundaryOf({}) });
    const [status = ''] = text(focusMode(request, { mode: long, intent: undefined })).split(/\nTools of mode /);
    expect(status.length).toBeLessThanOrEqual(FOCUS_REPLY_MAX);
    expect(status).toContain(`/server-variant": "${long}"} on each request`);
    expect(status).toContain(`connect to http://127.0.0.1:1/mcp/${long}.`);
  });

  it('an unclear intent names as many modes as the reply holds, whole lines, then how many more, and still says what to do', async () => {
    // 60 modes of long names and descriptions: listed whole, the reply was cut mid-line and lost its last line.
    const modes = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`${'workstream'.repeat(5)}_${i}`, { groups: [], description: `Work of kind ${i} ${'with many words '.repeat(6)}` }]));
    const gateway = new Gateway({ config: resolveConfig({ modes }), upstreams: [], locked: [] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'reply-test' });
    try {
      const reply = text((await client.callTool({ name: 'focus_mode', arguments: { intent: 'zzz qqq' } })) as CallToolResult);
      expect(reply.length).toBeLessThanOrEqual(FOCUS_REPLY_MAX);
      const lines = reply.split('\n');
      expect(lines.at(-1)).toBe('Then call focus_mode with {"mode": "<name>"}.');
      expect(lines.at(-2)).toMatch(/^… and \d+ more modes\.$/);
      const listed = lines.filter((line) => line.startsWith('- '));
      expect(listed.length).toBeGreaterThan(5);
      const names = Object.keys(resolveConfig({ modes }).modes);
      // Whole lines only: each names a mode whole and ends its description's headline.
      for (const line of listed) expect(names).toContain(/^- (\S+): /.exec(line)?.[1]);
      expect(listed.length + Number(/(\d+) more/.exec(lines.at(-2) ?? '')?.[1])).toBe(names.length);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
